/**
 * What an ORM module declares: its id and title, the hint init's prompt
 * shows, and plan(), which turns what detection found (src/orms/detect.ts)
 * and init's choices into files: the auth models or tables added to the
 * user's schema, the adapter module wrapping the official Auth.js adapter,
 * the module verify-adapter runs, and how the tables are made. plan() reads
 * nothing from disk; it refuses with a UsageError and writes nothing.
 */
import type { Dialect } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
import type { EnvVariable, PlannedFile } from "../generators/types.js";
import type { IgnoreEntry } from "../workspace/gitignore.js";
import type { OrmFacts } from "./detect.js";

export const orms = ["prisma", "drizzle", "none"] as const;
export type OrmId = (typeof orms)[number];

export interface OrmRequest {
  facts: OrmFacts;
  /** --dialect or the backend's, used when the project does not say (a new schema). */
  dialect: Dialect;
  /** The folder of the adapter and its helper modules. */
  authDir: string;
  ext: "" | ".js";
  /** --table-prefix: the auth tables get names of their own. */
  tablePrefix?: string;
}

export interface OrmPlan {
  /** Files init writes; one that exists with other contents is left alone. */
  files: PlannedFile[];
  /** The user's own files with the auth part added: the whole new text, applied as a merge. */
  edits: PlannedFile[];
  /** The module exporting createAdapter(). */
  adapterPath: string;
  dialect: Dialect;
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: EnvVariable[];
  scripts: Record<string, string>;
  /** SQL that `create-auth migrate` applies, where the ORM's own tool cannot run here. */
  schemaPath?: string;
  /** The next step that makes the tables. */
  tablesStep: string;
  /** Run in the project after the install, before anything imports the client (prisma generate). */
  afterInstall?: string[];
  notices: string[];
  /** What the ORM's files add to .gitignore (a SQLite file, a generated client). */
  ignored?: IgnoreEntry[];
}

export interface OrmModule {
  id: OrmId;
  title: string;
  /** One line beside the title in init's prompt. */
  hint: string;
  plan?(request: OrmRequest): Promise<OrmPlan>;
}

export const defineOrm = (orm: OrmModule): OrmModule => orm;
