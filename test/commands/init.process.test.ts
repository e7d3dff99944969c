// init as a process run by another user: what a folder's permissions refuse.
import { chmodSync, chownSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cli, isRoot, nobody, snapshot, tempDir } from "../helpers.js";

describe("create-auth init: bad input is one line, exit 2, nothing written", () => {
  it("a read-only directory is refused", async () => {
    const dir = tempDir("create-auth-init-");
    // Root writes anywhere: run as an unprivileged owner of the folder.
    if (isRoot) chownSync(dir, nobody, nobody);
    chmodSync(dir, 0o555);
    const result = await cli(["init", "--no-install", "--yes"], {
      cwd: dir,
      env: { CI: "true" },
      uid: isRoot ? nobody : undefined,
    });
    chmodSync(dir, 0o755);
    expect(result.exitCode).toBe(2);
    expect(snapshot(dir)).toEqual({});
  });
});
