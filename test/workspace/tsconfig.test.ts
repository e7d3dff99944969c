/**
 * The project's compiler settings as tsc reads them (extends chains,
 * relative and from packages, each path against the file that sets it), and
 * the folder generated modules go in so that tsc takes them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { importExtension } from "../../src/workspace/project.js";
import { readTsconfig, sourceFolder } from "../../src/workspace/tsconfig.js";
import { tempDir } from "../helpers.js";

function project(files: Record<string, string>): string {
  const dir = tempDir("create-auth-tsconfig-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("readTsconfig", () => {
  it("follows extends to a package's tsconfig and a relative base, the file itself winning", () => {
    const dir = project({
      "node_modules/@tsconfig/node22/tsconfig.json":
        '{ "compilerOptions": { "module": "nodenext", "target": "es2022" } }',
      "tsconfig.base.json": '{ "extends": "@tsconfig/node22/tsconfig.json", "compilerOptions": { "strict": true } }',
      "tsconfig.json":
        '{ "extends": "./tsconfig.base.json", "compilerOptions": { "rootDir": "src", "outDir": "dist" } }',
    });
    expect(readTsconfig(dir)).toMatchObject({
      file: "tsconfig.json",
      module: "nodenext",
      rootDir: "src",
      outDir: "dist",
    });
    // Node's own resolution set only in the package's base still means ".js" on relative imports.
    expect(importExtension(dir)).toBe(".js");
  });

  it("resolves a base's paths, include and outDir against the base's folder (a workspace's app)", () => {
    const dir = project({
      "tsconfig.base.json":
        '{ "compilerOptions": { "module": "esnext", "outDir": "./build", "paths": { "@/*": ["./apps/web/src/*"] } }, "include": ["apps/web/src"] }',
      "apps/web/tsconfig.json": '{ "extends": "../../tsconfig.base.json" }',
    });
    const tsconfig = readTsconfig(join(dir, "apps/web"));
    expect(tsconfig).toMatchObject({ outDir: "../../build", include: ["src"], module: "esnext" });
    expect(tsconfig.paths).toEqual([{ pattern: "@/*", targets: [join(dir, "apps/web/src/*")] }]);
    expect(importExtension(join(dir, "apps/web"))).toBe("");
  });

  it("reads comments and trailing commas; later entries of an extends list win; jsconfig.json when there is no tsconfig", () => {
    const dir = project({
      "a.json": '{ "compilerOptions": { "module": "commonjs", "rootDir": "lib" } }',
      "b.json": '{ "compilerOptions": { "module": "node16" } }',
      "tsconfig.json": '{\n  // both\n  "extends": ["./a.json", "./b.json"],\n  /* none of its own */\n}\n',
    });
    expect(readTsconfig(dir)).toMatchObject({ module: "node16", rootDir: "lib" });
    const js = project({ "jsconfig.json": '{ "compilerOptions": { "checkJs": true }, "include": ["server"] }' });
    expect(readTsconfig(js)).toMatchObject({ file: "jsconfig.json", include: ["server"] });
    expect(readTsconfig(project({}))).toEqual({ file: undefined, paths: [] });
  });
});

describe("sourceFolder", () => {
  const none = { file: "tsconfig.json", paths: [] };

  it("is rootDir when there is one", () => {
    expect(sourceFolder({ ...none, rootDir: "src/server", include: ["src"] }, "src/server/index.ts", true)).toBe(
      "src/server",
    );
  });

  it("is the include folder that holds the server's module, else src among them, else the first", () => {
    expect(sourceFolder({ ...none, include: ["test", "server/**/*.ts"] }, "server/main.ts", true)).toBe("server");
    expect(sourceFolder({ ...none, include: ["test/**/*", "src"] }, undefined, true)).toBe("src");
    expect(sourceFolder({ ...none, include: ["**/*.ts"] }, "index.ts", true)).toBe("");
    expect(sourceFolder({ ...none, files: ["app/index.ts"] }, undefined, false)).toBe("app");
  });

  it("without either: the server module's top folder, else src/ when there is one, else the project's own", () => {
    expect(sourceFolder(none, "server/index.ts", true)).toBe("server");
    expect(sourceFolder(none, "index.ts", true)).toBe("src");
    expect(sourceFolder(none, undefined, false)).toBe("");
  });
});
