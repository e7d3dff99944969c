/**
 * Everything doctor knows about a project, read from the disk once by the
 * planner (gather.ts) without running any of the project's code. The checks
 * read only this.
 */

import type { ConfigFacts } from "../ast/project/config-facts.js";
import type { Dialect } from "../catalog/sql-dialects.js";
import type { SchemaFlavour } from "../storage/schemas.js";
import type { ResolvedCopy } from "../workspace/lockfile-copies.js";
import type { PackageManager } from "../workspace/package-manager.js";

/** What the auth config says, read with the parser in src/ast/project/ (read-config.ts). */
export type { AdapterFacts, ConfigFacts, ProviderEnv, ProviderFacts } from "../ast/project/config-facts.js";

export interface EnvFileFacts {
  /** Relative to the project: ".env.local". */
  name: string;
  /** The values it assigns (the last assignment of a name counts, as dotenv reads it). */
  values: Record<string, string>;
  /** .env.example and the like: documentation, committed on purpose. */
  template: boolean;
  /** Permission bits (0o600). */
  mode: number;
  tracked: boolean;
  ignored: boolean;
}

/** A variable's value as the app would see it, and where it came from ("environment" or a file name). */
export interface EnvValue {
  value: string;
  source: string;
}

/** What doctor found of the framework's wiring: where Auth.js is really mounted, when the code says, and the framework's own details. */
export interface WiringFacts {
  mount?: { path: string; file: string };
  /** The framework's own checks compare AUTH_URL with the mount (Express's), so the generic one stays quiet. */
  mountChecked?: boolean;
  [detail: string]: unknown;
}

export interface DatabaseFacts {
  dialect: Dialect;
  flavour: SchemaFlavour;
  /** The variable that holds the connection (DATABASE_URL, AUTH_DATABASE_PATH). */
  variable: string;
  /** Tables and columns the schemas need: create-auth's, the ORM's the project declares, a published adapter's. */
  tables: Record<string, string[]>;
  /** The command that creates the tables. */
  migrateCommand: string;
  /** The published adapter whose tables these are, when create-auth did not write the schema. */
  adapter?: string;
  /** Who needs a table, where not create-auth's own schema: "@auth/prisma-adapter" reads it, "prisma/schema.prisma" declares it. */
  neededBy?: Record<string, { by: string; reads: boolean }>;
  /** A SQLite file: the project-relative folder a relative path is taken from, and the file when the variable is unset. */
  sqlite?: { base: string; fallback?: string };
}

/** The Auth.js packages the project resolves, for the advisory table, and what --fix would change for them. */
export interface AdvisoryFacts {
  /** Where the versions were read, relative to the project ("package-lock.json", "../../pnpm-lock.yaml", "node_modules"). */
  source?: string;
  /** Every copy of a package the advisory table names. */
  copies: ResolvedCopy[];
  /** The manager whose install moves the lockfile. */
  manager: PackageManager;
  /** What --fix changes in package.json (raises, overrides), a few words each; empty when it already asks for fixed releases. */
  changes: string[];
  /** What --fix cannot do, one line each. */
  manual: string[];
}

export interface ProjectFacts {
  root: string;
  /** The framework module's id ("next"); its doctor part reads `wiring`. */
  framework: string;
  /** The variables the framework's Auth.js package reads for its URL and secret, first wins. */
  frameworkEnv: { url: readonly string[]; secret: readonly string[] };
  /** Where Auth.js answers when neither the code nor the config says otherwise. */
  defaultMount: string;
  /** The port the app listens on in development. */
  appPort: number;
  packageJson: { dependencies: Record<string, string>; scripts: Record<string, string> };
  /** next-auth's major version as installed (else locked, else package.json's range); undefined without next-auth. */
  nextAuthMajor?: number;
  /** The project's files that decide how it is deployed (Dockerfile, vercel.json...). */
  deployFiles: string[];
  isGitRepo: boolean;
  /** `.env.local` under the project's ignore rules. */
  envLocalIgnored: boolean;
  envFiles: EnvFileFacts[];
  /** The env files read for values, lowest precedence first (the --env ones, else the defaults). */
  valueFiles: string[];
  /** The effective variables: the environment, else the env files read for values. */
  env: Record<string, EnvValue>;
  /** Env files holding a given secret value that git tracks, by variable name (computed with git grep). */
  trackedSecrets: Record<string, string[]>;
  config: ConfigFacts;
  wiring: WiringFacts;
  advisories: AdvisoryFacts;
  database?: DatabaseFacts;
}

/** A variable's value when it is set and not empty (Auth.js treats "" as unset). */
export function envValue(facts: ProjectFacts, name: string): string | undefined {
  const value = facts.env[name]?.value;
  return value === undefined || value === "" ? undefined : value;
}

/** The mount Auth.js answers at: where the code mounts it, else the config's basePath, else the framework's. */
export function mountPath(facts: ProjectFacts): string {
  const path = facts.wiring.mount?.path ?? facts.config.basePath ?? facts.defaultMount;
  return path.replace(/\/+$/, "") || "/";
}

/** The URL variable Auth.js reads (AUTH_URL; next-auth also NEXTAUTH_URL), when one is set. */
export function authUrl(facts: ProjectFacts): { name: string; value: string } | undefined {
  for (const name of facts.frameworkEnv.url) {
    const value = envValue(facts, name);
    if (value) return { name, value };
  }
  return undefined;
}

/** The file that deploys the app as a container of its own (a Dockerfile), when there is one. */
export function containerFile(facts: ProjectFacts): string | undefined {
  return facts.deployFiles.find((f) => !["vercel.json", "netlify.toml"].includes(f));
}
