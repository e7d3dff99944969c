/**
 * init and add-provider in the installed next-auth v4 Pages Router app of
 * fixtures/upgrade/pages-github-credentials (next-auth 4.24.15, Next.js 15):
 * what they write compiles against the real v4 packages, with no v5 code.
 * The packages init adds (@auth/core for the adapter's types, better-sqlite3)
 * are this repository's installed copies, linked in, so no install runs here.
 *
 * Needs the npm registry the first time (the app is cached in .cache/e2e-apps).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { inProcess, root } from "../helpers.js";
import { useCleanup } from "./cleanup.js";
import { freshV4App } from "./upgrade-apps.js";

const configFile = "pages/api/auth/[...nextauth].ts";

function linkPackage(app: string, name: string): void {
  const target = join(app, "node_modules", name);
  if (existsSync(target)) return;
  mkdirSync(join(target, ".."), { recursive: true });
  symlinkSync(join(root, "node_modules", name), target);
}

describe("a next-auth v4 app keeps v4", () => {
  const defer = useCleanup();

  test("init --yes, then v4 providers: tsc passes, the user's providers kept, nothing of v5", async () => {
    const dir = await freshV4App("pages-github-credentials", defer);
    const original = readFileSync(join(dir, configFile), "utf8");
    const steps = [
      ["init", "--yes", "--no-install", "--providers", "google"],
      ["add-provider", "keycloak", "--issuer", "https://sso.example.com/realms/main", "--no-install"],
      ["add-provider", "credentials", "--id", "pw", "--no-install"],
    ];
    for (const args of steps) {
      const result = await inProcess(args, { cwd: dir });
      expect(result.stderr, args.join(" ")).toBe("");
      expect(result.exitCode, args.join(" ")).toBe(0);
    }
    for (const name of ["@auth/core", "better-sqlite3", "@types/better-sqlite3"]) linkPackage(dir, name);
    const tsc = await execa(join(dir, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."], {
      cwd: dir,
      reject: false,
      all: true,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);

    const config = readFileSync(join(dir, configFile), "utf8");
    for (const line of original.split("\n")) expect(config.split("\n")).toContain(line);
    expect(config).toMatch(/ {4}google,\n {4}keycloak,\n {4}pw,\n {2}\],/);
    expect(config).toContain("adapter: createAdapter(),");
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
    expect(existsSync(join(dir, "app"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies["next-auth"]).toBe("4.24.15");
  });
});
