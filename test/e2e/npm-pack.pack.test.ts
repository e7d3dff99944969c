/**
 * As a user gets create-auth: `npm pack` this repo (its prepack builds), a
 * fresh `npm init -y` project, `npm install <tarball>` (dependencies from the
 * npm registry), `npx create-auth init --yes` WITH its install (better-sqlite3
 * built by its install script, approved by the generated allowScripts), then
 * `npm run verify-adapter` against the generated SQLite adapter.
 *
 * Slow (a native build, ~2 minutes) and needs the npm registry: the `pack`
 * project (`npm test -- --project pack`). Each step's wall time is printed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";
import { afterAll, describe, expect, test } from "vitest";
import { userEnv } from "./user-env.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** What `npm pack` needs to build and pack the package: no tests, fixtures or dist/. */
const packedSources = [
  "package.json",
  "README.md",
  "LICENSE",
  "bin",
  "src",
  "scripts",
  "templates",
  "tsconfig.json",
  "tsconfig.build.json",
];

const MINUTE = 60_000;
/** The whole flow, all steps together; each step also has its own limit. Measured: ~2.5 minutes, most of it the better-sqlite3 build. */
const BUDGET = 8 * MINUTE;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));
}

describe("npm pack → install the tarball → npx create-auth init --yes → npm run verify-adapter", () => {
  let root = "";
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));
  const timings: Record<string, number> = {};
  let deadline = 0;

  async function step(name: string, file: string, args: string[], options: Options & { timeout: number }) {
    const started = performance.now();
    // Never past the overall budget, so a hang fails the test here (and the child is killed) instead of at vitest's timeout.
    const timeout = Math.max(1_000, Math.min(options.timeout, deadline - started));
    const result = await execa(file, args, {
      env: userEnv(),
      extendEnv: false,
      reject: false,
      all: true,
      ...options,
      timeout,
    });
    timings[name] = Math.round(performance.now() - started);
    console.log(`[npm-pack] ${name}: ${(timings[name] / 1000).toFixed(1)} s (exit ${result.exitCode})`);
    if (result.timedOut) throw new Error(`${name} timed out after ${timeout} ms:\n${String(result.all).slice(-4000)}`);
    expect(result.exitCode, `${name} failed:\n${String(result.all).slice(-6000)}`).toBe(0);
    return result;
  }

  test(
    "a user's first run passes verify-adapter",
    async () => {
      deadline = performance.now() + BUDGET;
      root = mkdtempSync(join(tmpdir(), "create-auth-pack-"));
      const packDir = join(root, "pack");
      const app = join(root, "app");
      mkdirSync(packDir);
      mkdirSync(app);

      // 1. npm pack (prepack builds dist/), from a copy: the build replaces dist/, which other layers run meanwhile.
      const source = join(root, "source");
      for (const entry of packedSources) cpSync(join(projectRoot, entry), join(source, entry), { recursive: true });
      symlinkSync(join(projectRoot, "node_modules"), join(source, "node_modules"), "dir");
      const pack = await step("npm pack", "npm", ["pack", source, "--pack-destination", packDir, "--json"], {
        cwd: root,
        timeout: 3 * MINUTE,
      });
      const json = String(pack.stdout);
      const [packed] = JSON.parse(json.slice(json.indexOf("["))) as { filename: string; files: { path: string }[] }[];
      const shipped = new Set(packed!.files.map((f) => f.path));
      // `files`: bin, dist and every template the generators read; no sources, tests or fixtures.
      for (const path of [
        "package.json",
        "README.md",
        "bin/create-auth.js",
        "dist/cli/create-auth.js",
        "dist/cli/private-cache.js",
        "dist/templates.precompiled.cjs",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/vitest.js",
        "dist/vitest.d.ts",
      ]) {
        expect(shipped, path).toContain(path);
      }
      for (const template of filesUnder(join(projectRoot, "templates"))) expect(shipped, template).toContain(template);
      expect([...shipped].filter((p) => /^(src|test|fixtures|bench|node_modules)\//.test(p))).toEqual([]);
      const tarball = join(packDir, packed!.filename);
      expect(existsSync(tarball)).toBe(true);

      // 2. A fresh project, 3. create-auth from the tarball (its dependencies from the registry).
      await step("npm init -y", "npm", ["init", "-y"], { cwd: app, timeout: MINUTE });
      await step("npm install <tarball>", "npm", ["install", tarball], { cwd: app, timeout: 4 * MINUTE });
      expect(existsSync(join(app, "node_modules/.bin/create-auth"))).toBe(true);

      // 4. init with the defaults, and its install (better-sqlite3 built from source when no prebuilt binary is reachable).
      const init = await step("npx create-auth init --yes", "npx", ["create-auth", "init", "--yes"], {
        cwd: app,
        timeout: 6 * MINUTE,
      });
      for (const file of [
        "auth.ts",
        "providers/credentials.ts",
        "auth/adapter.ts",
        "auth/db.ts",
        "auth/verify-adapter.ts",
        "auth/schema.sqlite.sql",
        ".env.local",
        ".env.example",
      ]) {
        expect(existsSync(join(app, file)), `${file}\n${String(init.all)}`).toBe(true);
      }
      const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as Record<
        string,
        Record<string, unknown>
      >;
      expect(pkg.allowScripts).toMatchObject({ "better-sqlite3": true });
      expect(pkg.scripts?.["verify-adapter"]).toEqual(expect.stringContaining("create-auth verify-adapter"));
      expect(pkg.dependencies).toMatchObject({
        "@auth/core": expect.any(String),
        "better-sqlite3": expect.any(String),
      });
      // The install ran better-sqlite3's install script: its native addon exists.
      expect(
        existsSync(join(app, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")),
        String(init.all),
      ).toBe(true);

      // 5. The generated adapter passes the contract.
      const verify = await step("npm run verify-adapter", "npm", ["run", "verify-adapter"], {
        cwd: app,
        timeout: 3 * MINUTE,
      });
      expect(String(verify.all)).toMatch(/\bPASS\b/);
      expect(String(verify.all)).not.toMatch(/\bFAIL\b/);

      console.log(`[npm-pack] timings (ms): ${JSON.stringify(timings)}`);
    },
    BUDGET + MINUTE,
  );
});
