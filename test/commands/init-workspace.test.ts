/**
 * init run at a workspace's root: the packages its package manager lists
 * (package.json workspaces, pnpm-workspace.yaml), the one app among them set
 * up where it is, with a note; with several apps, a usage error that names
 * them and writes nothing.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspacePackages } from "../../src/workspace/workspace-packages.js";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

function workspace(files: Record<string, string>, apps: Record<string, "express" | "hono">): string {
  const dir = tempDir("create-auth-workspace-");
  for (const [folder, app] of Object.entries(apps))
    cpSync(fixture("apps", app), join(dir, folder), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("workspacePackages", () => {
  it("lists the folders with a package.json that the patterns name, less the excluded ones", () => {
    const dir = workspace(
      {
        "package.json": JSON.stringify({ workspaces: { packages: ["apps/*", "packages/**", "!packages/internal"] } }),
        "apps/web/package.json": "{}",
        "apps/notes/readme.md": "not a package",
        "packages/ui/package.json": "{}",
        "packages/tools/cli/package.json": "{}",
        "packages/internal/package.json": "{}",
      },
      {},
    );
    expect(workspacePackages(dir)).toEqual(["apps/web", "packages/tools/cli", "packages/ui"]);
    const pnpm = workspace(
      { "pnpm-workspace.yaml": "packages:\n  - 'apps/*' # the apps\n  - \"libs/one\"\n" },
      {
        "apps/site": "hono",
      },
    );
    expect(workspacePackages(pnpm)).toEqual(["apps/site"]);
    expect(workspacePackages(workspace({ "package.json": "{}" }, {}))).toEqual([]);
  });
});

describe("init at a workspace's root", () => {
  it("sets up the one app of the workspace where it is, and says so", async () => {
    const rootPackage = `${JSON.stringify({ name: "repo", private: true, workspaces: ["apps/*", "packages/*"] })}\n`;
    const dir = workspace(
      { "package.json": rootPackage, "packages/ui/package.json": '{ "name": "ui" }' },
      { "apps/web": "hono" },
    );
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "note: this is a workspace's root; init sets up its app in apps/web (Hono). Run create-auth there next time.",
    );
    expect(readFileSync(join(dir, "apps/web/src/index.ts"), "utf8")).toContain(
      "handleAuth(c.req.raw, getConnInfo(c).remote.address)",
    );
    expect(existsSync(join(dir, "apps/web/src/auth.ts"))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "apps/web/package.json"), "utf8")).dependencies).toHaveProperty(
      "@auth/core",
    );
    // The root keeps what it had: no auth module, no env file, its package.json as it was.
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(rootPackage);
    expect(existsSync(join(dir, "auth.ts")) || existsSync(join(dir, ".env.local"))).toBe(false);
  });

  it("with several apps, names them and writes nothing", async () => {
    const dir = workspace(
      { "package.json": JSON.stringify({ private: true, workspaces: ["apps/*"] }) },
      {
        "apps/api": "express",
        "apps/web": "hono",
      },
    );
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "This is a workspace's root, and 2 of its packages are apps (apps/api, apps/web): run create-auth init in the one to set up (or pass --dir <it>). Nothing was written.",
    );
    expect(snapshot(dir)).toEqual(before);
  });
});
