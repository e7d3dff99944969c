/**
 * What a storage module declares: where users, accounts, sessions and
 * tokens live, and everything that comes with it — how a project shows it
 * (an ORM detects itself), the adapter module and the module verify-adapter
 * runs, the schema and how its tables are made, the variables it reads and
 * what doctor compares with the live database. One module per storage,
 * listed in registry.ts; plan() is pure and refuses with a UsageError
 * before anything is written.
 */
import type { Dialect } from "../catalog/sql-dialects.js";
import type { IgnoreEntry } from "../render/gitignore.js";
import { type GeneratedPart, part } from "../render/parts.js";
import type { EnvOrder } from "../render/project-env.js";
import { renderTemplate } from "../render/templates.js";
import type { ProjectView } from "../workspace/project-view.js";

export interface StorageRequest<F = unknown> {
  /** What the module's detect() (or assume()) read of the project. */
  facts: F;
  /** --dialect or the backend's: the database when the project does not say (a new schema). */
  dialect: Dialect;
  /** The folder of the adapter and its helper modules. */
  authDir: string;
  ext: "" | ".js";
  /** --table-prefix: the auth tables get names of their own. */
  tablePrefix?: string;
  /** Password sign-in (credentials): a password module and the auth:add-user script, where the store keeps users. */
  passwords: boolean;
  /** Two-factor sign-in (--two-factor totp): two-factor-store.ts beside the adapter, its tables in the schema. */
  twoFactor?: boolean;
  /** The order the project's framework loads its env files in: the scripts' env loader follows it. */
  envOrder: EnvOrder;
}

export interface StoragePart extends GeneratedPart {
  /** The module exporting `createAdapter()`, which the auth config calls. */
  adapterPath: string;
  /** The database the tables are in, for SQL stores. */
  dialect?: Dialect;
  /** SQL that `create-auth migrate` applies. */
  schemaPath?: string;
  /** The next step that makes the tables, where init does not make them itself. */
  tablesStep?: string;
  /** Run in the project after the install, before anything imports the client (prisma generate). */
  afterInstall?: string[];
  /** The module exporting verifyUserPassword(), when password sign-in is generated. */
  passwordsPath?: string;
}

export interface StorageModule<F = unknown> {
  id: string;
  /** For the prompt and the config's header. */
  title: string;
  /** One line beside the title where the prompt offers it. */
  hint: string;
  /** Which flag chooses it: a backend of init's own adapter, or an ORM the project talks to its database through. */
  chosenBy: "backend" | "orm";
  /** The dialect its adapter writes when it is fixed (the SQL backends); ORMs take the project's. */
  dialect?: Dialect;
  /** A store in the project itself, no server: init creates its tables as soon as the driver is installed. */
  embedded?: boolean;
  /** Its adapter has updateAccount, listAccountsByUserId and leaseAccount: access-token rotation can use it. */
  accountTokens?: boolean;
  /** What its store writes into the project that must not be committed. */
  ignored?: readonly IgnoreEntry[];
  /** How the project shows it (an ORM's schema, config or package), with why. */
  detect?(project: ProjectView): { facts: F; reason: string } | undefined;
  /** The facts when chosen though the project does not show it. */
  assume(project: ProjectView): F;
  /** The database the project's own files name (a Prisma datasource, drizzle.config's dialect). */
  projectDialect?(facts: F): Dialect | undefined;
  plan(request: StorageRequest<F>): Promise<StoragePart>;
}

export const defineStorage = <F>(module: StorageModule<F>): StorageModule<F> => module;

/** A module as the registry holds it: its functions only ever receive the facts it made itself. */
export const storageModuleOf = <F>(module: StorageModule<F>) => module as unknown as StorageModule;

/** The verify-adapter script: the generated verify module, run with every capability required. */
export const verifyScript = (dir: string) => `create-auth verify-adapter ${dir}/verify-adapter.ts --require all`;

/** A store without SQL (memory, skeleton): its own adapter template beside the verify-adapter module. */
export async function planOwnTemplate(name: string, request: StorageRequest): Promise<StoragePart> {
  const { ext, authDir } = request;
  const context = { ext, sql: false, dialect: "" };
  const adapterPath = `${authDir}/adapter.ts`;
  // Two-factor state in memory: what the memory store keeps; the skeleton's user replaces it with their own.
  const twoFactor = request.twoFactor
    ? [
        {
          path: `${authDir}/two-factor-store.ts`,
          contents: await renderTemplate("adapters/two-factor-store-memory.ts.hbs", {
            ...context,
            skeleton: name === "skeleton",
          }),
        },
      ]
    : [];
  return {
    ...part({
      files: [
        { path: adapterPath, contents: await renderTemplate(`adapters/${name}.ts.hbs`, context) },
        {
          path: `${authDir}/verify-adapter.ts`,
          contents: await renderTemplate("adapters/verify-adapter.ts.hbs", context),
        },
        ...twoFactor,
      ],
      // Type-only import of @auth/core/adapters; create-auth runs the verify-adapter script.
      dependencies: ["@auth/core"],
      devDependencies: ["create-auth"],
      scripts: { "verify-adapter": verifyScript(authDir) },
    }),
    adapterPath,
  };
}
