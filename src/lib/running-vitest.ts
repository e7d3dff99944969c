/**
 * The vitest create-auth/vitest registers its tests with, taken from the
 * user's project: create-auth declares no dependency on it (an optional peer
 * made a cold `npx create-auth` fetch the metadata of vitest and of every
 * optional peer of vitest's), and it must be the very copy that runs the
 * test file, or describe() and it() register with a runner nobody runs.
 *
 * A test file's `import "vitest"` is the running vitest's own dist/index.js
 * (vitest resolves it so itself, whatever the layout), so the candidates,
 * most certain first:
 * 1. the package of the script this process runs: vitest's workers are
 *    files of it (vitest/dist/workers/forks.js and the like);
 * 2. vitest as the project finds it, from the folder the run started in
 *    (pnpm's store puts create-auth where nothing above it holds vitest);
 * 3. vitest as create-auth's own folder finds it (npm and yarn hoist both).
 * Node loads a file once, by its real path, so a candidate that is the
 * running copy's file is the running copy itself. Whether it is, vitest's
 * global expect tells: a copy evaluated anew sets its own, which is put
 * back before the next candidate is tried.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Vitest from "vitest";
import { entryOf, packageEntry } from "./package-entry.js";

export type VitestApi = typeof Vitest;

/** Where vitest (and @vitest/expect, which sets it) keeps the running copy's expect. */
const runningExpect = Symbol.for("expect-global");

export const notInstalled =
  "create-auth/vitest runs inside vitest, which is not installed in this project: npm install --save-dev vitest";

/** vitest's entry when the script this process runs is a file of the vitest package. */
function runningPackage(script: string | undefined): string | undefined {
  if (!script) return undefined;
  let dir: string;
  try {
    dir = dirname(realpathSync(script));
  } catch {
    return undefined;
  }
  for (; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "vitest"
        ? entryOf(manifest)
        : undefined;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The files that may be vitest's entry, most certain first, each once. */
export function vitestCandidates(script = process.argv[1], cwd = process.cwd()): string[] {
  const found = [runningPackage(script), packageEntry("vitest", cwd), packageEntry("vitest", import.meta.url)];
  return [...new Set(found.filter((entry) => entry !== undefined))];
}

/** The running vitest's API; outside a vitest run, the first vitest found. */
export async function loadVitest(candidates = vitestCandidates()): Promise<VitestApi> {
  const scope = globalThis as { [runningExpect]?: unknown };
  const running = scope[runningExpect];
  const others: string[] = [];
  for (const entry of candidates) {
    const api = (await import(pathToFileURL(entry).href)) as VitestApi;
    if (running === undefined || api.expect === running) return api;
    scope[runningExpect] = running;
    others.push(entry);
  }
  if (others.length === 0) throw new Error(notInstalled);
  throw new Error(
    `create-auth/vitest found vitest at ${others.join(" and ")}, but another copy of vitest runs this test: run the tests with the vitest installed in the project`,
  );
}
