/**
 * The compile cache (src/lib/private-cache.ts): Node's own cache, used only
 * in a folder that nobody but the user running the CLI can write.
 *
 * Node 20 has no cache API, so the CLI's own runs are in
 * private-cache.node-versions.test.ts, on the later Node versions. The
 * checks of folders owned by another user need root, as in CI.
 */
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { trustedFolder } from "../../src/lib/private-cache.js";
import { isRoot, nobody, tempDir } from "../helpers.js";
import { sharedTemp } from "./cache-folders.js";

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
    const file = join(base, "file");
    writeFileSync(file, "");
    expect(trustedFolder(file, uid)).toBe(false);
  });

  it.skipIf(!isRoot)("refuses a folder another user owns", () => {
    const dir = join(sharedTemp(), "cache");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, nobody, nobody);
    expect(trustedFolder(dir, 0)).toBe(false);
    expect(trustedFolder(dir, nobody)).toBe(true);
  });
});
