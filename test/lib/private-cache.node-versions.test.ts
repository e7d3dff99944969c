/**
 * The CLI's compile cache (src/lib/private-cache.ts) on the Node versions
 * that have one (22 and later, fetched by scripts/node-versions.ts): filled
 * in a folder of the user's own, never in one another user planted or can
 * write. The runs as another user need root (setpriv), as in CI.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeBinary, pinnedNodeVersions } from "../../scripts/node-versions.js";
import { version } from "../../src/version.js";
import { cli, isRoot, nobody, tempDir } from "../helpers.js";
import { filesIn, sharedTemp } from "./cache-folders.js";

const runVersion = (node: string, cache: string, options: { uid?: number; env?: Record<string, string> } = {}) =>
  cli(["--version"], { node, uid: options.uid, env: { CREATE_AUTH_COMPILE_CACHE: cache, ...options.env } });

describe.each(Object.keys(pinnedNodeVersions))("the CLI's compile cache on Node %s", (major) => {
  const node = nodeBinary(major)!;
  it("has the Node binary to run", () => {
    expect(node, `Node ${major} is not fetched: run tsx scripts/node-versions.ts`).toBeDefined();
  });

  it("creates the folder 0700 and fills it on the first run", async () => {
    const cache = join(tempDir(), "a", "cache");
    const result = await runVersion(node, cache);
    expect(result.stdout.trim()).toBe(version);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(filesIn(cache)).toBeGreaterThan(0);
  });

  it("writes nothing with NODE_DISABLE_COMPILE_CACHE=1", async () => {
    const cache = join(tempDir(), "cache");
    const result = await runVersion(node, cache, { env: { NODE_DISABLE_COMPILE_CACHE: "1" } });
    expect(result.exitCode).toBe(0);
    expect(existsSync(cache) ? filesIn(cache) : 0).toBe(0);
  });

  it.skipIf(!isRoot)(
    "never uses a folder another user planted or can write; the same run as its owner does",
    async () => {
      const base = sharedTemp();
      const planted = (name: string, owner: number, mode: number) => {
        const dir = join(base, name);
        mkdirSync(dir);
        chownSync(dir, owner, owner);
        chmodSync(dir, mode);
        return dir;
      };
      // Owned by root, writable by all: what an attacker leaves in a shared place.
      const rootOwned = planted("root-owned", 0, 0o777);
      // The victim's own folder, but group and others may write into it.
      const writable = planted("writable", nobody, 0o777);
      for (const cache of [rootOwned, writable]) {
        const result = await runVersion(node, cache, { uid: nobody });
        expect(result.stderr).toBe("");
        expect(result.stdout.trim()).toBe(version);
        expect(filesIn(cache), cache).toBe(0);
      }
      // Control: a private folder of the same user is used, so the runs above would have filled theirs.
      const own = planted("own", nobody, 0o700);
      expect((await runVersion(node, own, { uid: nobody })).exitCode).toBe(0);
      expect(filesIn(own)).toBeGreaterThan(0);
    },
  );
});
