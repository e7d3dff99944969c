/**
 * What a provider generator produces and the config edit consumes. The
 * generator owns the provider's code (a module of its own next to the auth
 * config); the config edit only adds an import and one entry to `providers`.
 */

/** One import the auth config needs, e.g. `import { vk } from "./providers/vk"`. */
export interface ImportSpec {
  /** Module specifier as written in the config, e.g. "./providers/vk". */
  from: string;
  /** Default import binding, e.g. `GitHub` in `import GitHub from "..."`. */
  defaultImport?: string;
  /** Named import bindings. */
  named?: string[];
}

export interface GeneratedFile {
  /** Path relative to the auth config's directory, POSIX separators, e.g. "providers/vk.ts". */
  path: string;
  contents: string;
}

export interface EnvVariable {
  /** e.g. AUTH_VK_ID */
  name: string;
  /** One-line comment written above it in .env.example. */
  description: string;
  /** Value written to .env.example (never a secret); empty when unknown. */
  example: string;
}

export interface ProviderSnippet {
  /** The provider id (§2.1): unique in `providers`, part of the callback URL. */
  id: string;
  kind: string;
  /** Imports the config needs for `entry`. */
  imports: ImportSpec[];
  /** The expression placed in the `providers` array, e.g. `vk`. */
  entry: string;
  /** Files to write beside the config (the provider module, a profile schema...). */
  files: GeneratedFile[];
  env: EnvVariable[];
  /** True for kinds that redirect to an external provider (oauth, oidc, social): print the callback URL (§4.1). */
  hasCallback: boolean;
  /** Messages for the user after the edit (e.g. which adapter methods email sign-in needs). */
  notes: string[];
}
