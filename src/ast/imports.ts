/**
 * Adding the provider's imports to a config (merged into an existing import
 * of the same module when there is one) and dropping bindings a replaced
 * provider leaves unused. CommonJS configs get `require`s instead.
 */

import type { ImportDeclaration, Node, ObjectPattern, Statement } from "@babel/types";
import type { ImportSpec } from "../render/parts.js";
import { type Binding, collectBindings, localDeclarations, moduleKey, requireOf, variablesOf } from "./bindings.js";
import { appendToList, commaAfter, type ListShape, removeFromList, removeStatement } from "./list-edit.js";
import { endOf, startOf, textOf } from "./nodes.js";
import { eol, lineAt, nextChar, type SourceFile, skipTrivia, type TextEdit } from "./parse.js";
import { countReferences } from "./references.js";

export interface ImportStyle {
  cjs: boolean;
  quote: string;
  semicolon: boolean;
}

/** Quotes and semicolons as the file's own imports write them. */
export function importStyle(file: SourceFile, cjs: boolean): ImportStyle {
  // Babel keeps a leading "use strict" apart from the statements; it shows the file's habits all the same.
  const statement = collectBindings(file).at(-1)?.statement ?? file.root.program.directives[0] ?? file.statements[0];
  return styleOf(statement ? textOf(file.text, statement) : "", cjs);
}

/** The same, read from the text alone, for a file that did not parse: its last import or require line. */
export function guessImportStyle(text: string): ImportStyle {
  const cjs = /\brequire\s*\(|module\.exports/.test(text) && !/^\s*import\s/m.test(text);
  const lines = text.match(cjs ? /^.*\brequire\s*\(\s*["'].*$/gm : /^\s*import\s.*["'].*$/gm);
  // A comment after the statement is not how it ends.
  return styleOf((lines?.at(-1) ?? "").replace(/\s*(?:\/\/.*|\/\*.*\*\/\s*)$/, ""), cjs);
}

function styleOf(sample: string, cjs: boolean): ImportStyle {
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

type ImportPlan = { edits: TextEdit[] } | { conflict: string };

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
          conflict: `\`${want.name}\` is already declared at line ${lineAt(file.text, startOf(clash))} and is not the import the provider needs (${formatImport(spec, style).split("\n")[0]}).`,
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
  const { text } = file;
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
    if (statement.type === "ImportDeclaration") {
      if (statement.specifiers.some((s) => s.type === "ImportNamespaceSpecifier")) continue;
      const def = statement.specifiers.find((s) => s.type === "ImportDefaultSpecifier");
      const braces = namedImportBraces(text, statement);
      if (named.length && braces) {
        edits.push(...appendToList(braceList(text, braces, namedSpecifiers(statement)), named));
        named = [];
      } else if (named.length && def) {
        edits.push({ start: endOf(def), end: endOf(def), text: `, { ${named.join(", ")} }` });
        named = [];
      }
      if (defaultImport && !def) {
        const clauseStart = braces?.open ?? startOf(statement.specifiers[0]!);
        edits.push({ start: clauseStart, end: clauseStart, text: `${defaultImport}, ` });
        defaultImport = undefined;
      }
    } else if (named.length) {
      const declarations = variablesOf(statement)?.declarations ?? [];
      const pattern = declarations[0]?.id;
      if (pattern?.type === "ObjectPattern" && declarations.length === 1) {
        edits.push(...appendToList(braceList(text, patternBraces(text, pattern), pattern.properties), named));
        named = [];
      }
    }
  }
  return { edits, defaultImport, named };
}

interface Braces {
  open: number;
  close: number;
}

function namedSpecifiers(statement: ImportDeclaration): Node[] {
  return statement.specifiers.filter((s) => s.type === "ImportSpecifier");
}

/** Where `{` and `}` of an import's named list are: Babel keeps the specifiers, not the braces. */
function namedImportBraces(text: string, statement: ImportDeclaration): Braces | undefined {
  const named = namedSpecifiers(statement);
  const def = statement.specifiers.find((s) => s.type === "ImportDefaultSpecifier");
  let open: number | undefined;
  if (named[0]) open = nextChar(text, def ? endOf(def) : startOf(statement) + "import".length, "{");
  else if (def) {
    // `import D, {} from "m"`: braces with nothing in them.
    const comma = skipTrivia(text, endOf(def));
    const brace = text[comma] === "," ? skipTrivia(text, comma + 1) : undefined;
    open = brace !== undefined && text[brace] === "{" ? brace : undefined;
  }
  if (open === undefined) return undefined;
  const close = nextChar(text, named.at(-1) ? endOf(named.at(-1)!) : open + 1, "}");
  return close === undefined ? undefined : { open, close };
}

/** `{` and `}` of a destructuring pattern (its range may run on over a type annotation). */
function patternBraces(text: string, pattern: ObjectPattern): Braces {
  const last = pattern.properties.at(-1);
  return { open: startOf(pattern), close: nextChar(text, last ? endOf(last) : startOf(pattern) + 1, "}")! };
}

function braceList(text: string, braces: Braces, elements: readonly Node[]): ListShape {
  const last = elements.at(-1);
  return {
    text,
    open: braces.open,
    close: braces.close,
    elements: elements.map((e) => ({ start: startOf(e), end: endOf(e) })),
    trailingComma: last ? commaAfter(text, endOf(last)) !== undefined : false,
    padded: true,
  };
}

/** New import lines go after the last import (or require), else above the first statement. */
export function insertNewImports(file: SourceFile, lines: string[], style: ImportStyle): TextEdit {
  const { text } = file;
  const nl = eol(text);
  const block = lines.join("\n").replace(/\n/g, nl);
  const anchors = file.statements.filter(
    (s) =>
      s.type === "ImportDeclaration" ||
      (style.cjs && variablesOf(s)?.declarations.some((d) => requireOf(d.init)) === true),
  );
  const anchor = anchors.at(-1);
  if (anchor) {
    // After any comment trailing the anchor on its line, so that comment stays with it.
    let lineEnd = text.indexOf("\n", endOf(anchor));
    if (lineEnd === -1) lineEnd = text.length;
    else if (text[lineEnd - 1] === "\r") lineEnd--;
    const at = /^\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(text.slice(endOf(anchor), lineEnd)) ? lineEnd : endOf(anchor);
    return { start: at, end: at, text: nl + block };
  }
  const firstIndex = file.statements.findIndex((s) => !isDirective(s));
  const first = file.statements[firstIndex];
  if (!first) return { start: text.length, end: text.length, text: nl + block + nl };
  // A JSDoc block documents the statement under it; other leading comments (@ts-check, licences) head the file.
  const previous = firstIndex > 0 ? file.statements[firstIndex - 1] : file.root.program.directives.at(-1);
  const after = previous ? endOf(previous) : 0;
  const jsDoc = file.comments.find(
    (c) => (c.start ?? 0) >= after && (c.end ?? 0) <= startOf(first) && text.startsWith("/**", c.start ?? 0),
  );
  const at = jsDoc?.start ?? startOf(first);
  return { start: at, end: at, text: block + nl + nl };
}

/** A string statement; Babel lists a file's opening `"use strict"` apart, as a directive, but not later ones. */
function isDirective(statement: Statement): boolean {
  return statement.type === "ExpressionStatement" && statement.expression.type === "StringLiteral";
}

/**
 * Removes the import (or require) of each name in `names` that nothing in the
 * file reads any more, e.g. the old provider's import after `--force` replaced
 * it. At most one edit per statement, so edits never overlap: the caller
 * re-parses and calls again until nothing is left to remove.
 */
export function removeUnused(file: SourceFile, names: ReadonlySet<string>): TextEdit[] {
  const { text } = file;
  const bindings = collectBindings(file);
  const edits: TextEdit[] = [];
  for (const statement of new Set(bindings.map((b) => b.statement))) {
    const own = bindings.filter((b) => b.statement === statement);
    const drop = own.filter((b) => names.has(b.local) && countReferences(file, b.local) === 0);
    if (drop.length === 0) continue;
    const edit =
      drop.length === own.length
        ? removeStatement(text, startOf(statement), endOf(statement))
        : removePart(text, drop[0]!);
    if (edit) edits.push(edit);
  }
  return edits;
}

function removePart(text: string, binding: Binding): TextEdit | undefined {
  const { statement, declaration } = binding;
  if (statement.type === "ImportDeclaration") {
    const braces = namedImportBraces(text, statement);
    const namespace = statement.specifiers.find((s) => s.type === "ImportNamespaceSpecifier");
    const rest = braces?.open ?? (namespace && startOf(namespace));
    if (binding.kind === "default" && rest !== undefined) return { start: startOf(declaration), end: rest, text: "" };
    if (braces) {
      const elements = namedSpecifiers(statement);
      const def = statement.specifiers.find((s) => s.type === "ImportDefaultSpecifier");
      if (elements.length === 1 && def) return { start: endOf(def), end: braces.close + 1, text: "" };
      return removeFromList(braceList(text, braces, elements), elements.indexOf(declaration));
    }
  }
  const pattern = variablesOf(statement)
    ?.declarations.map((d) => d.id)
    .find((id): id is ObjectPattern => id.type === "ObjectPattern" && (id.properties as Node[]).includes(declaration));
  if (pattern) {
    const properties: Node[] = pattern.properties;
    return removeFromList(braceList(text, patternBraces(text, pattern), properties), properties.indexOf(declaration));
  }
  // `const a = require("a"), b = require("b")`: rare enough to leave to the user.
  return undefined;
}
