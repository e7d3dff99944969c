/**
 * Every copy of a package a project resolves, not only its own: the
 * lockfile's entries (package-lock.json v1–v3, pnpm-lock.yaml v5–v9,
 * yarn.lock classic and berry, bun.lock), each with the packages that depend
 * on it, so a copy another package pins (@auth/qwik's @auth/core) is told
 * from the project's own. Without a lockfile, the copies installed in
 * node_modules (the top level, and one level down in the packages the
 * project lists), else package.json's exact versions. The readers of each
 * format are in lockfile-readers.ts.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { posixRelative } from "../lib/posix-path.js";
import { parseVersion } from "../lib/semver.js";
import {
  copiesFromBunLock,
  copiesFromPackageLock,
  copiesFromPnpmLock,
  copiesFromYarnLock,
  copy,
  type ResolvedCopy,
} from "./lockfile-readers.js";
import { readIfExists } from "./plan.js";

export type { ResolvedCopy };

export type CopySource =
  | "package-lock.json"
  | "pnpm-lock.yaml"
  | "yarn.lock"
  | "bun.lock"
  | "node_modules"
  | "package.json";

export interface ProjectCopies {
  copies: ResolvedCopy[];
  source: CopySource;
  /** The folder of the lockfile read (a workspace's root), else the project's. */
  dir: string;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const text = readIfExists(path);
    return text === null ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** The project's own specs, from package.json's dependency sections (the first section naming a package wins). */
function ownSpecs(root: string): Record<string, string> {
  const pkg = readJson(join(root, "package.json")) ?? {};
  const specs: Record<string, string> = {};
  for (const field of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
    const section = pkg[field];
    if (typeof section !== "object" || section === null) continue;
    for (const [name, spec] of Object.entries(section))
      if (specs[name] === undefined && typeof spec === "string") specs[name] = spec;
  }
  return specs;
}

/**
 * Copies installed in node_modules: the top level, and inside the own
 * node_modules of each package the project lists (a shared or linked
 * node_modules holds other projects' packages too).
 */
function installedCopies(root: string, names: readonly string[], listed: readonly string[]): ResolvedCopy[] {
  const found: ResolvedCopy[] = [];
  const versionIn = (dir: string) => {
    const version = readJson(join(dir, "package.json"))?.version;
    return typeof version === "string" && parseVersion(version) ? version : undefined;
  };
  const modules = join(root, "node_modules");
  for (const name of names) {
    const top = versionIn(join(modules, name));
    if (top) found.push({ ...copy(name, top), direct: true });
  }
  if (!existsSync(modules)) return found;
  for (const owner of listed)
    for (const name of names) {
      const version = versionIn(join(modules, owner, "node_modules", name));
      if (version)
        found.push({ ...copy(name, version), dependents: [`${owner}@${versionIn(join(modules, owner)) ?? "?"}`] });
    }
  return found;
}

/**
 * The copies of `names` the project at `root` resolves: from the nearest
 * lockfile upwards (a workspace's sits at its root), else node_modules, else
 * package.json's exact versions (a range resolves to whatever is newest at
 * install time, so it names no copy). Undefined when none of these say.
 */
export function projectCopies(root: string, names: readonly string[]): ProjectCopies | undefined {
  const all = ownSpecs(root);
  const specs = Object.fromEntries(Object.entries(all).filter(([name]) => names.includes(name)));
  for (let dir = root; ; dir = dirname(dir)) {
    const at = posixRelative(dir, root);
    const readers: [CopySource, (text: string) => ResolvedCopy[]][] = [
      ["package-lock.json", (t) => copiesFromPackageLock(t, names, at)],
      ["pnpm-lock.yaml", (t) => copiesFromPnpmLock(t, names, at || ".")],
      ["yarn.lock", (t) => copiesFromYarnLock(t, names, specs)],
      ["bun.lock", (t) => copiesFromBunLock(t, names, at)],
    ];
    for (const [file, read] of readers) {
      const text = readIfExists(join(dir, file));
      if (text !== null) return { copies: read(text), source: file, dir };
    }
    if (dirname(dir) === dir || existsSync(join(dir, ".git"))) break;
  }
  const installed = installedCopies(root, names, Object.keys(all));
  if (installed.length) return { copies: installed, source: "node_modules", dir: root };
  const pinned = Object.entries(specs).filter(([, spec]) => parseVersion(spec));
  if (pinned.length)
    return {
      copies: pinned.map(([name, version]) => ({ ...copy(name, version), direct: true })),
      source: "package.json",
      dir: root,
    };
  return undefined;
}
