// add-provider credentials --two-factor totp: the two-factor modules and store beside the adapter init wrote, the
// two tables appended to a schema file that predates them, the config's signIn callback added into its callbacks;
// refused where nothing would keep the state, and init refusing --two-factor without credentials.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, tempDir } from "../helpers.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

async function init(args: string[]): Promise<string> {
  const dir = tempDir("create-auth-two-factor-cmd-");
  const setup = await inProcess(["init", "--yes", "--no-install", "--dir", dir, ...args]);
  expect(setup.exitCode, setup.stderr).toBe(0);
  return dir;
}

describe("add-provider credentials --two-factor totp", () => {
  it("in a project init set up with GitHub only: modules, store, schema tables and the signIn callback", async () => {
    const dir = await init(["--providers", "github"]);
    // A schema file of an earlier create-auth, without the two tables; its bytes stay.
    const schema = read(dir, "auth/schema.sqlite.sql");
    const older = schema.slice(0, schema.indexOf("-- Two-factor sign-in")).replace(/\n+$/, "\n");
    writeFileSync(join(dir, "auth/schema.sqlite.sql"), older);
    const config = read(dir, "auth.ts");
    const result = await inProcess(["add-provider", "credentials", "--two-factor", "totp", "--no-install"], {
      cwd: dir,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    for (const file of ["totp.ts", "qr-code.ts", "two-factor.ts", "two-factor-pages.ts", "two-factor-store.ts"])
      expect(existsSync(join(dir, "auth", file)), file).toBe(true);
    expect(read(dir, "providers/credentials.ts")).toContain(
      'import { withSecondFactor } from "../auth/two-factor.js";',
    );
    expect(read(dir, "auth/two-factor.ts")).toContain('import { type AttemptLimits, throttled } from "./throttle.js";');
    const appended = read(dir, "auth/schema.sqlite.sql");
    expect(appended.startsWith(older)).toBe(true);
    expect(appended).toContain("CREATE TABLE IF NOT EXISTS two_factor (");
    expect(appended).toContain("CREATE TABLE IF NOT EXISTS two_factor_recovery_codes (");
    expect(result.stdout).toContain("npm run db:migrate");
    // The callback goes first into the config's callbacks; the rest of the config is as it was.
    const edited = read(dir, "auth.ts");
    expect(edited).toContain('import { twoFactorSignIn } from "./auth/two-factor.js";');
    expect(edited).toMatch(/callbacks: \{\n {4}signIn: twoFactorSignIn,\n/);
    // Every line the config had is still there, in order (the provider's import and entry were added too).
    const lines = edited.split("\n");
    let at = 0;
    for (const line of config.split("\n")) at = lines.indexOf(line, at) + 1 || Number.NaN;
    expect(at).not.toBeNaN();
    // Framework none mounts nothing itself: the notice says where the pages go.
    expect(result.stdout).toContain("handleTwoFactor(request) from auth/two-factor-pages.ts");

    // Again: nothing is written twice, the callback is there once.
    const again = await inProcess(["add-provider", "credentials", "--two-factor", "totp", "--no-install", "--force"], {
      cwd: dir,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(read(dir, "auth.ts").match(/signIn: twoFactorSignIn/g)).toHaveLength(1);
    expect(read(dir, "auth/schema.sqlite.sql")).toBe(appended);
  });

  it("a signIn callback of the user's own is left alone, and the notice says what to add", async () => {
    const dir = await init(["--providers", "github"]);
    const config = read(dir, "auth.ts").replace("callbacks: {\n", "callbacks: {\n    signIn: () => true,\n");
    writeFileSync(join(dir, "auth.ts"), config);
    const result = await inProcess(["add-provider", "credentials", "--two-factor", "totp", "--no-install"], {
      cwd: dir,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "auth.ts")).toContain("signIn: () => true,");
    expect(read(dir, "auth.ts")).not.toContain("twoFactorSignIn");
    expect(result.stdout).toContain("callbacks.signIn is your own: call twoFactorSignIn(params) first");
  });

  it("refused with an ORM's adapter, and by init without credentials: exit 2, nothing written", async () => {
    const dir = tempDir("create-auth-two-factor-refused-");
    const refused = await inProcess([
      "init",
      "--yes",
      "--no-install",
      "--dir",
      dir,
      "--providers",
      "github",
      "--two-factor",
      "totp",
    ]);
    expect(refused.exitCode).toBe(2);
    // The flag belongs to the credentials provider, which --providers does not name.
    expect(refused.stderr).toMatch(/^error: --two-factor: none of --providers \(github\) takes it/);
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);

    const memory = await init(["--providers", "github", "--backend", "skeleton"]);
    const skeleton = await inProcess(["add-provider", "credentials", "--two-factor", "totp", "--no-install"], {
      cwd: memory,
    });
    expect(skeleton.exitCode).toBe(2);
    expect(skeleton.stderr).toContain("not for auth/adapter.ts yet");
    expect(existsSync(join(memory, "providers/credentials.ts"))).toBe(false);
  });
});
