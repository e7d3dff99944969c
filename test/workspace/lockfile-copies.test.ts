/**
 * Every copy of a package a lockfile resolves, told apart by who depends on
 * it. fixtures/lockfiles/* are real lockfiles (npm 11, pnpm 10, yarn 1 and
 * 4, bun 1.3) of one project: @auth/qwik 0.9.1, which pins @auth/core
 * 0.41.1, beside the project's own @auth/core 0.41.2.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectCopies } from "../../src/workspace/lockfile-copies.js";
import {
  copiesFromBunLock,
  copiesFromPackageLock,
  copiesFromPnpmLock,
  copiesFromYarnLock,
  type ResolvedCopy,
} from "../../src/workspace/lockfile-readers.js";
import { fixture, tempDir } from "../helpers.js";

const names = ["@auth/core", "next-auth"];
const read = (dir: string, file: string) => readFileSync(fixture("lockfiles", dir, file), "utf8");
const sorted = (copies: ResolvedCopy[]) => [...copies].sort((a, b) => a.version.localeCompare(b.version));

const expected = [
  { name: "@auth/core", version: "0.41.1", dependents: ["@auth/qwik@0.9.1"], direct: false },
  { name: "@auth/core", version: "0.41.2", dependents: [], direct: true },
];

describe("lockfile copies", () => {
  it("package-lock.json v3: the nested copy belongs to @auth/qwik, the top-level one to the project", () => {
    expect(sorted(copiesFromPackageLock(read("npm", "package-lock.json"), names))).toEqual(expected);
  });

  it("pnpm-lock.yaml v9: snapshots name the copy each package resolves, the importer the project's", () => {
    expect(sorted(copiesFromPnpmLock(read("pnpm", "pnpm-lock.yaml"), names))).toEqual(expected);
  });

  it("yarn.lock classic and berry: the spec a block's dependency names is the header that resolves it", () => {
    const specs = { "@auth/core": "0.41.2" };
    expect(sorted(copiesFromYarnLock(read("yarn-classic", "yarn.lock"), names, specs))).toEqual(expected);
    // Berry's workspace block says what the project asks for; no package.json needed.
    expect(sorted(copiesFromYarnLock(read("yarn-berry", "yarn.lock"), names))).toEqual(expected);
  });

  it("bun.lock: keys are install paths, a package's dependency resolved from its own path up", () => {
    expect(sorted(copiesFromBunLock(read("bun", "bun.lock"), names))).toEqual(expected);
  });

  it("package-lock.json v1 and pnpm-lock.yaml v6 (a single project's top-level sections)", () => {
    const v1 = JSON.stringify({
      lockfileVersion: 1,
      dependencies: {
        "next-auth": { version: "4.24.11", requires: { "@auth/core": "0.34.2" } },
        "@auth/core": { version: "0.34.2" },
      },
    });
    expect(copiesFromPackageLock(v1, names)).toEqual([
      { name: "next-auth", version: "4.24.11", dependents: [], direct: false },
      { name: "@auth/core", version: "0.34.2", dependents: ["next-auth@4.24.11"], direct: false },
    ]);
    const v6 = [
      "lockfileVersion: '6.0'",
      "",
      "dependencies:",
      "  next-auth:",
      "    specifier: ^4.24.5",
      "    version: 4.24.11(next@15.3.0)",
      "",
      "packages:",
      "",
      "  /next-auth@4.24.11(next@15.3.0):",
      "    resolution: {integrity: sha512-x}",
      "    dependencies:",
      "      jose: 4.15.9",
      "",
    ].join("\n");
    expect(copiesFromPnpmLock(v6, names)).toEqual([
      { name: "next-auth", version: "4.24.11", dependents: [], direct: true },
    ]);
  });

  it("reads nothing from text that is not a lockfile", () => {
    expect(copiesFromPackageLock("{", names)).toEqual([]);
    expect(copiesFromBunLock("not json", names)).toEqual([]);
    expect(copiesFromPnpmLock("", names)).toEqual([]);
    expect(copiesFromYarnLock("", names)).toEqual([]);
  });
});

describe("projectCopies", () => {
  it("reads a workspace member's copies from the lockfile at the workspace's root", () => {
    const dir = tempDir("create-auth-copies-");
    cpSync(fixture("lockfiles", "npm"), dir, { recursive: true });
    mkdirSync(join(dir, ".git"));
    const member = join(dir, "apps", "web");
    mkdirSync(member, { recursive: true });
    writeFileSync(
      join(member, "package.json"),
      JSON.stringify({ name: "web", dependencies: { "@auth/core": "0.41.2" } }),
    );
    const found = projectCopies(member, names);
    expect(found?.source).toBe("package-lock.json");
    expect(found?.dir).toBe(dir);
    expect(found?.copies.map((c) => c.version).sort()).toEqual(["0.41.1", "0.41.2"]);
  });

  it("without a lockfile: node_modules, the top level and one level down", () => {
    const dir = tempDir("create-auth-copies-");
    mkdirSync(join(dir, ".git"));
    const pkg = (path: string, json: object) => {
      mkdirSync(join(dir, path), { recursive: true });
      writeFileSync(join(dir, path, "package.json"), JSON.stringify(json));
    };
    pkg(".", { dependencies: { "@auth/qwik": "0.9.1" } });
    pkg("node_modules/@auth/qwik", { name: "@auth/qwik", version: "0.9.1" });
    pkg("node_modules/@auth/qwik/node_modules/@auth/core", { name: "@auth/core", version: "0.41.1" });
    pkg("node_modules/@auth/core", { name: "@auth/core", version: "0.41.3" });
    const found = projectCopies(dir, names);
    expect(found?.source).toBe("node_modules");
    expect(sorted(found!.copies)).toEqual([
      { name: "@auth/core", version: "0.41.1", dependents: ["@auth/qwik@0.9.1"], direct: false },
      { name: "@auth/core", version: "0.41.3", dependents: [], direct: true },
    ]);
  });

  it("with nothing installed or locked: package.json's exact versions, not its ranges", () => {
    const dir = tempDir("create-auth-copies-");
    mkdirSync(join(dir, ".git"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ dependencies: { "next-auth": "5.0.0-beta.29", "@auth/core": "^0.41.0" } }),
    );
    expect(projectCopies(dir, names)).toEqual({
      copies: [{ name: "next-auth", version: "5.0.0-beta.29", dependents: [], direct: true }],
      source: "package.json",
      dir,
    });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ dependencies: { "@auth/core": "^0.41.0" } }));
    expect(projectCopies(dir, names)).toBeUndefined();
  });
});
