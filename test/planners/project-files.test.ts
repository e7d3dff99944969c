// package.json, tsconfig, dotenv and .gitignore planning: add what is missing, never change a value that is there.

import { describe, expect, it } from "vitest";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { selfDependencySpec } from "../../src/catalog/self.js";
import { gitignore, newSecret } from "../../src/render/env-files.js";
import { mergePackageJson, packageName } from "../../src/render/package-json.js";
import { newTsconfig } from "../../src/render/tsconfig.js";
import { storageById } from "../../src/storage/registry.js";

const needs = {
  dependencies: ["@auth/core", "better-sqlite3"],
  devDependencies: ["create-auth", "tsx"],
  scripts: { "verify-adapter": "create-auth verify-adapter auth/verify-adapter.ts" },
};

describe("mergePackageJson", () => {
  it("creates an ESM package named after the folder with catalog versions, the script and the install-script approval", () => {
    const { text, kept } = mergePackageJson(null, needs, "/tmp/My App!");
    const pkg = JSON.parse(text);
    expect(pkg).toMatchObject({ name: "my-app", private: true, type: "module" });
    expect(pkg.dependencies).toEqual({
      "@auth/core": dependencyVersions["@auth/core"],
      "better-sqlite3": dependencyVersions["better-sqlite3"],
    });
    expect(pkg.devDependencies).toEqual({ "create-auth": selfDependencySpec(), tsx: dependencyVersions.tsx });
    expect(pkg.scripts).toEqual(needs.scripts);
    expect(pkg.allowScripts).toEqual({ "better-sqlite3": true, esbuild: false });
    expect(kept).toEqual([]);
  });

  it("leaves an install-script decision the user made, approval or denial", () => {
    const existing = '{ "allowScripts": { "esbuild": true, "better-sqlite3": false } }\n';
    const pkg = JSON.parse(mergePackageJson(existing, needs, "/x").text);
    expect(pkg.allowScripts).toEqual({ esbuild: true, "better-sqlite3": false });
  });

  it("keeps existing versions, scripts, allowScripts entries, key order and indentation", () => {
    const existing = `{\n    "name": "app",\n    "scripts": { "verify-adapter": "mine" },\n    "dependencies": { "@auth/core": "0.30.0" },\n    "allowScripts": { "better-sqlite3@12.0.0": true }\n}\n`;
    const { text, kept } = mergePackageJson(existing, needs, "/x");
    const pkg = JSON.parse(text);
    expect(Object.keys(pkg)).toEqual(["name", "scripts", "dependencies", "allowScripts", "devDependencies"]);
    expect(pkg.dependencies["@auth/core"]).toBe("0.30.0");
    expect(pkg.dependencies["better-sqlite3"]).toBe(dependencyVersions["better-sqlite3"]);
    expect(pkg.scripts["verify-adapter"]).toBe("mine");
    expect(pkg.allowScripts).toEqual({ "better-sqlite3@12.0.0": true, esbuild: false });
    expect(text).toMatch(/^ {4}"name"/m);
    expect(kept.join("\n")).toMatch(/keeps @auth\/core@0\.30\.0/);
    expect(kept.join("\n")).toMatch(/keeps its "verify-adapter" script/);
  });

  it("a dependency listed in devDependencies is not added again; a denial stays a denial", () => {
    const existing = JSON.stringify({
      devDependencies: { "@auth/core": dependencyVersions["@auth/core"] },
      dependencies: { "better-sqlite3": "^12.6.0" },
      allowScripts: { "better-sqlite3": false },
    });
    const pkg = JSON.parse(mergePackageJson(existing, { ...needs, devDependencies: [], scripts: {} }, "/x").text);
    expect(pkg.dependencies).toEqual({ "better-sqlite3": "^12.6.0" });
    expect(pkg.allowScripts).toEqual({ "better-sqlite3": false });
  });

  it("returns the text unchanged when nothing is missing", () => {
    const first = mergePackageJson(null, needs, "/x").text;
    expect(mergePackageJson(first, needs, "/x").text).toBe(first);
  });

  it("names a package missing from the catalog instead of guessing a version", () => {
    const { text, kept } = mergePackageJson(
      null,
      { dependencies: ["left-pad"], devDependencies: [], scripts: {} },
      "/x",
    );
    expect(JSON.parse(text).dependencies).toBeUndefined();
    expect(kept).toEqual(["left-pad is not in create-auth's version catalog and was not added; add it yourself"]);
  });

  it("keeps CRLF line endings and the lack of a final newline", () => {
    const crlf = '{\r\n  "name": "app",\r\n  "dependencies": {}\r\n}\r\n';
    const merged = mergePackageJson(crlf, needs, "/x").text;
    expect(merged).toMatch(/^\{\r\n {2}"name": "app",\r\n/);
    expect(merged.replace(/\r\n/g, "")).not.toContain("\n");
    expect(merged.endsWith("}\r\n")).toBe(true);
    expect(mergePackageJson('{"name":"app"}', needs, "/x").text.endsWith("}")).toBe(true);
  });

  it("keeps every byte it does not add to: inline arrays, compact spacing, escapes, an unusual indentation", () => {
    const existing =
      '{"name":"app","files":["dist","bin"],"description":"caf\\u00e9",\n   "dependencies": {"next":"15.3.0"}}';
    const { text } = mergePackageJson(existing, { ...needs, devDependencies: [], scripts: {} }, "/x");
    expect(
      text.startsWith(
        '{"name":"app","files":["dist","bin"],"description":"caf\\u00e9",\n   "dependencies": {"next":"15.3.0",',
      ),
    ).toBe(true);
    expect(JSON.parse(text).dependencies).toMatchObject({
      next: "15.3.0",
      "@auth/core": dependencyVersions["@auth/core"],
    });
  });

  it.each([
    ['{ "dependencies": "oops" }', /"dependencies" in \/x\/package\.json is a string, where npm expects an object/],
    ['{ "scripts": ["build"] }', /"scripts" in .* is an array, where npm expects an object/],
    ['{ "dependencies": [] }', /"dependencies" in .* is an array/],
    ['{ "devDependencies": null }', /"devDependencies" in .* is null/],
    ['{ "allowScripts": true }', /"allowScripts" in .* is a boolean/],
  ])("refuses a field of the wrong type instead of replacing it: %s", (text, message) => {
    expect(() => mergePackageJson(text, needs, "/x")).toThrow(message);
  });

  it("packageName falls back to app", () => {
    expect(packageName("/tmp/---")).toBe("app");
  });
});

describe("newTsconfig", () => {
  it("ESM projects get NodeNext and .js imports; CommonJS ones bundler resolution and bare imports", () => {
    expect(JSON.parse(newTsconfig(true, false).text).compilerOptions).toMatchObject({
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
    });
    expect(newTsconfig(true, false).importExtension).toBe(".js");
    expect(newTsconfig(false, false).importExtension).toBe("");
    expect(JSON.parse(newTsconfig(false, false).text).compilerOptions).toMatchObject({ moduleResolution: "Bundler" });
  });

  it("turns on decorators for TypeORM only", () => {
    expect(JSON.parse(newTsconfig(true, true).text).compilerOptions).toMatchObject({
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
    expect(JSON.parse(newTsconfig(true, false).text).compilerOptions.experimentalDecorators).toBeUndefined();
  });
});

describe("env files", () => {
  it("newSecret is 32 random bytes, base64", () => {
    expect(Buffer.from(newSecret(), "base64")).toHaveLength(32);
    expect(newSecret()).not.toBe(newSecret());
  });

  it(".gitignore gains .env.local (and node_modules when new)", () => {
    expect(gitignore(null)).toBe("node_modules\n.env.local\n");
    expect(gitignore("dist\n")).toBe("dist\n.env.local\n");
    // .env.local is covered; .env.example, the documentation of the variables, is kept tracked.
    expect(gitignore(".env*\n")).toBe(".env*\n!.env.example\n");
    // The embedded database and its journal files hold users and sessions.
    const sqlite = storageById("sqlite").ignored ?? [];
    expect(gitignore(null, sqlite)).toBe("node_modules\n.env.local\nauth.db*\n");
    expect(gitignore(".env.local\nauth.db*\n", sqlite)).toBe(".env.local\nauth.db*\n");
  });
});
