// Which package manager init installs with: the project's lockfile, else the one that launched us, else npm.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectPackageManager, fromUserAgent, installCommand } from "../../src/workspace/package-manager.js";
import { tempDir } from "../helpers.js";

const withFiles = (...files: string[]) => {
  const dir = tempDir("create-auth-pm-");
  for (const f of files) writeFileSync(join(dir, f), "");
  return dir;
};

describe("detectPackageManager", () => {
  it.each([
    ["package-lock.json", "npm"],
    ["npm-shrinkwrap.json", "npm"],
    ["pnpm-lock.yaml", "pnpm"],
    ["yarn.lock", "yarn"],
    ["bun.lock", "bun"],
    ["bun.lockb", "bun"],
  ])("%s -> %s", (lockfile, manager) => {
    expect(detectPackageManager(withFiles(lockfile), {})).toEqual({ manager, source: lockfile });
  });

  it("prefers the lockfile to the user agent", () => {
    expect(
      detectPackageManager(withFiles("yarn.lock"), {
        npm_config_user_agent: "pnpm/9.1.0 npm/? node/v20.12.0 linux x64",
      }).manager,
    ).toBe("yarn");
  });

  it("prefers bun's lockfile when a yarn.lock sits beside it", () => {
    expect(detectPackageManager(withFiles("yarn.lock", "bun.lock"), {}).manager).toBe("bun");
  });

  it.each([
    ["pnpm/9.1.0 npm/? node/v20.12.0 linux x64", "pnpm"],
    ["yarn/1.22.22 npm/? node/v22.1.0 darwin arm64", "yarn"],
    ["bun/1.1.8 npm/? node/v22.0.0 linux x64", "bun"],
    ["npm/11.0.0 node/v24.0.0 linux x64 workspaces/false", "npm"],
  ])("without a lockfile, reads the user agent %s", (agent, manager) => {
    expect(detectPackageManager(withFiles(), { npm_config_user_agent: agent })).toEqual({
      manager,
      source: "npm_config_user_agent",
    });
  });

  it("falls back to npm for no lockfile and an unknown or missing user agent", () => {
    expect(detectPackageManager(withFiles(), {})).toEqual({ manager: "npm", source: "default" });
    expect(detectPackageManager(withFiles(), { npm_config_user_agent: "deno/2.0" })).toEqual({
      manager: "npm",
      source: "default",
    });
  });
});

describe("helpers", () => {
  it("fromUserAgent ignores case and blanks", () => {
    expect(fromUserAgent(" PNPM/9 ")).toBe("pnpm");
    expect(fromUserAgent("")).toBeUndefined();
    expect(fromUserAgent(undefined)).toBeUndefined();
  });

  it("installCommand is `<manager> install` for every manager", () => {
    for (const m of ["npm", "pnpm", "yarn", "bun"] as const) expect(installCommand(m)).toEqual([m, "install"]);
  });
});
