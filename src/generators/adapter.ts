/**
 * The project's database adapter (auth/adapter.ts), its connection module for
 * SQL backends (auth/db.ts), the SQL schema it expects, and the module
 * `create-auth verify-adapter` runs (auth/verify-adapter.ts). Each backend's
 * module (src/backends/) plans its own files; this adds what every adapter has.
 */

import { type Backend, backendEntry } from "../backends/index.js";
import type { Dialect } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
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

/** The adapter and what comes with it; `adapterPath` is the module exporting `createAdapter()`, every template's factory. */
export async function generateAdapter(backend: Backend, options: AdapterOptions) {
  const entry = backendEntry(backend);
  const dialect = entry.dialect;
  if (dialect && options.dialect && options.dialect !== dialect) {
    throw new Error(`The ${backend} adapter writes ${dialect} SQL, not ${options.dialect}`);
  }
  const dir = options.dir ?? authDir;
  const adapterPath = `${dir}/adapter.ts`;
  const planned = await entry.plan({
    ext: options.importExtension,
    dir,
    adapterPath,
    passwords: options.passwords ?? false,
  });
  return {
    adapterPath,
    files: planned.files as PlannedFile[],
    // Type-only import of @auth/core/adapters; Auth.js projects have it already.
    dependencies: ["@auth/core", ...planned.dependencies] as DependencyName[],
    devDependencies: ["create-auth", ...planned.devDependencies] as DependencyName[],
    env: planned.env as GeneratedPart["env"],
    scripts: { "verify-adapter": verifyScript(dir), ...planned.scripts } as Record<string, string>,
    /** The module exporting verifyUserPassword(), when password sign-in is generated. */
    passwordsPath: planned.passwordsPath as string | undefined,
    /** The SQL script `create-auth migrate` applies, for SQL backends. */
    schemaPath: planned.schemaPath as string | undefined,
  };
}
