// The CLI's safety when a write fails late, as another user in a real process (see safety.test.ts).
import { chmodSync, chownSync, cpSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, isRoot, nobody, snapshot, tempDir } from "../helpers.js";

const ci = { CI: "true" };

describe("no edit is lost", () => {
  it.skipIf(!isRoot)("a write that fails late leaves every file as it was and no providers/ folder", async () => {
    // A shared sticky folder owned by root: the user may add files but not replace root's .gitignore.
    const base = tempDir();
    chmodSync(base, 0o755);
    const app = join(base, "app");
    cpSync(fixture("projects", "next-app"), app, { recursive: true });
    chmodSync(app, 0o1777);
    chownSync(join(app, "src"), nobody, nobody);
    writeFileSync(join(app, ".gitignore"), "node_modules\n", { mode: 0o644 });
    for (const path of ["src/auth.ts", "package.json"]) chownSync(join(app, path), nobody, nobody);
    const before = snapshot(app);
    const result = await cli(["add-provider", "social", "--no-install"], { cwd: app, env: ci, uid: nobody });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: Cannot write .*\.gitignore \(EPERM\); nothing was written\.$/m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(app)).toEqual(before);
    expect(existsSync(join(app, "src", "providers"))).toBe(false);
  });
});
