/**
 * The compile cache (src/lib/compile-cache.ts): Node's own cache, used only
 * in a folder that nobody but the user running the CLI can write.
 *
 * Node 20 has no cache API, so the CLI runs are on the later Node versions
 * fetched by scripts/node-versions.js (`npm test` fetches them first). The
 * runs as another user need root (setpriv), as in CI.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeBinary, pinnedNodeVersions } from "../../scripts/node-versions.js";
import { trustedFolder } from "../../src/lib/compile-cache.js";
import { version } from "../../src/version.js";
import { cli, isRoot, nobody, root, tempDir } from "../helpers.js";

const bin = join(root, "bin", "create-auth.js");
const laterNodes = Object.keys(pinnedNodeVersions)
  .map((major) => [major, nodeBinary(major)] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

/** Every file under `dir`, recursively. */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

/** A folder other users can enter, for the runs as `nobody`. */
function sharedTemp(): string {
  const dir = tempDir("create-auth-cache-test-");
  chmodSync(dir, 0o755);
  return dir;
}

const runVersion = (node: string, cache: string, options: { uid?: number; env?: Record<string, string> } = {}) =>
  cli(["--version"], { node, uid: options.uid, env: { CREATE_AUTH_COMPILE_CACHE: cache, ...options.env } });

describe("trustedFolder", () => {
  const uid = process.getuid?.() ?? 0;

  it("accepts a folder of the user's own that nobody else can write, below folders only they or root can write", () => {
    const dir = join(tempDir(), "cache");
    mkdirSync(dir, { mode: 0o700 });
    expect(trustedFolder(dir, uid)).toBe(true);
    // /tmp itself is world-writable but sticky: others cannot rename what is in it.
    expect(statSync("/tmp").mode & 0o1000).toBe(0o1000);
  });

  it("refuses a folder group or others can write", () => {
    for (const mode of [0o770, 0o707, 0o777]) {
      const dir = join(tempDir(), "cache");
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(trustedFolder(dir, uid), mode.toString(8)).toBe(false);
    }
  });

  it("refuses a folder under one that others can write and is not sticky", () => {
    const parent = tempDir();
    chmodSync(parent, 0o777);
    const dir = join(parent, "cache");
    mkdirSync(dir, { mode: 0o700 });
    expect(trustedFolder(dir, uid)).toBe(false);
  });

  it("refuses a link, a file and a missing path", () => {
    const base = tempDir();
    const real = join(base, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(base, "link"));
    expect(trustedFolder(join(base, "link"), uid)).toBe(false);
    expect(trustedFolder(join(base, "missing"), uid)).toBe(false);
    expect(trustedFolder(bin, uid)).toBe(false);
  });

  it.skipIf(!isRoot)("refuses a folder another user owns", () => {
    const dir = join(sharedTemp(), "cache");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, nobody, nobody);
    expect(trustedFolder(dir, 0)).toBe(false);
    expect(trustedFolder(dir, nobody)).toBe(true);
  });
});

describe.skipIf(laterNodes.length === 0).each(laterNodes)("the CLI's compile cache on Node %s", (_major, node) => {
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
