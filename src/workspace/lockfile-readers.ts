/**
 * The lockfile readers behind lockfile-copies.ts, one per format: text in,
 * every copy of the named packages out, each with the packages that depend
 * on it (name@version) and whether the project's own entry resolves to it.
 */
import { parseVersion } from "../lib/semver.js";
import type { ResolvedCopy } from "../render/package-security.js";

export type { ResolvedCopy };

export const copy = (name: string, version: string): ResolvedCopy => ({ name, version, dependents: [], direct: false });

const addDependent = (target: ResolvedCopy | undefined, dependent: string) => {
  if (target && !target.dependents.includes(dependent)) target.dependents.push(dependent);
};

/** "node_modules/a/node_modules/@s/b" → "@s/b": the package a lockfile path installs, or undefined for the project's own folders. */
function packageAt(path: string): string | undefined {
  const at = path.lastIndexOf("node_modules/");
  return at === -1 ? undefined : path.slice(at + "node_modules/".length);
}

/** The folder Node searches next: the enclosing package's, up to the root ("" ), undefined above it. */
function enclosing(path: string): string | undefined {
  if (path === "") return undefined;
  const at = path.lastIndexOf("/node_modules/");
  if (at !== -1) return path.slice(0, at);
  // "node_modules/a" and a workspace member's folder both sit in the root.
  return "";
}

type PackageLockEntry = {
  version?: string;
  link?: boolean;
  dependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
  requires?: Record<string, unknown>;
};

/** v1's nested `dependencies` tree as v2's flat `packages` paths. */
function flattenV1(tree: Record<string, PackageLockEntry & { dependencies?: unknown }>, prefix = "") {
  const flat: Record<string, PackageLockEntry> = {};
  for (const [name, entry] of Object.entries(tree)) {
    const path = `${prefix}node_modules/${name}`;
    flat[path] = { version: entry.version, dependencies: entry.requires };
    const nested = entry.dependencies as Record<string, PackageLockEntry> | undefined;
    if (nested && typeof nested === "object") Object.assign(flat, flattenV1(nested, `${path}/`));
  }
  return flat;
}

/** package-lock.json: each copy by its path, its dependents resolved as Node resolves from theirs. `at` is the project's folder from the lockfile's. */
export function copiesFromPackageLock(text: string, names: readonly string[], at = ""): ResolvedCopy[] {
  let lock: { packages?: Record<string, PackageLockEntry>; dependencies?: Record<string, PackageLockEntry> };
  try {
    lock = JSON.parse(text);
  } catch {
    return [];
  }
  const packages = lock.packages ?? (lock.dependencies ? { "": {}, ...flattenV1(lock.dependencies) } : {});
  const copies = new Map<string, ResolvedCopy>();
  for (const [path, entry] of Object.entries(packages)) {
    const name = packageAt(path);
    if (name && names.includes(name) && typeof entry.version === "string" && parseVersion(entry.version))
      copies.set(path, copy(name, entry.version));
  }
  const resolve = (from: string, name: string) => {
    for (let dir: string | undefined = from; dir !== undefined; dir = enclosing(dir)) {
      const found = copies.get(`${dir ? `${dir}/` : ""}node_modules/${name}`);
      if (found) return found;
    }
    return undefined;
  };
  for (const [path, entry] of Object.entries(packages)) {
    const owner = packageAt(path);
    const wanted = {
      ...entry.peerDependencies,
      ...entry.optionalDependencies,
      ...entry.dependencies,
      // Only the project's own entries list devDependencies.
      ...(owner === undefined ? (entry as { devDependencies?: Record<string, unknown> }).devDependencies : {}),
    };
    for (const name of names.filter((n) => n in wanted)) {
      const target = resolve(path, name);
      if (owner === undefined) {
        // The project (or a workspace member): its own dependency.
        if (target && path === at) target.direct = true;
      } else addDependent(target, `${owner}@${entry.version}`);
    }
  }
  return [...copies.values()];
}

const unquote = (s: string) => s.trim().replace(/^['"]|['"]$/g, "");
/** "0.41.1(nodemailer@8.0.5)" → "0.41.1". */
const bareVersion = (s: string) => unquote(s).replace(/\(.*$/, "");
const indentOf = (line: string) => /^ */.exec(line)![0].length;

/** A pnpm package key ("/@auth/core@0.41.1", "@auth/core@0.41.1(x@1)", v5's "/@auth/core/0.41.1") as name and version. */
function pnpmKey(key: string): { name: string; version: string } | undefined {
  const k = unquote(key.trim().replace(/:$/, "")).replace(/^\//, "");
  const at = /^(@[^/@]+\/[^/@]+|[^/@]+)[@/]([^(]+)/.exec(k);
  if (!at || !parseVersion(at[2]!)) return undefined;
  return { name: at[1]!, version: at[2]! };
}

/**
 * pnpm-lock.yaml, read as text: the copies are the `packages:` keys; a
 * package's `dependencies:` (under `packages:` in v5/v6, `snapshots:` in v9)
 * name the copy they resolve to; the importer `at` (or v5/v6's top-level
 * sections) is the project.
 */
export function copiesFromPnpmLock(text: string, names: readonly string[], at = "."): ResolvedCopy[] {
  const lines = text.split(/\r?\n/);
  const copies = new Map<string, ResolvedCopy>();
  const section = (header: RegExp) => {
    const start = lines.findIndex((l) => header.test(l));
    if (start === -1) return [] as string[];
    const end = lines.findIndex((l, n) => n > start && /^\S/.test(l));
    return lines.slice(start + 1, end === -1 ? undefined : end);
  };
  const blocks = (body: string[]) => {
    const found: { key: string; body: string[] }[] = [];
    for (const line of body) {
      if (indentOf(line) === 2 && line.trim()) found.push({ key: line.trim(), body: [] });
      else found.at(-1)?.body.push(line);
    }
    return found;
  };
  const packages = blocks(section(/^packages:\s*$/));
  for (const { key } of packages) {
    const parsed = pnpmKey(key);
    if (parsed && names.includes(parsed.name))
      copies.set(`${parsed.name}@${parsed.version}`, copy(parsed.name, parsed.version));
  }
  /** The entries of a block's dependency sections at `indent`: name and resolved version. */
  const dependenciesOf = (body: string[], indent: number) => {
    const found: [string, string][] = [];
    let inside = false;
    for (let i = 0; i < body.length; i++) {
      const line = body[i]!;
      if (!line.trim()) continue;
      if (indentOf(line) === indent)
        inside = /^\s*(?:dependencies|optionalDependencies|devDependencies):\s*$/.test(line);
      else if (inside && indentOf(line) === indent + 2) {
        const entry = /^\s*(['"]?[^'":]+['"]?):\s*(.*)$/.exec(line);
        if (!entry) continue;
        let version = entry[2]!.trim();
        // v6+ importers: the version on its own line below the name.
        if (!version)
          for (let j = i + 1; j < body.length && indentOf(body[j]!) > indent + 2; j++) {
            const v = /^\s*version:\s*(.+)$/.exec(body[j]!);
            if (v) version = v[1]!;
          }
        found.push([unquote(entry[1]!), bareVersion(version)]);
      }
    }
    return found;
  };
  for (const { key, body } of [...packages, ...blocks(section(/^snapshots:\s*$/))]) {
    const owner = pnpmKey(key);
    if (!owner) continue;
    for (const [name, version] of dependenciesOf(body, 4))
      if (names.includes(name)) addDependent(copies.get(`${name}@${version}`), `${owner.name}@${owner.version}`);
  }
  const importers = blocks(section(/^importers:\s*$/));
  const own = importers.length
    ? dependenciesOf(importers.find((b) => unquote(b.key.replace(/:$/, "")) === at)?.body ?? [], 4)
    : dependenciesOf(lines, 0);
  for (const [name, version] of own)
    if (names.includes(name)) {
      const target = copies.get(`${name}@${version}`);
      if (target) target.direct = true;
    }
  return [...copies.values()];
}

/** A yarn.lock header entry ("@auth/core@^0.41.0", "@auth/core@npm:0.41.1") as name and spec. */
function yarnDescriptor(entry: string): { name: string; spec: string } | undefined {
  const match = /^(@[^/@]+\/[^/@]+|[^/@]+)@(.*)$/.exec(unquote(entry));
  return match ? { name: match[1]!, spec: match[2]!.replace(/^npm:/, "") } : undefined;
}

/**
 * yarn.lock, classic and berry: a block per resolved copy, its header the
 * specs that resolve to it; a block's `dependencies:` name specs, matched to
 * the header that lists them. The project's own spec (from package.json, or
 * berry's workspace block) marks its copy.
 */
export function copiesFromYarnLock(
  text: string,
  names: readonly string[],
  projectSpecs: Record<string, string> = {},
): ResolvedCopy[] {
  const lines = text.split(/\r?\n/);
  const blocks: { descriptors: { name: string; spec: string }[]; version?: string; deps: [string, string][] }[] = [];
  let inDeps = false;
  for (const line of lines) {
    if (!line.trim() || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      const header = line.replace(/:\s*$/, "");
      const descriptors = header
        .split(/,\s*/)
        .map(yarnDescriptor)
        .filter((d): d is { name: string; spec: string } => d !== undefined);
      blocks.push({ descriptors, deps: [] });
      inDeps = false;
      continue;
    }
    const block = blocks.at(-1);
    if (!block) continue;
    if (indentOf(line) === 2) {
      inDeps = /^\s+(?:dependencies|optionalDependencies):\s*$/.test(line);
      const version = /^\s+version:?\s+"?([^"\s]+)"?/.exec(line)?.[1];
      if (version) block.version = version;
    } else if (inDeps && indentOf(line) === 4) {
      const dep = /^\s+("[^"]+"|[^\s:"]+):?\s+"?([^"]+?)"?\s*$/.exec(line);
      if (dep) block.deps.push([unquote(dep[1]!), dep[2]!.replace(/^npm:/, "")]);
    }
  }
  const copies: ResolvedCopy[] = [];
  const byDescriptor = new Map<string, ResolvedCopy>();
  for (const block of blocks) {
    const mine = block.descriptors.filter((d) => names.includes(d.name));
    if (!mine.length || !block.version || !parseVersion(block.version)) continue;
    const found = copy(mine[0]!.name, block.version);
    copies.push(found);
    for (const d of mine) byDescriptor.set(`${d.name}@${d.spec}`, found);
  }
  for (const block of blocks) {
    const workspace = block.descriptors.some((d) => d.spec.startsWith("workspace:"));
    const owner = block.descriptors[0];
    for (const [name, spec] of block.deps) {
      if (!names.includes(name)) continue;
      const target = byDescriptor.get(`${name}@${spec}`);
      if (workspace) {
        if (target) target.direct = true;
      } else if (owner) addDependent(target, `${owner.name}@${block.version}`);
    }
  }
  for (const [name, spec] of Object.entries(projectSpecs)) {
    const target = byDescriptor.get(`${name}@${spec.replace(/^npm:/, "")}`);
    if (target) target.direct = true;
  }
  return copies;
}

/** "@auth/qwik/@auth/core" → ["@auth/qwik", "@auth/core"]: a bun.lock key's packages, scoped names kept whole. */
function bunPath(key: string): string[] {
  const parts: string[] = [];
  const tokens = key.split("/");
  for (let i = 0; i < tokens.length; i++)
    parts.push(tokens[i]!.startsWith("@") && i + 1 < tokens.length ? `${tokens[i]}/${tokens[++i]}` : tokens[i]!);
  return parts;
}

/** bun.lock (bun 1.2+, JSON with trailing commas): `packages` keyed by install path, each with its dependencies. */
export function copiesFromBunLock(text: string, names: readonly string[], at = ""): ResolvedCopy[] {
  let lock: {
    workspaces?: Record<string, Record<string, Record<string, string> | string>>;
    packages?: Record<
      string,
      [string, string?, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }?]
    >;
  };
  try {
    lock = JSON.parse(text.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return [];
  }
  const copies = new Map<string, ResolvedCopy>();
  for (const [key, value] of Object.entries(lock.packages ?? {})) {
    const match = /^(@[^/@]+\/[^/@]+|[^/@]+)@(.+)$/.exec(String(value?.[0] ?? ""));
    if (match && names.includes(match[1]!) && parseVersion(match[2]!)) copies.set(key, copy(match[1]!, match[2]!));
  }
  const resolve = (from: string[], name: string) => {
    for (let path = from; ; path = path.slice(0, -1)) {
      const found = copies.get([...path, name].join("/"));
      if (found || path.length === 0) return found;
    }
  };
  for (const [key, value] of Object.entries(lock.packages ?? {})) {
    const info = value?.[2];
    const wanted = { ...info?.optionalDependencies, ...info?.dependencies };
    const owner = String(value?.[0] ?? "");
    for (const name of names.filter((n) => n in wanted)) addDependent(resolve(bunPath(key), name), owner);
  }
  const workspace = lock.workspaces?.[at] ?? {};
  for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const listed = workspace[field];
    if (typeof listed !== "object") continue;
    for (const name of names.filter((n) => n in listed)) {
      const target = resolve([], name);
      if (target) target.direct = true;
    }
  }
  return [...copies.values()];
}
