/**
 * What init is asked (the request its command settles from the flags, the
 * prompts and the project) and what its plan holds; init on next-auth v4
 * answers with the same plan.
 */
import type { Dialect } from "../catalog/sql-dialects.js";
import type { TokenChoice } from "../families/family.js";
import type { AnyParsedProvider } from "../families/index.js";
import type { FrameworkDetection } from "../frameworks/registry.js";
import type { EnvToFill } from "../render/env-files.js";
import type { ProviderSnippet } from "../render/parts.js";
import type { OwnAdapter } from "../storage/own-adapter.js";
import type { SchemaFlavour } from "../storage/schemas.js";
import type { StorageModule, StoragePart } from "../storage/storage.js";
import type { PackageManager } from "../workspace/package-manager.js";
import type { FileChange } from "../workspace/plan.js";
import type { ProjectView } from "../workspace/project-view.js";

/** Where the auth data lives, as init settled it. */
export interface StorageChoice {
  module: StorageModule;
  /** What the module's detect() or assume() read of the project. */
  facts: unknown;
  dialect: Dialect;
  /** --schema: with memory, skeleton or TypeORM, a schema file beside the adapter. */
  schema: SchemaFlavour;
  tablePrefix?: string;
}

export interface InitRequest {
  root: string;
  project: ProjectView;
  providers: AnyParsedProvider[];
  session: "jwt" | "database";
  force: boolean;
  framework: FrameworkDetection;
  storage: StorageChoice;
  /** Paths whose visitors must be signed in. */
  protect?: string[];
  /** --refresh-tokens, --federated-logout: for the providers that sign in through OAuth. */
  tokens?: TokenChoice;
  /** Where a provider sends the browser after its own sign-out (--federated-logout). */
  postLogoutRedirectUri?: string;
  /** The adapter the project's auth config already makes: kept, with no storage of init's own beside it. */
  kept?: OwnAdapter;
  /** The manager that installs (--package-manager, else detected): where overrides go. */
  packageManager?: PackageManager;
}

export interface InitPlan {
  changes: FileChange[];
  /** Project-relative paths of files that exist with other contents and were left alone (no --force). */
  leftAlone: string[];
  /** Values kept although they differ from what init would write (package.json), and other notices. */
  notices: string[];
  snippets: ProviderSnippet[];
  /** Relative path of the auth config. */
  configPath: string;
  scripts: Record<string, string>;
  framework: FrameworkDetection["framework"];
  /** Variables still to fill in after the plan (empty or commented out), and the file each is in. */
  envToFill: EnvToFill[];
  /** The env file each variable is set in (the project's own, or where init wrote it). */
  envWhere: Record<string, string>;
  /** Password sign-in was generated: the auth:add-user script exists. */
  passwords: boolean;
  /** --federated-logout: the post-logout redirect URI to register at the providers. */
  postLogoutRedirectUri?: string;
  /** What to do by hand: where a framework file was the user's own, and what the parts ask for. */
  manualSteps: string[];
  /** How the tables come to be: the SQL migrate applies, the step init leaves, what runs after the install. */
  storage: Pick<StoragePart, "schemaPath" | "tablesStep" | "afterInstall"> & { embedded: boolean };
}
