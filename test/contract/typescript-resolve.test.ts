// The hooks Node's own type stripping runs with when a project has no tsx: TypeScript's import
// conventions resolved, and import/export syntax in a CommonJS package loaded as a module.
import { describe, expect, it } from "vitest";
import { load, resolve } from "../../src/contract/isolation/typescript-resolve.js";

const parentURL = "file:///app/src/index.ts";
const notFound = () => Object.assign(new Error("not found"), { code: "ERR_MODULE_NOT_FOUND" });

/** A resolver that knows only `files`, as Node's default one would. */
function nodeKnowing(files: string[]) {
  const asked: string[] = [];
  const next = async (specifier: string) => {
    asked.push(specifier);
    const url = new URL(specifier, parentURL).href;
    if (files.includes(url)) return { url };
    throw notFound();
  };
  return { next, asked };
}

describe("resolve", () => {
  it("finds db.ts for ./db.js, db.mts for ./db.mjs, and a folder's index.ts", async () => {
    const { next } = nodeKnowing(["file:///app/src/db.ts", "file:///app/src/esm.mts", "file:///app/src/lib/index.ts"]);
    expect((await resolve("./db.js", { parentURL }, next)).url).toBe("file:///app/src/db.ts");
    expect((await resolve("./esm.mjs", { parentURL }, next)).url).toBe("file:///app/src/esm.mts");
    expect((await resolve("./db", { parentURL }, next)).url).toBe("file:///app/src/db.ts");
    expect((await resolve("./lib", { parentURL }, next)).url).toBe("file:///app/src/lib/index.ts");
  });

  it("keeps what Node resolves itself, and Node's own error for what no candidate finds", async () => {
    const { next, asked } = nodeKnowing(["file:///app/src/plain.js"]);
    expect((await resolve("./plain.js", { parentURL }, next)).url).toBe("file:///app/src/plain.js");
    expect(asked).toEqual(["./plain.js"]);
    await expect(resolve("./missing.js", { parentURL }, next)).rejects.toThrow("not found");
  });

  it("leaves packages and other errors alone", async () => {
    const { next, asked } = nodeKnowing([]);
    await expect(resolve("some-package", { parentURL }, next)).rejects.toThrow("not found");
    expect(asked).toEqual(["some-package"]);
    const denied = async () => {
      throw Object.assign(new Error("denied"), { code: "ERR_ACCESS_DENIED" });
    };
    await expect(resolve("./db.js", { parentURL }, denied)).rejects.toThrow("denied");
  });
});

describe("load", () => {
  const loaded =
    (source: string, format = "commonjs-typescript") =>
    async () => ({ format, source });

  it("loads import/export syntax in a CommonJS package as a module", async () => {
    const esm = 'import { x } from "./x.js";\nexport default x;\n';
    expect((await load("file:///app/a.ts", {}, loaded(esm))).format).toBe("module-typescript");
    expect((await load("file:///app/a.ts", {}, loaded("export const a = 1;\n"))).format).toBe("module-typescript");
  });

  it("keeps CommonJS TypeScript (require, import = require) and what Node already loads as a module", async () => {
    const cjs = 'import fs = require("node:fs");\nconst x = require("./x");\nmodule.exports = x;\n';
    expect((await load("file:///app/a.ts", {}, loaded(cjs))).format).toBe("commonjs-typescript");
    expect((await load("file:///app/a.ts", {}, loaded("export {};", "module-typescript"))).format).toBe(
      "module-typescript",
    );
  });
});
