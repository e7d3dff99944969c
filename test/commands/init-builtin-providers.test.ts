// init --providers with Auth.js's built-in providers, end to end in-process as CI runs it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, tempDir } from "../helpers.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("create-auth init --providers github,google", () => {
  it("writes a module per built-in importing it from @auth/core, lists both in the config, and their variables", async () => {
    const dir = tempDir("create-auth-init-builtins-");
    const result = await inProcess([
      "init",
      "--yes",
      "--no-install",
      "--providers",
      "github,google,email",
      "--dir",
      dir,
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "providers/github.ts")).toContain('import GitHub from "@auth/core/providers/github";');
    expect(read(dir, "providers/google.ts")).toContain('import Google from "@auth/core/providers/google";');
    const config = read(dir, "auth.ts");
    expect(config).toContain('import { github } from "./providers/github.js";');
    expect(config).toContain('import { google } from "./providers/google.js";');
    expect(config).toMatch(/providers: \[\n {4}github,\n {4}google,\n {4}email,\n {2}\],/);
    const example = read(dir, ".env.example");
    for (const name of ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_GOOGLE_ID", "AUTH_GOOGLE_SECRET"])
      expect(example).toMatch(new RegExp(`^${name}=$`, "m"));
    expect(read(dir, ".env.local")).toMatch(/^# AUTH_GITHUB_SECRET=$/m);
    expect(result.stdout).toMatch(
      /Fill in AUTH_GITHUB_ID, AUTH_GITHUB_SECRET, AUTH_GOOGLE_ID, AUTH_GOOGLE_SECRET in \.env\.local \(uncomment their lines\)\./,
    );
  });

  it("under Next.js the built-ins come from next-auth", async () => {
    const dir = tempDir("create-auth-init-builtins-next-");
    writeFileSync(
      join(dir, "package.json"),
      '{ "name": "web", "private": true, "dependencies": { "next": "16.0.0" } }\n',
    );
    const result = await inProcess(["init", "--yes", "--no-install", "--providers", "github,google", "--dir", dir]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "providers/github.ts")).toContain('import GitHub from "next-auth/providers/github";');
    expect(read(dir, "providers/google.ts")).toContain('import Google from "next-auth/providers/google";');
  });
});
