/**
 * The three SQL backends: init's own adapter over the database driver, from
 * two templates (adapters/db.ts.hbs and adapters/sql.ts.hbs) with small
 * dialect conditionals, and the SQL schema `create-auth migrate` applies.
 * Each backend's module gives its dialect, driver and connection variable.
 */
import type { DependencyName } from "../../catalog/dependencies.js";
import type { Dialect } from "../../catalog/sql-dialects.js";
import { loadEnvModule } from "../../render/env-files.js";
import type { IgnoreEntry } from "../../render/gitignore.js";
import { type EnvVariable, type PlannedFile, part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import { defineStorage, type StorageModule, type StoragePart, verifyScript } from "../storage.js";
import { generateSqlSchema, sqlDialectContext, sqlSchemaPath } from "./schema.js";

interface SqlBackend {
  id: string;
  dialect: Dialect;
  hint: string;
  ignored?: readonly IgnoreEntry[];
  embedded?: boolean;
  /** The driver the connection module imports. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  /** The connection's variables. */
  env: EnvVariable[];
}

export function sqlBackend(backend: SqlBackend): StorageModule<Record<string, never>> {
  const { dialect } = backend;
  return defineStorage({
    id: backend.id,
    title: backend.id,
    hint: backend.hint,
    accountTokens: true,
    chosenBy: "backend",
    dialect,
    ignored: backend.ignored,
    embedded: backend.embedded,
    assume: () => ({}),
    async plan({ ext, authDir: dir, passwords, twoFactor, envOrder }) {
      const context = { ...sqlDialectContext(dialect), ext, sql: true };
      const adapterPath = `${dir}/adapter.ts`;
      const files: PlannedFile[] = [
        { path: adapterPath, contents: await renderTemplate("adapters/sql.ts.hbs", context) },
        { path: `${dir}/db.ts`, contents: await renderTemplate("adapters/db.ts.hbs", context) },
        { path: `${dir}/verify-adapter.ts`, contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context) },
        // verify-adapter's module and auth:add-user read the connection from the env files through it.
        await loadEnvModule(`${dir}/load-env.ts`, envOrder),
        // setup() reads the schema from the same folder, so it is part of the adapter.
        ...(await generateSqlSchema(dialect, dir)).files,
        // Two-factor state in the same database, through the same connection module (its tables are in the schema).
        ...(twoFactor
          ? [
              {
                path: `${dir}/two-factor-store.ts`,
                contents: await renderTemplate("adapters/two-factor-store.ts.hbs", context),
              },
            ]
          : []),
      ];
      const schemaPath = sqlSchemaPath(dialect, dir);
      const plan: StoragePart = {
        ...part({
          files,
          dependencies: ["@auth/core", ...backend.dependencies],
          devDependencies: ["create-auth", ...backend.devDependencies],
          env: [...backend.env],
          ignored: [...(backend.ignored ?? [])],
          scripts: {
            "verify-adapter": verifyScript(dir),
            // Applies the schema with the connection from the env files; safe to rerun (CREATE ... IF NOT EXISTS).
            "db:migrate": `create-auth migrate ${schemaPath}`,
          },
        }),
        adapterPath,
        dialect,
        schemaPath,
        tablesStep: "create the auth tables (safe to repeat): npm run db:migrate",
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
