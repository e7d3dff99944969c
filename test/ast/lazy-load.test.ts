/**
 * ts-morph (with the TypeScript compiler inside it) takes hundreds of
 * milliseconds to load, so only commands that edit a config may pay for it:
 * code outside src/ast reaches it through `await import(...)` only.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers.js";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(root, "src", "ast") ? [] : sourceFiles(path);
    return /\.[cm]?ts$/.test(entry.name) ? [path] : [];
  });
}

// A static value import or re-export; `import type` is erased and costs nothing.
const staticImport = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']/gm;

describe("src/ast is loaded lazily", () => {
  it("no module outside src/ast imports it or ts-morph at top level", () => {
    const offenders = sourceFiles(join(root, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(staticImport)]
        .map((m) => m[1]!)
        .filter((specifier) => specifier === "ts-morph" || /(?:^|\/)ast\//.test(specifier))
        .map((specifier) => `${relative(root, file)} -> ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});
