/**
 * The one shape every planner's piece takes — a framework's wiring, a
 * storage's adapter and schema, a provider's module — and the one function
 * that puts pieces together. Nothing here touches the disk; the planner
 * turns a merged part into file changes (src/workspace/plan.ts).
 */
import type { DependencyName } from "../catalog/dependencies.js";
import type { IgnoreEntry } from "./gitignore.js";

export interface PlannedFile {
  /** Path relative to the project root (or, for a provider's files, to the auth config's folder); POSIX separators. */
  path: string;
  contents: string;
  /** What an earlier run of ours wrote there: a file holding exactly this is replaced without --force. */
  replaces?: string;
}

/**
 * What a planner says of the files it touches, read by one function
 * (`changesOfParts` in src/workspace/parts-to-changes.ts) that turns it into changes. A
 * GeneratedPart is one; a planner that edits the project's own files gives
 * their new text as `edits`.
 */
export interface FilesPart {
  /** Files the planner writes: one that exists with other contents is left alone (and listed) unless --force. */
  files?: readonly PlannedFile[];
  /** Files written only where there is none: a copy an earlier run wrote, perhaps edited since, is kept as it is. */
  ifMissing?: readonly PlannedFile[];
  /** A file's whole new text, merged from what stands there (or made anew): applied whatever stands there. */
  edits?: readonly PlannedFile[];
  /** Files that go. */
  removed?: readonly string[];
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
  /** Files the part writes; one that exists with other contents is left alone unless --force. */
  files: PlannedFile[];
  /** The user's own files with something added: the whole new text, applied as a merge. */
  edits: PlannedFile[];
  /** Runtime and dev dependencies the files import; versions come from src/catalog/dependencies.ts. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: EnvVariable[];
  /** package.json scripts to add (name -> command). */
  scripts: Record<string, string>;
  /** What the part's code writes at run time that must stay out of git (a SQLite file, a generated client). */
  ignored: IgnoreEntry[];
  /** Said right after the plan ("note: ..."): what was kept, what the part found. */
  notices: string[];
  /** Next steps for the user: what to do by hand. */
  steps: string[];
  /** Files the part would write, and the line the user adds when such a file is theirs and was left alone. */
  instructions: Record<string, string>;
}

/** A part with nothing in it but what is given. */
export function part(given: Partial<GeneratedPart> = {}): GeneratedPart {
  return {
    files: [],
    edits: [],
    dependencies: [],
    devDependencies: [],
    env: [],
    scripts: {},
    ignored: [],
    notices: [],
    steps: [],
    instructions: {},
    ...given,
  };
}

const unique = <T>(items: T[]) => [...new Set(items)];

/**
 * Parts in order, as one: lists concatenated (dependencies once each, a
 * variable by its first description), later scripts and instructions over
 * earlier ones. Two parts may plan the same file only with the same
 * contents (the SQL adapter and the SQL schema share schema.<dialect>.sql).
 */
export function mergeParts(...parts: Partial<GeneratedPart>[]): GeneratedPart {
  const merged = part();
  const files = new Map<string, PlannedFile>();
  const env = new Map<string, EnvVariable>();
  for (const p of parts) {
    for (const file of p.files ?? []) {
      const earlier = files.get(file.path);
      if (earlier && earlier.contents !== file.contents)
        throw new Error(`Two parts plan ${file.path} with different contents`);
      files.set(file.path, file);
    }
    for (const variable of p.env ?? []) if (!env.has(variable.name)) env.set(variable.name, variable);
    merged.edits.push(...(p.edits ?? []));
    merged.dependencies.push(...(p.dependencies ?? []));
    merged.devDependencies.push(...(p.devDependencies ?? []));
    merged.ignored.push(...(p.ignored ?? []));
    merged.notices.push(...(p.notices ?? []));
    merged.steps.push(...(p.steps ?? []));
    Object.assign(merged.scripts, p.scripts);
    Object.assign(merged.instructions, p.instructions);
  }
  merged.files = [...files.values()];
  merged.env = [...env.values()];
  merged.dependencies = unique(merged.dependencies);
  merged.devDependencies = unique(merged.devDependencies);
  return merged;
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
 * A provider's part: its module(s), beside the auth config, and the import
 * and entry the config gains. Its files' paths are relative to the config's
 * folder until the planner places them.
 */
export interface ProviderSnippet extends GeneratedPart {
  /** The provider id (§2.1): unique in `providers`, part of the callback URL. */
  id: string;
  kind: string;
  /** Imports the config needs for `entry`. */
  imports: ImportSpec[];
  /** The expression placed in the `providers` array, e.g. `vk`. */
  entry: string;
  /** True for kinds that redirect to an external provider (oauth, oidc, social): print the callback URL (§4.1). */
  hasCallback: boolean;
  /** Where the callback URL is registered: the provider's developer console, else its Auth.js docs page. */
  registerAt?: string;
  /** Its access tokens are refreshed (refresh) and its own session ends on sign-out (federatedLogout). */
  tokens?: { refresh: boolean; federatedLogout: boolean };
  /** Its module counts attempts through the sign-in throttle (throttle.ts beside the adapter). */
  throttled?: boolean;
  /** It sends sign-in emails through the throttle: the config wraps its adapter in withSignInEmailLimits. */
  throttledEmails?: boolean;
  /** Its module asks for a second factor after the password (two-factor.ts beside the adapter). */
  twoFactor?: boolean;
}
