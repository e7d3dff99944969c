/**
 * The shapes generators produce. Each generator turns validated options into
 * planned files and what they need (dependencies, env variables, scripts);
 * nothing here touches the disk (see src/workspace/plan.ts).
 */
import type { DependencyName } from "../catalog/dependencies.js";

export interface PlannedFile {
  /** Path relative to the project root (or, for a provider's files, to the auth config's folder); POSIX separators. */
  path: string;
  contents: string;
}

/** A variable the generated code reads from the environment. */
export interface EnvVariable {
  /** e.g. AUTH_VK_ID */
  name: string;
  /** One-line comment written above it in the env files. */
  description: string;
  /** Value written to .env.example (never a secret); empty when unknown. */
  example: string;
}

export interface GeneratedPart {
  files: PlannedFile[];
  /** Runtime and dev dependencies the files import; versions come from src/catalog/dependencies.ts. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: EnvVariable[];
  /** package.json scripts to add (name -> command). */
  scripts: Record<string, string>;
}

/** One import the auth config needs, e.g. `import { vk } from "./providers/vk"`. */
export interface ImportSpec {
  /** Module specifier as written in the config, e.g. "./providers/vk". */
  from: string;
  /** Default import binding, e.g. `GitHub` in `import GitHub from "..."`. */
  defaultImport?: string;
  /** Named import bindings. */
  named?: string[];
}

/**
 * What a provider generator produces and the config edit consumes. The
 * generator owns the provider's code (a module of its own next to the auth
 * config); the config edit only adds an import and one entry to `providers`.
 */
export interface ProviderSnippet {
  /** The provider id (§2.1): unique in `providers`, part of the callback URL. */
  id: string;
  kind: string;
  /** Imports the config needs for `entry`. */
  imports: ImportSpec[];
  /** The expression placed in the `providers` array, e.g. `vk`. */
  entry: string;
  /** Files to write beside the config (the provider module, a profile schema...), paths relative to its folder. */
  files: PlannedFile[];
  env: EnvVariable[];
  /** Packages the files import beyond the auth library itself. */
  dependencies: DependencyName[];
  /** Their type packages (@types/...), for package.json's devDependencies. */
  devDependencies?: DependencyName[];
  /** True for kinds that redirect to an external provider (oauth, oidc, social): print the callback URL (§4.1). */
  hasCallback: boolean;
  /** Where the callback URL is registered: the provider's developer console, else its Auth.js docs page. */
  registerAt?: string;
  /** Messages for the user after the edit (e.g. which adapter methods email sign-in needs). */
  notes: string[];
}

/** Where generated auth files live, relative to the project root. */
export const authDir = "auth";
