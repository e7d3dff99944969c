/**
 * Mounting Auth.js in the module that creates a server's app (Hono,
 * Fastify, Elysia, Express): an import put first (the env loader: it must
 * run before the modules that read process.env), an import after the last
 * one, and the mount right after the statement that creates the app — in
 * the function that creates it, when a factory does — or, where the app is
 * built as one chain (`new Elysia().get(...)`), right after its construction
 * in the chain. A pure text edit: every other byte stays; a second run finds
 * the marker and changes nothing; a module it cannot read with certainty is
 * refused with the reason, and the user adds the lines.
 */
import type { Node } from "@babel/types";
import { collectBindings } from "./bindings.js";
import { descendants, endOf, ofType, parentOf, startOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, indentAt, parse, type SourceFile, type TextEdit } from "./parse.js";

/** How a framework's app is created: `new Hono()` from "hono", `Fastify()` from fastify's default export. */
export interface AppCreation {
  /** The framework's name in messages ("Hono", "express"). */
  name: string;
  /** The package the constructor comes from; its entry points ("hono/tiny") count too. */
  package: string;
  /** The exports that create the app, "default" for a default export. */
  exports: string[];
  /** Created with `new`. */
  construct: boolean;
}

export interface EntryWiring {
  creates: AppCreation;
  /** A side-effect import that must come before every other ("./load-env.js"). */
  firstImport?: string;
  /** Import lines added after the last import. */
  imports: string[];
  /**
   * What the mount adds after the app's creation; `$app` stands for the
   * app's binding. A statement per line for a declared app; in a chain, the
   * text is spliced after the constructor call (e.g. `\n  .all(...)`).
   */
  mount: string;
  /** In a chain, what is spliced instead of `mount` when the two differ (`\n  .all(...)`). */
  chain?: string;
  /** Text whose presence means the module is wired already. */
  marker: string;
}

export type EntryEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const fromPackage = (specifier: string, name: string) => specifier === name || specifier.startsWith(`${name}/`);

/** The names a module calls to create the app, and whether it binds them with require() (CommonJS). */
function creatorsIn(file: SourceFile, creates: AppCreation): { names: Set<string>; commonJs: boolean } {
  const bindings = collectBindings(file).filter(
    (b) =>
      !b.typeOnly &&
      fromPackage(b.module, creates.package) &&
      creates.exports.includes(b.kind === "named" ? (b.imported ?? b.local) : b.kind === "default" ? "default" : ""),
  );
  // `const express = require("express")` binds the module itself, which is what express's default export is.
  const required = collectBindings(file).filter(
    (b) => b.style === "cjs" && fromPackage(b.module, creates.package) && b.kind === "namespace",
  );
  const names = new Set([...bindings, ...(creates.exports.includes("default") ? required : [])].map((b) => b.local));
  return { names, commonJs: [...bindings, ...required].some((b) => b.style === "cjs") };
}

/** The expressions that create an app in a module (anywhere in it: a factory function's body too). */
export function creationsIn(file: SourceFile, creates: AppCreation): Node[] {
  const { names } = creatorsIn(file, creates);
  const kind = creates.construct ? "NewExpression" : "CallExpression";
  return descendants(
    file.root.program,
    (n) => n.type === kind && n.callee.type === "Identifier" && names.has(n.callee.name),
  );
}

export const describeCreation = (creates: AppCreation) => `${creates.construct ? "new " : ""}${creates.name}(...)`;

/** The statement that declares the app (`const app = new Hono();`, exported or not) when it sits in a list of statements. */
function declaringStatement(file: SourceFile, declarator: Node): Node | undefined {
  const declaration = parentOf(file.root.program, declarator);
  if (declaration?.type !== "VariableDeclaration") return undefined;
  const holder = parentOf(file.root.program, declaration);
  if (holder?.type === "ExportNamedDeclaration") return holder;
  return holder?.type === "Program" || holder?.type === "BlockStatement" ? declaration : undefined;
}

/**
 * Wires the app created at `at` (the creation's offset, as locateApp found
 * it), or the module's only app when `at` is not given.
 */
export function wireServerEntry(text: string, wiring: EntryWiring, fileName = "index.ts", at?: number): EntryEdit {
  if (text.includes(wiring.marker)) return { status: "unchanged" };
  const file = parse(text, fileName);
  const syntax = firstSyntaxError(file);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const { name } = wiring.creates;
  if (creatorsIn(file, wiring.creates).commonJs)
    return {
      status: "refused",
      reason: `it is a CommonJS module (require("${wiring.creates.package}")), and the modules create-auth writes are ES modules`,
    };
  const creations = creationsIn(file, wiring.creates);
  const chosen = at === undefined ? creations : creations.filter((c) => startOf(c) === at);
  if (chosen.length !== 1)
    return {
      status: "refused",
      reason: chosen.length
        ? `it creates ${chosen.length} ${name} apps; which one serves the pages is not certain`
        : `no ${describeCreation(wiring.creates)} was found in it`,
    };
  const creation = chosen[0]!;
  const newline = eol(text);
  const edits: TextEdit[] = [];
  const declarator = parentOf(file.root.program, creation);
  const statement =
    declarator?.type === "VariableDeclarator" && declarator.id.type === "Identifier"
      ? declaringStatement(file, declarator)
      : undefined;
  if (declarator?.type === "VariableDeclarator" && declarator.id.type === "Identifier" && statement) {
    const indent = indentAt(text, startOf(statement));
    const lines = wiring.mount
      .replaceAll("$app", declarator.id.name)
      .split("\n")
      .map((line) => (line ? indent + line : line))
      .join(newline);
    edits.push({ start: endOf(statement), end: endOf(statement), text: `${newline}${newline}${lines}` });
  } else if (declarator?.type === "MemberExpression" && declarator.object === creation) {
    const chain = wiring.chain ?? wiring.mount;
    edits.push({ start: endOf(creation), end: endOf(creation), text: chain.split("\n").join(newline) });
  } else {
    return { status: "refused", reason: `its ${name} app is neither assigned to a const nor built in a chain` };
  }
  const imports = file.statements.filter(ofType("ImportDeclaration"));
  const lastImport = imports.at(-1);
  const importAt = lastImport ? endOf(lastImport) : 0;
  const importText = wiring.imports.join(newline);
  if (importText)
    edits.push(
      lastImport
        ? { start: importAt, end: importAt, text: `${newline}${importText}` }
        : { start: 0, end: 0, text: `${importText}${newline}` },
    );
  if (wiring.firstImport) {
    const first = imports[0] ? startOf(imports[0]) : 0;
    edits.push({ start: first, end: first, text: `import "${wiring.firstImport}";${newline}` });
  }
  return { status: "edited", text: applyEdits(text, edits) };
}
