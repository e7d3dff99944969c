/**
 * The project's database adapter (auth/adapter.ts), its connection module for
 * SQL backends (auth/db.ts), the SQL schema it expects, and the module
 * `create-auth verify-adapter` runs (auth/verify-adapter.ts).
 *
 * The three SQL backends share two templates (adapters/db.ts.hbs and
 * adapters/sql.ts.hbs) with small dialect conditionals; memory and skeleton
 * have their own.
 */

import { type Backend, type Dialect, dialectOf } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
import { renderTemplate } from "./render.js";
import { generateSqlSchema, sqlDialectContext, sqlSchemaPath } from "./sql-schema.js";
import { authDir, type GeneratedPart, type PlannedFile } from "./types.js";

export interface AdapterOptions {
  /** How relative imports end: ".js" for NodeNext resolution, "" for bundlers. */
  importExtension: "" | ".js";
  /** Must match the backend when given; SQL backends imply their dialect. */
  dialect?: Dialect;
  /** The folder of the adapter's files, relative to the project root (default "auth"; SvelteKit: src/lib/server/auth). */
  dir?: string;
  /** Password sign-in (credentials): a password module and the auth:add-user script, for SQL backends. */
  passwords?: boolean;
}

const verifyScript = (dir: string) => `create-auth verify-adapter ${dir}/verify-adapter.ts --require all`;

interface BackendPackages {
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: GeneratedPart["env"];
}

const drivers: Record<Dialect, BackendPackages> = {
  sqlite: {
    dependencies: ["better-sqlite3"],
    devDependencies: ["@types/better-sqlite3"],
    env: [
      {
        name: "AUTH_DATABASE_PATH",
        description: "SQLite database file of the auth adapter (default ./auth.db)",
        example: "./auth.db",
      },
    ],
  },
  postgres: {
    dependencies: ["pg"],
    devDependencies: ["@types/pg"],
    env: [
      {
        name: "DATABASE_URL",
        description: "PostgreSQL connection string of the auth adapter",
        example: "postgres://postgres@127.0.0.1:5432/app",
      },
    ],
  },
  mysql: {
    // mysql2 ships its own types.
    dependencies: ["mysql2"],
    devDependencies: [],
    env: [
      {
        name: "DATABASE_URL",
        description: "MySQL or MariaDB connection string of the auth adapter",
        example: "mysql://root@127.0.0.1:3306/app",
      },
    ],
  },
};

/** The adapter and what comes with it; `adapterPath` is the module exporting `createAdapter()`, every template's factory. */
export async function generateAdapter(backend: Backend, options: AdapterOptions) {
  const dialect = dialectOf(backend);
  if (dialect && options.dialect && options.dialect !== dialect) {
    throw new Error(`The ${backend} adapter writes ${dialect} SQL, not ${options.dialect}`);
  }
  const ext = options.importExtension;
  const dir = options.dir ?? authDir;
  const files: PlannedFile[] = [];
  const adapterPath = `${dir}/adapter.ts`;
  const part = {
    adapterPath,
    files,
    // Type-only import of @auth/core/adapters; Auth.js projects have it already.
    dependencies: ["@auth/core"] as DependencyName[],
    devDependencies: ["create-auth"] as DependencyName[],
    env: [] as GeneratedPart["env"],
    scripts: { "verify-adapter": verifyScript(dir) } as Record<string, string>,
    /** The module exporting verifyUserPassword(), when password sign-in is generated. */
    passwordsPath: undefined as string | undefined,
    /** The SQL script `create-auth migrate` applies, for SQL backends. */
    schemaPath: undefined as string | undefined,
  };

  if (dialect) {
    const context = { ...sqlDialectContext(dialect), ext, sql: true };
    files.push({ path: adapterPath, contents: await renderTemplate("adapters/sql.ts.hbs", context) });
    files.push({ path: `${dir}/db.ts`, contents: await renderTemplate("adapters/db.ts.hbs", context) });
    files.push({
      path: `${dir}/verify-adapter.ts`,
      contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context),
    });
    // setup() reads the schema from the same folder, so it is part of the adapter
    // even when the project's schema flavour is an ORM. Same path and contents as
    // generateSqlSchema, so a plan holding both can keep either.
    files.push(...(await generateSqlSchema(dialect, dir)).files);
    part.schemaPath = sqlSchemaPath(dialect, dir);
    // Applies the schema with the connection from the env files; safe to rerun (CREATE ... IF NOT EXISTS).
    part.scripts["db:migrate"] = `create-auth migrate ${part.schemaPath}`;
    if (options.passwords) {
      part.passwordsPath = `${dir}/passwords.ts`;
      files.push({ path: part.passwordsPath, contents: await renderTemplate("adapters/passwords.ts.hbs", context) });
      files.push({ path: `${dir}/add-user.ts`, contents: await renderTemplate("adapters/add-user.ts.hbs", context) });
      files.push({ path: `${dir}/load-env.ts`, contents: await renderTemplate("adapters/load-env.ts.hbs", context) });
      part.scripts["auth:add-user"] = `tsx ${dir}/add-user.ts`;
    }
    const driver = drivers[dialect];
    part.dependencies.push(...driver.dependencies);
    part.devDependencies.push(...driver.devDependencies);
    part.env.push(...driver.env);
  } else {
    const context = { ext, sql: false, dialect: "", sqlite: false };
    files.push({ path: adapterPath, contents: await renderTemplate(`adapters/${backend}.ts.hbs`, context) });
    files.push({
      path: `${dir}/verify-adapter.ts`,
      contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context),
    });
  }
  return part;
}
