/**
 * The shape the code keeps: layers that point one way (no import circles
 * among src/'s modules), and kinds that own their code (nothing outside a
 * framework's or a storage's module branches on its id).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { dialects } from "../src/catalog/sql-dialects.js";
import { frameworkIds } from "../src/frameworks/registry.js";
import { storageModules } from "../src/storage/registry.js";
import { root } from "./helpers.js";

const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

// Static imports that run at load time; `import type` and `await import()` do not close a circle.
const runtimeImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^;]*?\bfrom\s+)?["'](\.[^"']+)["']/gm;

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(runtimeImport)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle's modules, found by depth-first search. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push(path.slice(path.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

/** A comparison or a case on a kind's id as a string literal: `=== "next"`, `case "prisma":`. */
function branchesOn(text: string, ids: readonly string[]): string[] {
  const alternatives = ids.map((id) => id.replace(/[-]/g, "\\-")).join("|");
  const pattern = new RegExp(
    `(?:[!=]==?\\s*|\\bcase\\s+)["'](${alternatives})["']|["'](${alternatives})["']\\s*[!=]==?`,
    "g",
  );
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

describe("the architecture", () => {
  it("has no import circles among src/'s modules", () => {
    const found = cycles(importGraph(sourceFiles(src))).map((cycle) =>
      cycle.map((f) => relative(root, f)).join(" -> "),
    );
    expect(found).toEqual([]);
  });

  it("would notice a circle", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });

  it("branches on a framework's id only inside src/frameworks/", () => {
    const ids = frameworkIds.filter((id) => id !== "none");
    const outside = sourceFiles(src).filter((f) => !f.startsWith(join(src, "frameworks")));
    const found = outside.flatMap((f) =>
      branchesOn(readFileSync(f, "utf8"), ids).map((b) => `${relative(root, f)}: ${b}`),
    );
    expect(found).toEqual([]);
  });

  it("branches on a storage's id only inside src/storage/", () => {
    // sqlite, postgres and mysql are also SQL dialects, which migrate and doctor speak on their own.
    const ids = storageModules.map((s) => s.id).filter((id) => !(dialects as readonly string[]).includes(id));
    const outside = sourceFiles(src).filter((f) => !f.startsWith(join(src, "storage")));
    const found = outside.flatMap((f) =>
      branchesOn(readFileSync(f, "utf8"), ids).map((b) => `${relative(root, f)}: ${b}`),
    );
    expect(found).toEqual([]);
  });

  it("would notice a branch on an id", () => {
    const code = 'if (framework === "next") x(); switch (id) { case "sveltekit": } if ("express" !== f) y();';
    expect(branchesOn(code, ["next", "sveltekit", "express"])).toEqual([
      '=== "next"',
      'case "sveltekit"',
      '"express" !==',
    ]);
  });
});
