/**
 * Babel's parser is half a megabyte of code to load and compile, so only
 * commands that edit a config may pay for it: code outside src/ast reaches
 * src/ast, and @babel/parser, through `await import(...)` only. A
 * framework's doctor part (src/frameworks/<id>/doctor.ts, and the
 * frameworks/doctor-*.ts helpers it shares) reads the project's modules, and
 * a framework's own text edits (src/frameworks/<id>/*-edit.ts) parse them;
 * both are themselves loaded only by `await import(...)`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers.js";

const lazyModule = (path: string) =>
  /src\/frameworks\/(?:[\w-]+\/doctor|doctor-[\w-]+|[\w-]+\/[\w-]+-edit)\.ts$/.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(root, "src", "ast") ? [] : sourceFiles(path);
    return /\.[cm]?ts$/.test(entry.name) && !lazyModule(path) ? [path] : [];
  });
}

// A static value import or re-export; `import type` is erased and costs nothing.
const staticImport = /^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']/gm;

function eagerParserImports(source: string): string[] {
  return [...source.matchAll(staticImport)]
    .map((m) => m[1]!)
    .filter(
      (specifier) =>
        specifier.startsWith("@babel/") ||
        /(?:^|\/)ast\//.test(specifier) ||
        /(?:^|\/)doctor(?:-[\w-]+)?\.js$/.test(specifier) ||
        /-edit\.js$/.test(specifier),
    );
}

describe("src/ast is loaded lazily", () => {
  it("no module outside src/ast imports it or @babel/parser at top level", () => {
    const offenders = sourceFiles(join(root, "src")).flatMap((file) =>
      eagerParserImports(readFileSync(file, "utf8")).map((specifier) => `${relative(root, file)} -> ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it("would notice one that did", () => {
    const source = [
      'import type { Node } from "@babel/types";',
      'import { parse } from "@babel/parser";',
      'export { addProviderToConfig } from "../ast/insert-provider.js";',
      'const { findProvidersArray } = await import("../ast/find-providers.js");',
    ].join("\n");
    expect(eagerParserImports(source)).toEqual(["@babel/parser", "../ast/insert-provider.js"]);
  });
});
