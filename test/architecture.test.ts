/**
 * The shape the code keeps: layers that point one way (each folder of src/
 * has a rank and imports only lower ranks, over value, type and dynamic
 * imports alike; no import circles of any kind among its modules), and kinds
 * that own their code: nothing outside a framework's module and templates
 * folder, a storage's module, or a SQL dialect's module and partials branches
 * on its id.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { dialects } from "../src/catalog/sql-dialects.js";
import { frameworkIds } from "../src/frameworks/registry.js";
import { storageModules } from "../src/storage/registry.js";
import { root, tempDir } from "./helpers.js";
import { cycles, importGraph, type Layers, unresolved, upwardImports } from "./support/import-graph.js";

const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const readAll = (files: string[]) => new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

/** Writes files of a planted tree under `dir` (the checks' own tests plant what they must find). */
const writerIn = (dir: string) => (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};

/** src/'s layers, bottom to top: [folder or top-level module, rank, why it stands there]. */
const ranked: readonly [string, number, string][] = [
  ["lib", 0, "errors, io, terminal, options tables, semver: the toolkit, which needs nothing of ours"],
  ["version.ts", 0, "one constant, kept in step with package.json"],
  ["catalog", 1, "static data (built-in providers, SQL dialects, versions, advisories) every kind reads"],
  ["schemas", 1, "zod models of the spec's adapter records"],
  [
    "render",
    2,
    "pure text: templates, parts, the package.json, dotenv, .gitignore and tsconfig merges, env facts; reads no project",
  ],
  ["workspace", 3, "the project on disk: reading it, its env files and lockfiles, plan-then-apply, installs"],
  ["ast", 4, "code read and edited with a parser, in the files the workspace finds"],
  ["storage", 5, "one module per store, planned with render and ast"],
  ["families", 5, "one module per provider family, planned with render"],
  ["doctor-model", 6, "the facts and findings every doctor check and framework shares"],
  ["frameworks", 7, "one module per framework: its wiring, and its doctor part over doctor-model"],
  ["doctor", 8, "`doctor`: gathers the facts, runs every framework's part and its own checks, fixes"],
  ["contract", 8, "the adapter contract, standing on lib and schemas alone"],
  [
    "planners",
    9,
    "every command's plan as parts (init, add-provider, upgrade, doctor --fix), over frameworks, storage, families and doctor",
  ],
  ["prompts", 10, "the terminal's questions (clack), asked for the commands"],
  ["commands", 11, "one module per command, over everything below"],
  ["cli.ts", 12, "the program: loads the command invoked"],
  ["index.ts", 12, "the package's API"],
  ["vitest.ts", 12, "the package's vitest entry"],
];

/** Same-rank pairs allowed to import one way, "from -> to", each with its reason: none today. */
const sameRank: readonly [string, string][] = [];

const layers: Layers = {
  rank: Object.fromEntries(ranked.map(([layer, rank]) => [layer, rank])),
  sameRank: new Set(sameRank.map(([pair]) => pair)),
};

/** A comparison or a case on a kind's id as a string literal: `=== "next"`, `case "prisma":`. */
function branchesOn(text: string, ids: readonly string[]): string[] {
  const alternatives = ids.map((id) => id.replace(/[-]/g, "\\-")).join("|");
  const pattern = new RegExp(
    `(?:[!=]==?\\s*|\\bcase\\s+)["'](${alternatives})["']|["'](${alternatives})["']\\s*[!=]==?`,
    "g",
  );
  return [...text.matchAll(pattern)].map((m) => m[0]);
}

/**
 * A lookup keyed by every one of `ids`, which is a branch by another name: an object literal naming each as a
 * key (`{ sqlite: "SQLite", postgres: …, mysql: … }[dialect]`), or a `Record<T, …>` keyed by `type` (their union).
 */
function mapsByEvery(text: string, ids: readonly string[], type?: string): string[] {
  const key = (id: string) => new RegExp(`(?:^|[{,\\s])["']?${id.replace(/[-]/g, "\\-")}["']?\\s*:`);
  const literals = [...text.matchAll(/\{[^{}]*\}/g)]
    .map((m) => m[0])
    .filter((literal) => ids.every((id) => key(id).test(literal)))
    .map((literal) => `a map by every id: ${literal.replace(/\s+/g, " ").slice(0, 100)}`);
  const records = type ? [...text.matchAll(new RegExp(`Record<${type}\\b`, "g"))].map((m) => m[0]) : [];
  return [...literals, ...records];
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return templateFiles(path);
    return entry.name.endsWith(".hbs") ? [path] : [];
  });
}

/**
 * The Handlebars blocks of `text` whose condition names one of `ids`
 * (`{{#if mysql}}`, `{{else unless postgres}}`, `{{#if (eq dialect "sqlite")}}`):
 * a word of the condition, bare, quoted or a segment of a path, that is an id.
 */
function templateBranchesOn(text: string, ids: readonly string[]): string[] {
  const blocks = /\{\{~?\s*(?:#(?:if|unless)|else\s+(?:if|unless))\b([^}]*)\}\}/g;
  return [...text.matchAll(blocks)]
    .filter((m) => (m[1] ?? "").split(/[^\w-]+/).some((word) => ids.includes(word)))
    .map((m) => m[0]);
}

/** A template's own dialect: the `<id>` of a partial named `partials/<name>-<id>.hbs`. */
const partialDialect = (path: string, ids: readonly string[]) =>
  ids.find((id) => path.includes(`${join("partials", "")}`) && path.endsWith(`-${id}.hbs`));

/**
 * The branches on one of `ids` in the modules under `dir` outside its folder `inside` ("storage/sql/dialects"),
 * and the lookups keyed by every id (by `type`, the ids' union type, when it has one).
 */
function codeBranchesOutside(dir: string, inside: string, ids: readonly string[], type?: string): string[] {
  const outside = sourceFiles(dir).filter((f) => !f.startsWith(join(dir, inside, "")));
  return outside.flatMap((f) => {
    const text = readFileSync(f, "utf8");
    return [...branchesOn(text, ids), ...mapsByEvery(text, ids, type)].map((b) => `${relative(dir, f)}: ${b}`);
  });
}

/** A template's own framework: the `<id>` of `frameworks/<id>/` below the templates folder `dir` that holds it. */
const templateFramework = (dir: string, path: string, ids: readonly string[]) =>
  ids.find((id) => path.startsWith(join(dir, "frameworks", id, "")));

/** The blocks of the templates under `dir` that branch on a framework's id outside that framework's folder. */
function frameworkBranchesIn(dir: string, ids: readonly string[]): string[] {
  return templateFiles(dir).flatMap((f) => {
    const own = templateFramework(dir, f, ids);
    const others = ids.filter((id) => id !== own);
    return templateBranchesOn(readFileSync(f, "utf8"), others).map((b) => `${relative(dir, f)}: ${b}`);
  });
}

describe("the architecture", () => {
  const graph = importGraph(readAll(sourceFiles(src)));

  it("reads every relative import of src/ to a module of src/", () => {
    expect(unresolved(graph)).toEqual([]);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
  });

  it("ranks every folder of src/, and its imports point down", () => {
    expect(upwardImports(src, graph, layers)).toEqual([]);
  });

  it("has no import circles among src/'s modules, of any kind", () => {
    const found = cycles(graph).map((cycle) => cycle.map((f) => relative(root, f)).join(" -> "));
    expect(found).toEqual([]);
  });

  it("would notice a circle", () => {
    const to = (...targets: string[]) => targets.map((target) => ({ target }));
    const graph = new Map([
      ["a", to("b")],
      ["b", to("c")],
      ["c", to("a")],
      ["d", to("a")],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });

  it("would notice an upward import of each kind, and a circle through types or a dynamic import", () => {
    // A small src/ on disk, read as the tree is: lib imports commands three ways.
    const dir = join(tempDir(), "src");
    const write = writerIn(dir);
    write("commands/run.ts", 'import { low } from "../lib/low.js";\nexport const run = () => low;\n');
    write(
      "lib/low.ts",
      [
        'import { run } from "../commands/run.js";',
        'import type { Run } from "../commands/types.js";',
        'export const low = async () => (await import("../commands/late.js")).late;',
        // Generated code in a template is text, not an import.
        "export const generated = `",
        'import { absent } from "../commands/absent.js";',
        "`;",
      ].join("\n"),
    );
    write("lib/typed.ts", 'export type { Run } from "../commands/types.js";\n');
    write("lib/inline.ts", 'export type Run = import("../commands/types.js").Run;\n');
    write("commands/types.ts", "export type Run = () => void;\n");
    write("commands/late.ts", 'import type { low } from "../lib/low.js";\nexport const late = 1;\n');
    write("unranked/x.ts", "export {};\n");
    const planted = importGraph(readAll(sourceFiles(dir)));
    const small: Layers = { rank: { lib: 0, commands: 1 } };
    expect(unresolved(planted)).toEqual([]);
    expect(upwardImports(dir, planted, small).sort()).toEqual([
      "lib/inline.ts:1 -> commands/types.ts (type)",
      "lib/low.ts:1 -> commands/run.ts (value)",
      "lib/low.ts:2 -> commands/types.ts (type)",
      "lib/low.ts:3 -> commands/late.ts (dynamic)",
      "lib/typed.ts:1 -> commands/types.ts (type)",
      "unranked/x.ts: unranked has no rank",
    ]);
    // Sideways within a rank only with leave.
    const sideways: Layers = { rank: { lib: 0, commands: 0 }, sameRank: new Set(["commands -> lib"]) };
    expect(upwardImports(dir, planted, sideways).filter((f) => f.startsWith("commands/"))).toEqual([]);
    expect(upwardImports(dir, planted, sideways).filter((f) => f.startsWith("lib/"))).toHaveLength(5);
    // run -> low is a value import, low -> run too; late -> low a type import, low -> late a dynamic one.
    const rel = cycles(planted).map((cycle) => cycle.map((f) => relative(dir, f)).sort());
    expect(rel).toEqual(expect.arrayContaining([["commands/run.ts", "lib/low.ts"]]));
    const typeOnly = new Map([...planted].map(([f, imports]) => [f, imports.filter((i) => i.kind !== "value")]));
    expect(cycles(typeOnly).map((cycle) => cycle.map((f) => relative(dir, f)).sort())).toEqual([
      ["commands/late.ts", "lib/low.ts"],
    ]);
  });

  it("branches on a framework's id only inside src/frameworks/", () => {
    const ids = frameworkIds.filter((id) => id !== "none");
    expect(codeBranchesOutside(src, "frameworks", ids)).toEqual([]);
  });

  it("branches on a storage's id only inside src/storage/", () => {
    const ids = storageModules.map((s) => s.id).filter((id) => !(dialects as readonly string[]).includes(id));
    expect(codeBranchesOutside(src, "storage", ids)).toEqual([]);
  });

  it("branches on a SQL dialect's id only inside src/storage/sql/dialects/", () => {
    // postgres, mysql, sqlite: also the ids of the SQL backends, which take all they print from their dialect's module.
    expect(codeBranchesOutside(src, "storage/sql/dialects", dialects, "Dialect")).toEqual([]);
  });

  it("would notice a branch on a dialect's id outside the dialects' folder, and let a dialect's module name its own", () => {
    const dir = join(tempDir(), "src");
    const write = writerIn(dir);
    write("storage/sql/dialects/index.ts", 'export const mine = (id: string) => id === "mysql";\n');
    write(
      "storage/prisma/index.ts",
      'export const ignored = (dialect: string) => (dialect === "sqlite" ? ["dev.db"] : []);\n',
    );
    write(
      "doctor/database.ts",
      'export const quoted = (d: string) => { switch (d) { case "postgres": return 1; } };\n',
    );
    write(
      "storage/prisma/names.ts",
      [
        'import type { Dialect } from "../../catalog/sql-dialects.js";',
        'export const title = (d: Dialect) => ({ sqlite: "SQLite", postgres: "PostgreSQL", "mysql": "MySQL" })[d];',
        'export const now: Record<Dialect, string> = { postgres: "now()", mysql: "NOW(3)", sqlite: "now" };',
        // One dialect's key is a fact about it, not a lookup by every dialect.
        'export const files = { sqlite: { base: "." } };',
      ].join("\n"),
    );
    expect(codeBranchesOutside(dir, "storage/sql/dialects", dialects, "Dialect").sort()).toEqual([
      `${join("doctor", "database.ts")}: case "postgres"`,
      `${join("storage", "prisma", "index.ts")}: === "sqlite"`,
      `${join("storage", "prisma", "names.ts")}: Record<Dialect`,
      `${join("storage", "prisma", "names.ts")}: a map by every id: { postgres: "now()", mysql: "NOW(3)", sqlite: "now" }`,
      `${join("storage", "prisma", "names.ts")}: a map by every id: { sqlite: "SQLite", postgres: "PostgreSQL", "mysql": "MySQL" }`,
    ]);
  });

  it("branches on a SQL dialect's id in no template but that dialect's own partial", () => {
    // What differs per dialect is a field of its module (src/storage/sql/dialects/) or its partial (partials/<name>-<id>.hbs).
    const found = templateFiles(join(root, "templates")).flatMap((f) => {
      const own = partialDialect(f, dialects);
      const others = dialects.filter((id) => id !== own);
      return templateBranchesOn(readFileSync(f, "utf8"), others).map((b) => `${relative(root, f)}: ${b}`);
    });
    expect(found).toEqual([]);
  });

  it("would notice a template branching on a dialect's id, and let a dialect's partial name its own", () => {
    const planted = [
      "{{#if mysql}}a{{/if}}",
      "{{#unless sqlite}}b{{/unless}}",
      "{{#if x}}{{else if postgres}}c{{/if}}",
      '{{#if (eq dialect "mysql")}}d{{/if}}',
      "{{#if adapter.sqlite}}e{{/if}}",
      "{{#if mysqlish}}f{{/if}} {{mysql}} {{#each lines}}{{this}}{{/each}}",
    ].join("\n");
    expect(templateBranchesOn(planted, dialects)).toEqual([
      "{{#if mysql}}",
      "{{#unless sqlite}}",
      "{{else if postgres}}",
      '{{#if (eq dialect "mysql")}}',
      "{{#if adapter.sqlite}}",
    ]);
    // A template planted in a copy of templates/ fails the rule; the same branch in that dialect's partial does not.
    const dir = tempDir("create-auth-templates-");
    mkdirSync(join(dir, "adapters", "partials"), { recursive: true });
    writeFileSync(join(dir, "adapters", "sql.ts.hbs"), "x\n{{#if mysql}}\ny\n{{/if}}\n");
    writeFileSync(join(dir, "adapters", "partials", "db-mysql.hbs"), "{{#if mysql}}z{{/if}}\n");
    writeFileSync(join(dir, "adapters", "partials", "db-sqlite.hbs"), "{{#if mysql}}w{{/if}}\n");
    const flagged = templateFiles(dir).flatMap((f) =>
      templateBranchesOn(
        readFileSync(f, "utf8"),
        dialects.filter((id) => id !== partialDialect(f, dialects)),
      ).map(() => relative(dir, f)),
    );
    expect(flagged.sort()).toEqual([join("adapters", "partials", "db-sqlite.hbs"), join("adapters", "sql.ts.hbs")]);
  });

  it("branches on a framework's id in no template outside that framework's folder", () => {
    // A framework's part of a shared template (the two-factor route) is a partial in templates/frameworks/<id>/.
    const ids = frameworkIds.filter((id) => id !== "none");
    expect(frameworkBranchesIn(join(root, "templates"), ids)).toEqual([]);
  });

  it("would notice a template branching on a framework's id outside its folder, and let its own folder name it", () => {
    const dir = tempDir("create-auth-templates-");
    const write = writerIn(dir);
    write("frameworks/two-factor/route.ts.hbs", "{{#if astro}}a{{/if}}\n{{> two-factor-route}}\n");
    write("frameworks/astro/partials/two-factor-route.hbs", "{{#if astro}}b{{/if}}\n");
    write("frameworks/astro/route.ts.hbs", "{{#if next}}c{{else if astro}}d{{/if}}\n");
    write("config/auth.ts.hbs", '{{#unless (eq framework "tanstack-start")}}e{{/unless}} {{#if nextAuth}}f{{/if}}\n');
    expect(frameworkBranchesIn(dir, ["astro", "next", "tanstack-start"]).sort()).toEqual([
      `${join("config", "auth.ts.hbs")}: {{#unless (eq framework "tanstack-start")}}`,
      `${join("frameworks", "astro", "route.ts.hbs")}: {{#if next}}`,
      `${join("frameworks", "two-factor", "route.ts.hbs")}: {{#if astro}}`,
    ]);
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
