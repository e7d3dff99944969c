// init in a next-auth v4 app, in a real pseudo-terminal: it offers the upgrade first, and either choice is honoured.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inTerminal, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const up = "\u001b[A";
const enter = "\r";
const flags = ["--no-install", "--orm", "none", "--backend", "sqlite", "--schema", "sql", "--session", "jwt"];

function v4App(): string {
  const dir = tempDir("create-auth-v4-tty-");
  copyInput("pages-github-credentials", dir);
  return dir;
}

describe("init in a next-auth v4 app, in a terminal", () => {
  it("Keep v4: adds to authOptions, writes no v5 code", async () => {
    const dir = v4App();
    const { result, screen } = await inTerminal(
      ["init", ...flags, "--providers", "google"],
      [["Upgrade it to v5 first?", enter]],
      dir,
    );
    expect(screen).toMatch(/This project runs next-auth 4\.24\.15 \(v4\)\. Upgrade it to v5 first\?/);
    expect(result.exitCode).toBe(0);
    const config = readFileSync(join(dir, "pages/api/auth/[...nextauth].ts"), "utf8");
    expect(config).toContain("adapter: createAdapter(),");
    expect(config).toContain("google,");
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
  }, 60_000);

  it("Upgrade to v5 now: create-auth upgrade runs, and init says to run again", async () => {
    const dir = v4App();
    const { result, screen } = await inTerminal(
      ["init", ...flags, "--providers", "google"],
      [["Upgrade it to v5 first?", up, enter]],
      dir,
    );
    expect(result.exitCode).toBe(0);
    expect(screen).toMatch(/run create-auth init again to add storage and providers to it/);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies["next-auth"]).toBe("5.0.0-beta.32");
    expect(existsSync(join(dir, "app/api/auth/[...nextauth]/route.ts"))).toBe(true);
    // Nothing of init's own yet: no adapter, no provider module.
    expect(existsSync(join(dir, "lib/auth/adapter.ts"))).toBe(false);
  }, 60_000);
});
