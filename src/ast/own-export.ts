/**
 * A handler the project exports itself (SvelteKit's `handle`, Astro's
 * `onRequest`, Next.js's middleware or proxy), found by its export and made
 * a local under another name, so that an export composing it with Auth.js's
 * can take its place. Pure text edits: the handler keeps every byte but its
 * `export` and its name.
 */
import type {
  ExportDefaultDeclaration,
  ExportNamedDeclaration,
  Identifier,
  ImportDeclaration,
  Node,
  Statement,
} from "@babel/types";
import { type Binding, collectBindings, localDeclarations, variablesOf } from "./bindings.js";
import { formatImport, type ImportStyle, importStyle } from "./imports.js";
import { descendants, endOf, ofType, startOf } from "./nodes.js";
import { eol, type SourceFile, type TextEdit } from "./parse.js";
import { countReferences } from "./references.js";

/** How a module exports `name` ("default" for its default export). */
export type OwnExport =
  | { kind: "none" }
  /** `export const name = <init>` (let, var; a type annotation or not). */
  | { kind: "variable"; statement: ExportNamedDeclaration; id: Identifier; init: Node | null | undefined }
  /** `export function name() {}`, `export async function name() {}`. */
  | { kind: "function"; statement: ExportNamedDeclaration; id: Identifier }
  /** `export default function name?() {}` or `export default <expression>`. */
  | { kind: "default"; statement: ExportDefaultDeclaration }
  /** `export { imported as name } from "from"`. */
  | { kind: "reexport"; statement: ExportNamedDeclaration; imported: string; from: string }
  | { kind: "unreadable"; reason: string };

const exportedName = (node: Node) =>
  node.type === "Identifier" ? node.name : node.type === "StringLiteral" ? node.value : "";

/** Where and how the module exports `name`. */
export function findExport(file: SourceFile, name: string): OwnExport {
  for (const statement of file.statements) {
    if (statement.type === "ExportDefaultDeclaration" && name === "default") return { kind: "default", statement };
    if (statement.type === "ExportAllDeclaration" && name !== "default")
      return { kind: "unreadable", reason: `it re-exports everything of ${statement.source.value}` };
    if (statement.type !== "ExportNamedDeclaration") continue;
    const { declaration } = statement;
    if (declaration?.type === "VariableDeclaration") {
      const declarator = declaration.declarations.find((d) => d.id.type === "Identifier" && d.id.name === name);
      if (!declarator) continue;
      if (declaration.declarations.length > 1)
        return { kind: "unreadable", reason: `it declares ${name} with other variables in one statement` };
      return { kind: "variable", statement, id: declarator.id as Identifier, init: declarator.init };
    }
    if (declaration?.type === "FunctionDeclaration" && declaration.id?.name === name)
      return { kind: "function", statement, id: declaration.id };
    const specifier = statement.specifiers.find((s) => exportedName(s.exported) === name);
    if (specifier?.type === "ExportSpecifier" && statement.source)
      return { kind: "reexport", statement, imported: exportedName(specifier.local), from: statement.source.value };
    if (specifier) return { kind: "unreadable", reason: `it exports ${name} from a list (export { ... })` };
  }
  return { kind: "none" };
}

/** Whether `name` is free at the module's top level (neither imported nor declared). */
export function isFree(file: SourceFile, name: string): boolean {
  return !localDeclarations(file).has(name) && !collectBindings(file).some((b) => b.local === name);
}

/**
 * Edits turning the export into a local declaration named `local`, or why
 * that cannot be done with certainty. A default export of a plain name
 * (`export default middleware`) needs no local: `replaced` is then the
 * statement to take the place of, and `local` that name.
 */
export function detachExport(
  file: SourceFile,
  found: OwnExport,
  local: string,
): { edits: TextEdit[]; local: string; after: Statement; replaced?: boolean } | { reason: string } {
  const { text } = file;
  if (found.kind === "none" || found.kind === "unreadable" || found.kind === "reexport")
    return {
      reason: found.kind === "reexport" ? `it re-exports its handler from ${found.from}` : "it has no such export",
    };
  if (!isFree(file, local)) return { reason: `it declares ${local} already` };
  const { statement } = found;
  if (found.kind === "variable" || found.kind === "function") {
    if (countReferences(file, found.id.name) > 0) return { reason: `${found.id.name} is used elsewhere in it` };
    const nameEnd = startOf(found.id) + found.id.name.length;
    return {
      local,
      after: statement,
      edits: [
        { start: startOf(statement), end: startOf(statement.declaration!), text: "" },
        { start: startOf(found.id), end: nameEnd, text: local },
      ],
    };
  }
  const declaration = found.statement.declaration;
  if (declaration.type === "Identifier")
    return { local: declaration.name, after: statement, edits: [], replaced: true };
  if (declaration.type === "FunctionDeclaration") {
    if (declaration.id) {
      if (countReferences(file, declaration.id.name) > 0)
        return { reason: `${declaration.id.name} is used elsewhere in it` };
      return {
        local,
        after: statement,
        edits: [
          { start: startOf(statement), end: startOf(declaration), text: "" },
          { start: startOf(declaration.id), end: endOf(declaration.id), text: local },
        ],
      };
    }
    const keyword = /^(?:async\s+)?function\b\s*\*?/.exec(text.slice(startOf(declaration)))![0].trimEnd();
    const at = startOf(declaration) + keyword.length;
    return {
      local,
      after: statement,
      edits: [
        { start: startOf(statement), end: startOf(declaration), text: "" },
        { start: at, end: at, text: ` ${local}` },
      ],
    };
  }
  if (declaration.type === "ClassDeclaration" || declaration.type === "TSDeclareFunction")
    return { reason: "its default export is not a function" };
  return {
    local,
    after: statement,
    edits: [{ start: startOf(statement), end: startOf(declaration), text: `const ${local} = ` }],
  };
}

/** An import the composition needs: `import { name as local } from "from"`. */
export interface NamedImport {
  name: string;
  from: string;
  /** The name it is bound to in the file; `name` when omitted. */
  local?: string;
}

export const localOf = (spec: NamedImport) => spec.local ?? spec.name;

/** The binding that already imports `spec` (by what it imports, whatever its local name), if any. */
export function importedAs(file: SourceFile, spec: NamedImport): Binding | undefined {
  return collectBindings(file).find(
    (b) => !b.typeOnly && b.kind === "named" && b.module === spec.from && b.imported === spec.name,
  );
}

const specifierText = (spec: NamedImport) =>
  localOf(spec) === spec.name ? spec.name : `${spec.name} as ${localOf(spec)}`;

/** The import line of `spec` in the file's style. */
export function importLine(spec: NamedImport, style: ImportStyle): string {
  return formatImport({ from: spec.from, named: [specifierText(spec)] }, style);
}

/**
 * Quotes and semicolons as the file writes them: its imports', else its
 * statements' that end in a semicolon when the file uses them (a function
 * declaration shows nothing) and its first string literal's quotes.
 */
export function fileStyle(file: SourceFile): ImportStyle {
  if (file.statements.some((s) => s.type === "ImportDeclaration")) return importStyle(file, false);
  const { text } = file;
  // Statements that end in a semicolon wherever the file writes them (a declaration in a for loop's head does not).
  const telling =
    descendants(file.root.program, ofType("ExpressionStatement", "ReturnStatement", "ThrowStatement"))[0] ??
    file.statements.find((s) => variablesOf(s) !== undefined);
  const semicolon = telling ? text.slice(startOf(telling), endOf(telling)).trimEnd().endsWith(";") : true;
  const string = file.tokens.find((t) => (typeof t.type === "string" ? t.type : t.type.label) === "string");
  const quote = string && text[string.start] === "'" ? "'" : '"';
  return { cjs: false, quote, semicolon };
}

/**
 * Import lines for the specs not imported yet, after the file's last import
 * (at the top when it has none), or why one cannot be added: its local
 * name is taken by something else.
 */
export function addImports(
  file: SourceFile,
  specs: readonly NamedImport[],
): { edits: TextEdit[] } | { reason: string } {
  const style = fileStyle(file);
  const imports = file.statements.filter(ofType("ImportDeclaration"));
  const lines: string[] = [];
  const merged = new Map<ImportDeclaration, string[]>();
  for (const spec of specs) {
    if (importedAs(file, spec)) continue;
    if (!isFree(file, localOf(spec))) return { reason: `it declares ${localOf(spec)} already` };
    // Into an import of the same module that names values already: `import { defineMiddleware, sequence }`.
    const same = imports.find(
      (i) => i.source.value === spec.from && i.importKind !== "type" && i.specifiers.at(-1)?.type === "ImportSpecifier",
    );
    if (same) merged.set(same, [...(merged.get(same) ?? []), specifierText(spec)]);
    else lines.push(importLine(spec, style));
  }
  const edits: TextEdit[] = [...merged].map(([statement, names]) => {
    const at = endOf(statement.specifiers.at(-1)!);
    return { start: at, end: at, text: names.map((n) => `, ${n}`).join("") };
  });
  if (!lines.length) return { edits };
  const { text } = file;
  const newline = eol(text);
  const last = imports.at(-1);
  if (last)
    return { edits: [...edits, { start: endOf(last), end: endOf(last), text: `${newline}${lines.join(newline)}` }] };
  const first = file.statements[0];
  if (!first) return { edits: [{ start: text.length, end: text.length, text: `${lines.join(newline)}${newline}` }] };
  // Above the first statement and the JSDoc block that documents it; comments heading the file (@ts-check) stay first.
  const declares =
    first.type !== "ExpressionStatement" && !(first.type === "ExportNamedDeclaration" && !first.declaration);
  const doc = file.comments.find(
    (c) =>
      declares &&
      c.type === "CommentBlock" &&
      c.value.startsWith("*") &&
      (c.end ?? 0) <= startOf(first) &&
      /^\s*$/.test(text.slice(c.end ?? 0, startOf(first))),
  );
  const at = doc?.start ?? startOf(first);
  return { edits: [{ start: at, end: at, text: `${lines.join(newline)}${newline}${newline}` }] };
}
