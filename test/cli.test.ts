// The program as a whole (src/cli.ts): which command runs, and words it does not know.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, root, snapshot, tempDir } from "./helpers.js";

const ci = { CI: "true" };

describe("create-auth", () => {
  it("runs init, the default command, with init's flags before any command word (npm create auth -- --dir app)", async () => {
    const cwd = tempDir();
    const result = await inProcess(["--dir", "my-app", "--yes", "--no-install"], { cwd, env: ci });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(cwd, "my-app", "auth.ts"))).toBe(true);
  });

  it("takes a folder as init's argument, with or without the command word", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "existing"));
    for (const args of [["./fresh"], ["existing"], ["init", "named"]]) {
      const result = await inProcess([...args, "--yes", "--no-install"], { cwd, env: ci });
      expect(result.exitCode, args.join(" ")).toBe(0);
      expect(existsSync(join(cwd, args.at(-1)!, "auth.ts"))).toBe(true);
    }
  });

  it("calls an unknown word an unknown command, suggests the closest one, and writes nothing", async () => {
    const cwd = tempDir();
    const typo = await inProcess(["add-providr", "social"], { cwd });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toMatch(/^error: unknown command 'add-providr' \(did you mean add-provider\?\)\./);
    const unknown = await inProcess(["frobnicate"], { cwd });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command 'frobnicate'\.\n.*create-auth init --dir frobnicate/);
    expect(snapshot(cwd)).toEqual({});
  });

  it("refuses two different project folders", async () => {
    const result = await inProcess(["init", "a", "--dir", "b", "--yes"], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/Two project folders given: a and --dir b/);
  });

  it("prints the version package.json declares", async () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    const result = await inProcess(["--version"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(version);
  });

  it("prints a command's own options in its help", async () => {
    const help = await inProcess(["add-provider", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/--api-version <version>/);
  });
});
