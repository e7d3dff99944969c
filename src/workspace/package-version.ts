/**
 * Which version of a package (next-auth above all: v4 and v5 want different
 * code) a project runs, from what it has: the copy installed in
 * node_modules, else the lockfile (package-lock.json, pnpm-lock.yaml,
 * yarn.lock classic and berry, bun.lock), else package.json's range. The
 * readers are pure: text in, version out; `detectPackageVersion` alone
 * touches the disk. A workspace's lockfile sits at its root, above the
 * package, and names the package's own entry by its folder.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { posixRelative } from "../lib/posix-path.js";
import { readIfExists } from "./plan.js";

export type VersionSource =
  | "node_modules"
  | "package-lock.json"
  | "pnpm-lock.yaml"
  | "yarn.lock"
  | "bun.lock"
  | "package.json";

export interface PackageVersion {
  /** The exact version, or package.json's range when nothing more exact is known. */
  version: string;
  /** Its first number; undefined for a range without one (a tag, a URL). */
  major: number | undefined;
  source: VersionSource;
}

/** The first number of "4.24.11", "^4.24.5", "~5.0.0-beta.32", ">=4 <5", "v4"; undefined for "latest" or a URL. */
export function majorOf(range: string): number | undefined {
  const match = /^(?:npm:[^@]+@)?[\^~>=<v\s]*(\d+)(?:[.\s]|$)/.exec(range.trim());
  return match ? Number(match[1]) : undefined;
}

const result = (version: string, source: VersionSource): PackageVersion => ({
  version,
  major: majorOf(version),
  source,
});

/** package-lock.json v2/v3 (`packages`), with v1's `dependencies` as a fallback. `at` is the package's folder from the lockfile's. */
export function fromPackageLock(text: string, name: string, at = ""): string | undefined {
  let lock: {
    packages?: Record<string, { version?: string }>;
    dependencies?: Record<string, { version?: string }>;
  };
  try {
    lock = JSON.parse(text);
  } catch {
    return undefined;
  }
  const prefix = at ? `${at}/` : "";
  return (
    lock.packages?.[`${prefix}node_modules/${name}`]?.version ??
    lock.packages?.[`node_modules/${name}`]?.version ??
    lock.dependencies?.[name]?.version
  );
}

/**
 * pnpm-lock.yaml, read as text (its shape is regular enough): the
 * importer's entry (`importers: '.': dependencies: next-auth: version:
 * 4.24.11(next@…)`), else a package key (`/next-auth@4.24.11` in v6,
 * `next-auth@4.24.11` in v9).
 */
export function fromPnpmLock(text: string, name: string, at = "."): string | undefined {
  const lines = text.split(/\r?\n/);
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const importers = lines.findIndex((l) => /^importers:\s*$/.test(l));
  if (importers !== -1) {
    const importerKey = new RegExp(`^ {2}['"]?${at.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}['"]?:\\s*$`);
    let i = lines.findIndex((l, n) => n > importers && importerKey.test(l));
    if (i !== -1) {
      for (i++; i < lines.length && /^ {3,}|^\s*$/.test(lines[i]!); i++) {
        if (!new RegExp(`^ {6}['"]?${escaped}['"]?:\\s*$`).test(lines[i]!)) continue;
        for (let j = i + 1; j < lines.length && /^ {8}/.test(lines[j]!); j++) {
          const version = /^ {8}version:\s*['"]?([^'"(\s]+)/.exec(lines[j]!)?.[1];
          if (version) return version;
        }
      }
    }
  }
  const key = new RegExp(`^ {2}['"]?/?${escaped}@([0-9][^('":\\s]*)`, "m").exec(text);
  return key?.[1];
}

/** yarn.lock, classic (`version "4.24.11"`) and berry (`version: 4.24.11`): the block whose header names the package. */
export function fromYarnLock(text: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const header = new RegExp(`^"?(?:[^\\s"]+, )*"?${escaped}@`);
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (/^\s/.test(lines[i]!) || !header.test(lines[i]!)) continue;
    // Every entry of the header must be this package (a header lists its ranges, comma-separated).
    for (let j = i + 1; j < lines.length && /^\s/.test(lines[j]!); j++) {
      const version = /^\s+version:?\s+"?([^"\s]+)"?/.exec(lines[j]!)?.[1];
      if (version) return version;
    }
  }
  return undefined;
}

/** bun.lock (text, bun 1.2 and later): `"next-auth": ["next-auth@4.24.11", ...]`. The binary bun.lockb is not read. */
export function fromBunLock(text: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`"${escaped}"\\s*:\\s*\\[\\s*"${escaped}@([^"]+)"`).exec(text)?.[1];
}

/** package.json's range for the package: dependencies, then devDependencies, then peerDependencies. */
export function fromPackageJson(text: string, name: string): string | undefined {
  try {
    const json = JSON.parse(text) as Record<string, Record<string, unknown> | undefined>;
    for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
      const range = json[field]?.[name];
      if (typeof range === "string") return range;
    }
  } catch {
    // Not JSON: nothing to read here; the package.json merge says so in its own words.
  }
  return undefined;
}

function safeRead(path: string): string | null {
  try {
    return readIfExists(path);
  } catch {
    return null;
  }
}

/** The installed copy's version: node_modules here or in a folder above (a workspace hoists), as Node resolves it. */
function installedVersion(root: string, name: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const installed = safeRead(join(dir, "node_modules", name, "package.json"));
    if (installed !== null) {
      try {
        const version = (JSON.parse(installed) as { version?: unknown }).version;
        return typeof version === "string" ? version : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir || existsSync(join(dir, ".git"))) return undefined;
  }
}

/** The nearest lockfile upwards (a workspace's sits at its root) and what it locks `name` at. */
function lockedVersion(root: string, name: string): { version: string; source: VersionSource } | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const at = posixRelative(dir, root);
    const readers: [VersionSource, (text: string) => string | undefined][] = [
      ["package-lock.json", (t) => fromPackageLock(t, name, at)],
      ["pnpm-lock.yaml", (t) => fromPnpmLock(t, name, at || ".")],
      ["yarn.lock", (t) => fromYarnLock(t, name)],
      ["bun.lock", (t) => fromBunLock(t, name)],
    ];
    let sawLockfile = false;
    for (const [file, read] of readers) {
      const text = safeRead(join(dir, file));
      if (text === null) continue;
      sawLockfile = true;
      const version = read(text);
      if (version) return { version, source: file };
    }
    // The nearest lockfile is the project's: one further up belongs to something else.
    if (sawLockfile || dirname(dir) === dir || existsSync(join(dir, ".git"))) return undefined;
  }
}

/**
 * The version `name` has in the package at `root`: what the lockfile locks
 * (what every install gives), else the installed copy, else package.json's
 * range. Undefined when the project does not depend on it at all.
 */
export function detectPackageVersion(root: string, name: string): PackageVersion | undefined {
  const declared = fromPackageJson(safeRead(join(root, "package.json")) ?? "", name);
  const locked = lockedVersion(root, name);
  if (locked) return result(locked.version, locked.source);
  const installed = installedVersion(root, name);
  if (installed) return result(installed, "node_modules");
  return declared === undefined ? undefined : result(declared, "package.json");
}

/** next-auth's major version in the project at `root` (4 or 5 in practice), or undefined without next-auth. */
export function nextAuthMajor(root: string): number | undefined {
  return detectPackageVersion(root, "next-auth")?.major;
}
