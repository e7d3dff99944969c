/**
 * The three SQL backends share two templates (adapters/db.ts.hbs and
 * adapters/sql.ts.hbs) with small dialect conditionals; each backend's
 * module gives its dialect, driver and connection variable.
 */
import type { Dialect } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
import { renderTemplate } from "../generators/render.js";
import { generateSqlSchema, sqlDialectContext, sqlSchemaPath } from "../generators/sql-schema.js";
import type { GeneratedPart, PlannedFile } from "../generators/types.js";
import type { IgnoreEntry } from "../workspace/gitignore.js";
import { type BackendModule, type BackendPlan, defineBackend } from "./backend.js";

interface SqlBackend<N extends string> {
  name: N;
  dialect: Dialect;
  hint?: string;
  ignored?: readonly IgnoreEntry[];
  embedded?: boolean;
  /** The driver the connection module imports. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  /** The connection's variables. */
  env: GeneratedPart["env"];
}

export function sqlBackend<const N extends string>(backend: SqlBackend<N>): BackendModule<N> {
  const { dialect } = backend;
  return defineBackend({
    name: backend.name,
    hint: backend.hint,
    dialect,
    ignored: backend.ignored,
    embedded: backend.embedded,
    async plan({ ext, dir, adapterPath, passwords }) {
      const context = { ...sqlDialectContext(dialect), ext, sql: true };
      const files: PlannedFile[] = [
        { path: adapterPath, contents: await renderTemplate("adapters/sql.ts.hbs", context) },
        { path: `${dir}/db.ts`, contents: await renderTemplate("adapters/db.ts.hbs", context) },
        { path: `${dir}/verify-adapter.ts`, contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context) },
        // verify-adapter's module and auth:add-user read the connection from the env files through it.
        { path: `${dir}/load-env.ts`, contents: await renderTemplate("adapters/load-env.ts.hbs", context) },
      ];
      // setup() reads the schema from the same folder, so it is part of the adapter
      // even when the project's schema flavour is an ORM. Same path and contents as
      // generateSqlSchema, so a plan holding both can keep either.
      files.push(...(await generateSqlSchema(dialect, dir)).files);
      const schemaPath = sqlSchemaPath(dialect, dir);
      const plan: BackendPlan = {
        files,
        dependencies: [...backend.dependencies],
        devDependencies: [...backend.devDependencies],
        env: [...backend.env],
        // Applies the schema with the connection from the env files; safe to rerun (CREATE ... IF NOT EXISTS).
        scripts: { "db:migrate": `create-auth migrate ${schemaPath}` },
        schemaPath,
      };
      if (passwords) {
        plan.passwordsPath = `${dir}/passwords.ts`;
        files.push({ path: plan.passwordsPath, contents: await renderTemplate("adapters/passwords.ts.hbs", context) });
        files.push({ path: `${dir}/add-user.ts`, contents: await renderTemplate("adapters/add-user.ts.hbs", context) });
        plan.scripts["auth:add-user"] = `tsx ${dir}/add-user.ts`;
      }
      return plan;
    },
  });
}
