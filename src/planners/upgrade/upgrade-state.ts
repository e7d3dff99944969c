/**
 * What the steps of the next-auth v4 → v5 upgrade share: where the config
 * was and where it goes, what earlier steps learnt that later ones need,
 * and the parts each step adds, in order. A step reads the project and
 * says what a file becomes; none writes, and none turns its parts into
 * changes (src/workspace/plan.ts does, once, for the whole plan).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { FilesPart } from "../../render/parts.js";
import type { AuthSetup } from "../../workspace/auth-setup/index.js";
import { detectPackageVersion } from "../../workspace/package-version.js";

/** The text edits of src/ast/upgrade/, loaded when an upgrade is planned (they bring the parser). */
export interface UpgradeEdits {
  config: typeof import("../../ast/upgrade/config-edit.js");
  middleware: typeof import("../../ast/upgrade/middleware-edit.js");
  runtime: typeof import("../../ast/upgrade/middleware-runtime.js");
  project: typeof import("../../ast/upgrade/project-edits.js");
  serverCalls: typeof import("../../ast/upgrade/server-calls.js");
}

export interface Upgrade {
  root: string;
  setup: AuthSetup;
  edits: UpgradeEdits;
  /** The extension of the project's relative imports. */
  ext: "" | ".js";
  /** v4's config module, and where v5's goes: the same file, or out of a pages route. */
  oldConfig: string;
  newConfig: string;
  /** The v4 route under pages/ (a route, not a module), or the App Router's. */
  pagesRoute?: string;
  appRoute?: string;
  typescript: boolean;
  srcLayout: boolean;
  /** The module that keeps v4's sessions readable, beside the new config. */
  compatPath: string;
  /** The config's v4 text, and its v5 text once the config step has run. */
  configText: string;
  configAfter: string;
  /** What the config's edit kept of v4 (its session cookie's name, a decoder of v4's tokens). */
  config: { strategy: "jwt" | "database"; cookieKept: boolean; decoderAdded: boolean };
  middlewareFile?: string;
  /** Some module now calls getServerCsrfToken, which the compatibility module defines. */
  csrfUsed: boolean;
  /** Pages Router modules that import next-auth 5 (Next.js must compile it for them). */
  pagesImportAuth: string[];
  packageJsonChanged: boolean;
  /** What each step says of the files, in order. */
  parts: FilesPart[];
  /** What the upgrade could not do safely, one line each. */
  manual: string[];
  /** What it did that the user should know. */
  notes: string[];
}

/** One pass of the upgrade: its name, and what it adds to the plan; a refusal's reason stops the plan. */
export interface UpgradeStep {
  name: string;
  run(upgrade: Upgrade): Promise<string | undefined> | string | undefined;
}

/** A file's new text: a merge of what stands there, applied whatever it is. */
export const merge = (upgrade: Upgrade, path: string, contents: string) =>
  upgrade.parts.push({ edits: [{ path, contents }] });

export const show = (upgrade: Upgrade, file: string) => relative(upgrade.root, file) || file;

/** `import x from "<this>"` from `from` to `file`: relative, POSIX, no .ts, `.js` under node16 resolution. */
export function specifierFor(from: string, file: string, extension: string): string {
  const rel = relative(dirname(from), file)
    .split("\\")
    .join("/")
    .replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, "");
  return `${rel.startsWith(".") ? rel : `./${rel}`}${extension}`;
}

export function firstExisting(root: string, names: string[]): string | undefined {
  return names.map((n) => join(root, n)).find((p) => existsSync(p) && statSync(p).isFile());
}

/** Next.js's version (major.minor) from the project, for what its middleware can run on. */
export function nextVersion(root: string): { major: number; minor: number } | undefined {
  const found = detectPackageVersion(root, "next");
  const match = found && /(\d+)\.(\d+)/.exec(found.version);
  return match
    ? { major: Number(match[1]), minor: Number(match[2]) }
    : found?.major
      ? { major: found.major, minor: 0 }
      : undefined;
}
