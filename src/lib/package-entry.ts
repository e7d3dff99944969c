/**
 * A package's ES module entry as Node would import it from a given folder,
 * for the packages create-auth takes from the user's project instead of
 * declaring them (tsx for a TypeScript adapter, vitest for
 * create-auth/vitest): the package is found by Node's own lookup from that
 * folder, its `exports` read with the conditions an `import` has.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

type Target = string | null | Target[] | { [condition: string]: Target };

const importConditions = new Set(["node", "import", "default"]);

/** The first path an `exports` target gives an import, the conditions taken in the order the package lists them. */
function importTarget(target: Target | undefined): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map(importTarget).find((path) => path !== undefined);
  if (target === null || target === undefined) return undefined;
  for (const [condition, value] of Object.entries(target))
    if (importConditions.has(condition)) {
      const path = importTarget(value);
      if (path !== undefined) return path;
    }
  return undefined;
}

/** `exports` keyed by subpath ("." and "./x"), not the main entry's conditions. */
function isSubpathMap(exports: Target): exports is Record<string, Target> {
  return (
    typeof exports === "object" &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports)[0]?.startsWith(".") === true
  );
}

/** The package's package.json as Node's lookup from `folder` finds it, by its real path. */
function manifestOf(name: string, folder: string): string | undefined {
  try {
    return createRequire(join(folder, "noop.js")).resolve(`${name}/package.json`);
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") return undefined;
  }
  // A package whose exports leave package.json out: the same folders, looked into by hand.
  for (let dir = folder; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name, "package.json");
    if (basename(dir) !== "node_modules" && existsSync(candidate)) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The file (its real path, symbolic links followed as Node does) that
 * `import("<name><subpath>")` loads for a module in the folder `from` (its
 * node_modules, then each parent's), or undefined when the package is not
 * there. `from` may also be a module's file: URL.
 */
export function packageEntry(name: string, from: string, subpath = "."): string | undefined {
  const manifest = manifestOf(name, from.startsWith("file:") ? dirname(fileURLToPath(from)) : from);
  return manifest === undefined ? undefined : entryOf(manifest, subpath);
}

/** The file an import of `subpath` of the package whose package.json is `manifest` loads. */
export function entryOf(manifest: string, subpath = "."): string | undefined {
  const { exports, main } = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: Target; main?: string };
  let entry: string | undefined;
  if (exports === undefined) entry = subpath === "." ? (main ?? "index.js") : undefined;
  else if (isSubpathMap(exports)) entry = importTarget(exports[subpath]);
  else entry = subpath === "." ? importTarget(exports) : undefined;
  return entry === undefined ? undefined : join(dirname(manifest), entry);
}
