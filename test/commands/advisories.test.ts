/**
 * No generated project resolves a version with a known advisory: init and
 * add-provider raise an affected next-auth v4 within its major, move an
 * existing lockfile's affected @auth/core, and give a Qwik project the
 * override of the @auth/core @auth/qwik pins, in the field of the package
 * manager its lockfile names (the real install is test/e2e/qwik-installed-tree.browser.test.ts).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, root, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const packageJson = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const ids = "GHSA-7rqj-j65f-68wh, GHSA-xmf8-cvqr-rfgj, GHSA-x445-f3h2-j279";

function qwikApp(lockfile?: [string, string]): string {
  const dir = tempDir("create-auth-advisories-");
  cpSync(join(root, "fixtures/apps/qwik"), dir, { recursive: true });
  if (lockfile) cpSync(fixture("lockfiles", lockfile[0], lockfile[1]), join(dir, lockfile[1]));
  return dir;
}

const initQwik = (dir: string) =>
  inProcess(["init", "--yes", "--no-install", "--backend", "memory", "--providers", "credentials"], { cwd: dir });

describe("init in a Qwik project: @auth/qwik pins an affected @auth/core", () => {
  it.each([
    ["npm", "package-lock.json", ["overrides"]],
    ["pnpm", "pnpm-lock.yaml", ["pnpm", "overrides"]],
    ["yarn-classic", "yarn.lock", ["resolutions"]],
    ["bun", "bun.lock", ["overrides"]],
  ] as const)(
    "with a %s lockfile: the override in that manager's field, equal to the project's own entry",
    async (kind, file, path) => {
      const dir = qwikApp([kind, file]);
      const result = await initQwik(dir);
      expect(result.exitCode, result.stderr).toBe(0);
      const pkg = packageJson(dir);
      expect(pkg.dependencies["@auth/core"]).toBe("^0.41.3");
      expect(path.reduce((at: Record<string, unknown>, key) => at[key] as Record<string, unknown>, pkg)).toEqual({
        "@auth/core": "^0.41.3",
      });
      expect(result.stdout).toContain(
        `note: package.json: ${path.join(".")} sets @auth/core to "^0.41.3" (@auth/qwik@0.9.1 pins @auth/core 0.41.1, which has ${ids})`,
      );
    },
  );

  it("without a lockfile: npm's overrides (the default manager); --package-manager names another", async () => {
    const npm = qwikApp();
    expect((await initQwik(npm)).exitCode).toBe(0);
    expect(packageJson(npm).overrides).toEqual({ "@auth/core": "^0.41.3" });
    const pnpm = qwikApp();
    const result = await inProcess(
      [
        "init",
        "--yes",
        "--no-install",
        "--backend",
        "memory",
        "--providers",
        "credentials",
        "--package-manager",
        "pnpm",
      ],
      { cwd: pnpm },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(pnpm).pnpm).toEqual({ overrides: { "@auth/core": "^0.41.3" } });
    expect(packageJson(pnpm).overrides).toBeUndefined();
  });

  it("a workspace member: the override goes to the workspace root's package.json, which the manager reads", async () => {
    const workspace = tempDir("create-auth-advisories-");
    writeFileSync(join(workspace, "package.json"), '{\n  "private": true,\n  "workspaces": ["apps/*"]\n}\n');
    const app = join(workspace, "apps", "web");
    cpSync(join(root, "fixtures/apps/qwik"), app, { recursive: true });
    const result = await initQwik(app);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(app).overrides).toBeUndefined();
    expect(readFileSync(join(workspace, "package.json"), "utf8")).toBe(
      '{\n  "private": true,\n  "workspaces": ["apps/*"],\n  "overrides": {\n    "@auth/core": "^0.41.3"\n  }\n}\n',
    );
    expect(result.stdout).toContain('note: ../../package.json: overrides sets @auth/core to "^0.41.3"');
  });
});

describe("an existing lockfile resolving an affected @auth/core", () => {
  it("init raises the project's entry, so the install moves the lockfile (the floor alone would keep 0.41.1)", async () => {
    const dir = tempDir("create-auth-advisories-");
    writeFileSync(
      join(dir, "package.json"),
      '{\n  "name": "app",\n  "dependencies": {\n    "@auth/core": "^0.41.0"\n  }\n}\n',
    );
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { "@auth/core": "^0.41.0" } },
          "node_modules/@auth/core": { version: "0.41.1" },
        },
      }),
    );
    const result = await inProcess(["init", "--yes", "--no-install", "--backend", "memory"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(dir).dependencies["@auth/core"]).toBe("^0.41.3");
    expect(packageJson(dir).overrides).toBeUndefined();
    expect(result.stdout).toContain(
      `note: package.json: @auth/core "^0.41.0" → "^0.41.3" (the versions it allowed have ${ids})`,
    );
    expect(result.stdout).not.toMatch(/keeps @auth\/core/);
  });
});

describe("a next-auth v4 project below 4.24.15", () => {
  function v4App(version: string): string {
    const dir = tempDir("create-auth-advisories-v4-");
    copyInput("pages-github-credentials", dir);
    const path = join(dir, "package.json");
    writeFileSync(path, readFileSync(path, "utf8").replace('"next-auth": "4.24.15"', `"next-auth": "${version}"`));
    return dir;
  }

  it("init raises next-auth within v4, the exact pin kept exact", async () => {
    const dir = v4App("4.24.11");
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(dir).dependencies["next-auth"]).toBe("4.24.15");
    expect(result.stdout).toContain(
      `note: package.json: next-auth "4.24.11" → "4.24.15" (the versions it allowed have ${ids})`,
    );
  });

  it("add-provider raises it too, though the provider adds no package, and says to install", async () => {
    const dir = v4App("4.24.11");
    const result = await inProcess(["add-provider", "google", "--no-install"], {
      cwd: dir,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(dir).dependencies["next-auth"]).toBe("4.24.15");
    expect(result.stdout).toMatch(/^updated package\.json$/m);
    expect(result.stdout).toContain("note: Install the new dependencies: npm install");
  });

  it("upgrade moves it to next-auth 5's fixed beta, never back to a v4 release the old lockfile names", async () => {
    const dir = v4App("4.24.11");
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { "next-auth": "4.24.11" } },
          "node_modules/next-auth": { version: "4.24.11" },
        },
      }),
    );
    const result = await inProcess(["upgrade", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(dir).dependencies["next-auth"]).toBe("5.0.0-beta.32");
  });

  it("a range with a lockfile still on an affected release: its floor raised", async () => {
    const dir = v4App("^4.24.5");
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": { dependencies: { "next-auth": "^4.24.5" } },
          "node_modules/next-auth": { version: "4.24.11" },
        },
      }),
    );
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(packageJson(dir).dependencies["next-auth"]).toBe("^4.24.15");
  });
});
