/**
 * add-provider installs what the generated modules import: the kind's
 * packages merged into package.json with init's merge (versions from the
 * catalog, never changing one the user has), then the project's package
 * manager. Stand-in managers on PATH record what was run (the real install
 * from the registry is in add-provider-install.pack.test.ts).
 */
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const packageJson = (dir: string) =>
  JSON.parse(read(dir, "package.json")) as { dependencies?: Record<string, string>; devDependencies?: unknown };

/** The sample Next.js-style project with npm's lockfile, and stand-in npm and pnpm that log their runs. */
function project(options: { failing?: boolean } = {}) {
  const dir = tempDir("create-auth-install-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  writeFileSync(join(dir, "package-lock.json"), "{}\n");
  const bin = tempDir("create-auth-bin-");
  const log = join(bin, "runs.log");
  for (const manager of ["npm", "pnpm"]) {
    const script = [
      "#!/bin/sh",
      `echo "${manager} $* in $(pwd)" >> "${log}"`,
      options.failing ? 'echo "npm error 404 Not Found - GET https://registry.example/zod" >&2; exit 1' : "exit 0",
      "",
    ].join("\n");
    writeFileSync(join(bin, manager), script);
    chmodSync(join(bin, manager), 0o755);
  }
  const env = { PATH: `${bin}:${process.env.PATH}`, CI: "true" };
  const runs = () => (existsSync(log) ? read(bin, "runs.log").trim().split("\n") : []);
  return { dir, env, runs };
}

describe("add-provider installs what the provider imports", () => {
  it("social: zod merged into package.json at the catalog's version, then installed with the project's manager", async () => {
    const { dir, env, runs } = project();
    const result = await inProcess(["add-provider", "social"], { cwd: dir, env });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(packageJson(dir).dependencies).toEqual({ "next-auth": "^5.0.0-beta.25", zod: dependencyVersions.zod });
    expect(result.stdout).toMatch(/^updated package\.json$/m);
    expect(result.stdout).toContain(`Running npm install in ${dir} (package-lock.json)...\nInstalled with npm.`);
    expect(runs()).toEqual([`npm install in ${dir}`]);
    // The old advice to install by hand is gone.
    expect(result.stdout).not.toMatch(/Needs zod/);
  });

  it("passkey: @simplewebauthn/server and /browser; --package-manager picks the manager", async () => {
    const { dir, env, runs } = project();
    const result = await inProcess(["add-provider", "passkey", "--package-manager", "pnpm"], { cwd: dir, env });
    expect(result.exitCode).toBe(0);
    expect(packageJson(dir).dependencies).toMatchObject({
      "@simplewebauthn/server": dependencyVersions["@simplewebauthn/server"],
      "@simplewebauthn/browser": dependencyVersions["@simplewebauthn/browser"],
    });
    expect(result.stdout).toContain("Running pnpm install in");
    expect(runs()).toEqual([`pnpm install in ${dir}`]);
  });

  it("never changes a version the user has, and installs nothing when package.json did not change", async () => {
    const { dir, env, runs } = project();
    const pkg = { name: "next-app", private: true, dependencies: { "next-auth": "^5.0.0-beta.25", zod: "^4.1.0" } };
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    const result = await inProcess(["add-provider", "social"], { cwd: dir, env });
    expect(result.exitCode).toBe(0);
    expect(packageJson(dir).dependencies).toEqual(pkg.dependencies);
    expect(result.stdout).toContain(
      `note: package.json keeps zod@^4.1.0 (create-auth would add ${dependencyVersions.zod})`,
    );
    expect(result.stdout).not.toMatch(/Running|Installed/);
    expect(runs()).toEqual([]);
  });

  it("kinds that import nothing new leave package.json alone and install nothing", async () => {
    const { dir, env, runs } = project();
    const before = read(dir, "package.json");
    const result = await inProcess(["add-provider", "credentials"], { cwd: dir, env });
    expect(result.exitCode).toBe(0);
    expect(read(dir, "package.json")).toBe(before);
    expect(runs()).toEqual([]);
  });

  it("a failed install: exit 1, the files are written, and the command to rerun is printed", async () => {
    const { dir, env, runs } = project({ failing: true });
    const result = await inProcess(["add-provider", "social"], { cwd: dir, env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^error: npm install failed \(exit code 1\); the files were written/m);
    expect(result.stderr).toContain("npm error 404 Not Found");
    expect(result.stderr).toContain(`run \`npm install\` in ${dir}`);
    // Everything else was done and reported before the install.
    expect(result.stdout).toMatch(/Register this callback URL/);
    expect(existsSync(join(dir, "src/providers/vk.ts"))).toBe(true);
    expect(packageJson(dir).dependencies).toHaveProperty("zod");
    expect(runs()).toHaveLength(1);
  });

  it("--no-install merges package.json, runs nothing and prints the command", async () => {
    const { dir, env, runs } = project();
    const result = await inProcess(["add-provider", "social", "--no-install"], { cwd: dir, env });
    expect(result.exitCode).toBe(0);
    expect(packageJson(dir).dependencies).toHaveProperty("zod");
    expect(result.stdout).toMatch(/^note: Install the new dependencies: npm install$/m);
    expect(runs()).toEqual([]);
  });

  it("--dry-run shows the package.json change and neither writes nor installs", async () => {
    const { dir, env, runs } = project();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "social", "--dry-run"], { cwd: dir, env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/\+\+\+ b\/package\.json[\s\S]*\+\s+"zod": /);
    expect(snapshot(dir)).toEqual(before);
    expect(runs()).toEqual([]);
  });

  it("a package.json that is not JSON stops the run before anything is written", async () => {
    const { dir, env, runs } = project();
    writeFileSync(join(dir, "package.json"), "{ name: next-app }\n");
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "social"], { cwd: dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/package\.json is not valid JSON .*; fix it first \(nothing was written\)/);
    expect(snapshot(dir)).toEqual(before);
    expect(runs()).toEqual([]);
  });

  it("a bad --package-manager is a usage error, nothing written", async () => {
    const { dir, env } = project();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "social", "--package-manager", "pip"], { cwd: dir, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--package-manager: invalid value "pip"; expected npm, pnpm, yarn, bun/);
    expect(snapshot(dir)).toEqual(before);
  });
});
