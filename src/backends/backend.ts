/**
 * What a backend declares, in one module per backend: its name and the hint
 * init's prompt shows, the SQL dialect its adapter speaks, what it adds to
 * .gitignore, and a plan of the adapter's files and packages.
 */
import type { Dialect } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
import { renderTemplate } from "../generators/render.js";
import type { GeneratedPart, PlannedFile } from "../generators/types.js";
import type { IgnoreEntry } from "../workspace/gitignore.js";

export interface AdapterContext {
  /** How relative imports end: ".js" for NodeNext resolution, "" for bundlers. */
  ext: "" | ".js";
  /** The folder of the adapter's files, relative to the project root. */
  dir: string;
  /** The module exporting `createAdapter()`, every template's factory. */
  adapterPath: string;
  /** Password sign-in (credentials): a password module and the auth:add-user script, where the backend stores users. */
  passwords: boolean;
}

/** What a backend adds to the adapter every backend has (its path, @auth/core, the verify-adapter script). */
export interface BackendPlan {
  files: PlannedFile[];
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: GeneratedPart["env"];
  scripts: Record<string, string>;
  /** The module exporting verifyUserPassword(), when password sign-in is generated. */
  passwordsPath?: string;
  /** The SQL script `create-auth migrate` applies, for SQL backends. */
  schemaPath?: string;
}

export interface BackendModule<N extends string = string> {
  name: N;
  /** One line beside the name where init's prompt offers it. */
  hint?: string;
  /** The SQL its adapter writes; memory and skeleton write none. */
  dialect?: Dialect;
  /** What its store writes into the project that must not be committed. */
  ignored?: readonly IgnoreEntry[];
  /** A store in the project itself, no server: init creates its tables as soon as the driver is installed. */
  embedded?: boolean;
  plan(context: AdapterContext): Promise<BackendPlan>;
}

/** Keeps a backend's name literal. */
export const defineBackend = <const N extends string>(backend: BackendModule<N>): BackendModule<N> => backend;

/** A backend without SQL: its own adapter template beside the verify-adapter module, and nothing to install. */
export async function planOwnTemplate(name: string, { ext, dir, adapterPath }: AdapterContext): Promise<BackendPlan> {
  const context = { ext, sql: false, dialect: "", sqlite: false };
  return {
    files: [
      { path: adapterPath, contents: await renderTemplate(`adapters/${name}.ts.hbs`, context) },
      { path: `${dir}/verify-adapter.ts`, contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context) },
    ],
    dependencies: [],
    devDependencies: [],
    env: [],
    scripts: {},
  };
}
