/**
 * Adding the provider's imports to a config (merged into an existing import
 * of the same module when there is one) and dropping bindings a replaced
 * provider leaves unused. CommonJS configs get `require`s instead.
 */

import type { ImportSpec } from "../generators/types.js";
import { type Binding, collectBindings, countReferences, localDeclarations, moduleKey, requireOf } from "./bindings.js";
import { appendToList, commaAfter, type ListShape, removeFromList, removeStatement } from "./list-edit.js";
import { Node, type SourceFile } from "./morph.js";
import { eol, type TextEdit } from "./parse.js";

export interface ImportStyle {
  cjs: boolean;
  quote: string;
  semicolon: boolean;
}

/** Quotes and semicolons as the file's own imports write them. */
export function importStyle(file: SourceFile, cjs: boolean): ImportStyle {
  const sample = collectBindings(file).at(-1)?.statement.getText() ?? file.getStatements()[0]?.getText() ?? "";
  const quote = /^[^"']*'/.test(sample) ? "'" : '"';
  const semicolon = sample === "" || sample.trimEnd().endsWith(";");
  return { cjs, quote, semicolon };
}

export function formatImport(spec: ImportSpec, style: ImportStyle): string {
  const from = `${style.quote}${spec.from}${style.quote}`;
  const end = style.semicolon ? ";" : "";
  const named = spec.named?.length ? `{ ${spec.named.join(", ")} }` : "";
  if (style.cjs) {
    // An ES default export is `.default` once required from CommonJS.
    const lines = spec.defaultImport ? [`const ${spec.defaultImport} = require(${from}).default${end}`] : [];
    if (named) lines.push(`const ${named} = require(${from})${end}`);
    return lines.join("\n");
  }
  const clause = [spec.defaultImport, named].filter(Boolean).join(", ");
  return clause ? `import ${clause} from ${from}${end}` : `import ${from}${end}`;
}

function satisfies(binding: Binding, spec: ImportSpec, name: string, isDefault: boolean): boolean {
  if (binding.typeOnly || moduleKey(binding.module) !== moduleKey(spec.from)) return false;
  if (isDefault) return binding.kind === "default" || (binding.style === "cjs" && binding.kind === "namespace");
  return binding.kind === "named" && binding.imported === name;
}

export type ImportPlan = { edits: TextEdit[] } | { conflict: string };

/** Edits that make every binding in `imports` available, or why one cannot be. */
export function planImports(file: SourceFile, imports: readonly ImportSpec[], style: ImportStyle): ImportPlan {
  const bindings = collectBindings(file);
  const locals = localDeclarations(file);
  const edits: TextEdit[] = [];
  const newLines: string[] = [];
  for (const spec of imports) {
    const wanted = [
      ...(spec.defaultImport ? [{ name: spec.defaultImport, isDefault: true }] : []),
      ...(spec.named ?? []).map((name) => ({ name, isDefault: false })),
    ];
    const missing: typeof wanted = [];
    for (const want of wanted) {
      const existing = bindings.find((b) => b.local === want.name);
      if (existing && satisfies(existing, spec, want.name, want.isDefault)) continue;
      const clash = existing?.declaration ?? locals.get(want.name);
      if (clash)
        return {
          conflict: `\`${want.name}\` is already declared at line ${clash.getStartLineNumber()} and is not the import the provider needs (${formatImport(spec, style).split("\n")[0]}).`,
        };
      missing.push(want);
    }
    const missingDefault = missing.find((m) => m.isDefault)?.name;
    const missingNamed = missing.filter((m) => !m.isDefault).map((m) => m.name);
    const merged = mergeInto(file, bindings, spec, missingDefault, missingNamed, style);
    edits.push(...merged.edits);
    if (merged.defaultImport || merged.named.length)
      newLines.push(formatImport({ from: spec.from, defaultImport: merged.defaultImport, named: merged.named }, style));
  }
  if (newLines.length) edits.push(insertNewImports(file, newLines, style));
  return { edits };
}

/** Merges what it can into an existing import of the module; returns the rest for a new statement. */
function mergeInto(
  file: SourceFile,
  bindings: Binding[],
  spec: ImportSpec,
  defaultImport: string | undefined,
  named: string[],
  style: ImportStyle,
) {
  const edits: TextEdit[] = [];
  const text = file.getFullText();
  const statements = [
    ...new Set(
      bindings
        .filter(
          (b) => b.style === (style.cjs ? "cjs" : "esm") && !b.typeOnly && moduleKey(b.module) === moduleKey(spec.from),
        )
        .map((b) => b.statement),
    ),
  ];
  for (const statement of statements) {
    if (Node.isImportDeclaration(statement)) {
      if (statement.getNamespaceImport()) continue;
      const clause = statement.getImportClause()!;
      const list = clause.getNamedBindings();
      const def = statement.getDefaultImport();
      if (named.length && Node.isNamedImports(list)) {
        edits.push(...appendToList(braceList(text, list, list.getElements()), named));
        named = [];
      } else if (named.length && def && !list) {
        edits.push({ start: def.getEnd(), end: def.getEnd(), text: `, { ${named.join(", ")} }` });
        named = [];
      }
      if (defaultImport && !def) {
        edits.push({ start: clause.getStart(), end: clause.getStart(), text: `${defaultImport}, ` });
        defaultImport = undefined;
      }
    } else if (named.length && Node.isVariableStatement(statement)) {
      const pattern = statement.getDeclarations()[0]?.getNameNode();
      if (Node.isObjectBindingPattern(pattern) && statement.getDeclarations().length === 1) {
        edits.push(...appendToList(braceList(text, pattern, pattern.getElements()), named));
        named = [];
      }
    }
  }
  return { edits, defaultImport, named };
}

function braceList(text: string, node: Node, elements: readonly Node[]): ListShape {
  const last = elements.at(-1);
  return {
    text,
    open: node.getStart(),
    close: node.getEnd() - 1,
    elements: elements.map((e) => ({ start: e.getStart(), end: e.getEnd() })),
    trailingComma: last ? commaAfter(text, last.getEnd()) !== undefined : false,
    padded: true,
  };
}

/** New import lines go after the last import (or require), else above the first statement. */
function insertNewImports(file: SourceFile, lines: string[], style: ImportStyle): TextEdit {
  const text = file.getFullText();
  const nl = eol(text);
  const block = lines.join("\n").replace(/\n/g, nl);
  const anchors = file
    .getStatements()
    .filter(
      (s) =>
        Node.isImportDeclaration(s) ||
        (style.cjs && Node.isVariableStatement(s) && s.getDeclarations().some((d) => requireOf(d.getInitializer()))),
    );
  const anchor = anchors.at(-1);
  if (anchor) {
    // After any comment trailing the anchor on its line, so that comment stays with it.
    let lineEnd = text.indexOf("\n", anchor.getEnd());
    if (lineEnd === -1) lineEnd = text.length;
    else if (text[lineEnd - 1] === "\r") lineEnd--;
    const at = /^\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(text.slice(anchor.getEnd(), lineEnd)) ? lineEnd : anchor.getEnd();
    return { start: at, end: at, text: nl + block };
  }
  const first = file.getStatements().find((s) => !isDirective(s));
  if (!first) return { start: text.length, end: text.length, text: nl + block + nl };
  // A JSDoc block documents the statement under it; other leading comments (@ts-check, licences) head the file.
  const jsDoc = first.getLeadingCommentRanges().find((c) => c.getText().startsWith("/**"));
  const at = jsDoc ? jsDoc.getPos() : first.getStart();
  return { start: at, end: at, text: block + nl + nl };
}

function isDirective(statement: Node): boolean {
  return Node.isExpressionStatement(statement) && Node.isStringLiteral(statement.getExpression());
}

/**
 * Removes the import (or require) of each name in `names` that nothing in the
 * file reads any more, e.g. the old provider's import after `--force` replaced
 * it. At most one edit per statement, so edits never overlap: the caller
 * re-parses and calls again until nothing is left to remove.
 */
export function removeUnused(file: SourceFile, names: ReadonlySet<string>): TextEdit[] {
  const text = file.getFullText();
  const bindings = collectBindings(file);
  const edits: TextEdit[] = [];
  for (const statement of new Set(bindings.map((b) => b.statement))) {
    const own = bindings.filter((b) => b.statement === statement);
    const drop = own.filter((b) => names.has(b.local) && countReferences(file, b.local) === 0);
    if (drop.length === 0) continue;
    const edit =
      drop.length === own.length
        ? removeStatement(text, statement.getStart(), statement.getEnd())
        : removePart(text, drop[0]!);
    if (edit) edits.push(edit);
  }
  return edits;
}

function removePart(text: string, binding: Binding): TextEdit | undefined {
  const statement = binding.statement;
  const decl = binding.declaration;
  if (Node.isImportDeclaration(statement)) {
    const list = statement.getImportClause()?.getNamedBindings();
    if (binding.kind === "default" && list) return { start: decl.getStart(), end: list.getStart(), text: "" };
    if (Node.isNamedImports(list)) {
      const elements = list.getElements();
      if (elements.length === 1) return { start: statement.getDefaultImport()!.getEnd(), end: list.getEnd(), text: "" };
      return removeFromList(
        braceList(text, list, elements),
        elements.findIndex((e) => e === decl),
      );
    }
  }
  const pattern = decl.getParent();
  if (Node.isObjectBindingPattern(pattern)) {
    const elements = pattern.getElements();
    return removeFromList(
      braceList(text, pattern, elements),
      elements.findIndex((e) => e === decl),
    );
  }
  // `const a = require("a"), b = require("b")`: rare enough to leave to the user.
  return undefined;
}
