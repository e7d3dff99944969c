import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { packageEntry } from "../../src/lib/package-entry.js";
import { tempDir } from "../helpers.js";

/** A package `name` under `dir`/node_modules with the given package.json fields. */
function writePackage(dir: string, name: string, manifest: Record<string, unknown>): string {
  const folder = join(dir, "node_modules", name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name, ...manifest }));
  return realpathSync(folder);
}

describe("packageEntry: the file an import of a package loads from a folder", () => {
  it("reads exports as an import does: subpaths, nested conditions in the package's order, arrays, sugar", () => {
    const dir = tempDir();
    const conditions = writePackage(dir, "conditions", {
      exports: {
        ".": { require: "./r.cjs", import: { types: "./i.d.ts", default: "./i.js" } },
        "./sub": [{ node: "./node.js" }, "./fallback.js"],
        "./package.json": "./package.json",
      },
    });
    expect(packageEntry("conditions", dir)).toBe(join(conditions, "i.js"));
    expect(packageEntry("conditions", dir, "./sub")).toBe(join(conditions, "node.js"));
    expect(packageEntry("conditions", dir, "./missing")).toBeUndefined();
    const sugar = writePackage(dir, "sugar", { exports: { require: "./r.cjs", default: "./d.js" } });
    expect(packageEntry("sugar", dir)).toBe(join(sugar, "d.js"));
    expect(packageEntry("sugar", dir, "./sub")).toBeUndefined();
    const plain = writePackage(dir, "plain", { main: "lib/main.js" });
    expect(packageEntry("plain", dir)).toBe(join(plain, "lib", "main.js"));
  });

  it("looks from the folder up as Node does, finds packages that do not export package.json, and follows links", () => {
    const dir = tempDir();
    const project = join(dir, "project");
    const closed = writePackage(dir, "closed", { exports: { ".": { import: "./esm.js" } } });
    mkdirSync(join(project, "src", "deep"), { recursive: true });
    expect(packageEntry("closed", join(project, "src", "deep"))).toBe(join(closed, "esm.js"));
    expect(packageEntry("closed", pathToFileURL(join(project, "src", "deep", "module.js")).href)).toBe(
      join(closed, "esm.js"),
    );
    // A linked package (pnpm's layout) is its real folder, as Node loads it.
    const store = writePackage(join(dir, "store"), "linked", { exports: "./index.js" });
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(store, join(project, "node_modules", "linked"), "dir");
    expect(packageEntry("linked", project)).toBe(join(store, "index.js"));
    expect(packageEntry("linked", dir)).toBeUndefined();
    expect(packageEntry("absent", project)).toBeUndefined();
  });
});
