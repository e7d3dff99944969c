/**
 * SolidStart's router renders FileRoutes() in src/app.tsx: --protect wraps
 * them as `{protectRoutes(FileRoutes())}`, so that a page reached by
 * client-side navigation is checked too, and imports protectRoutes. Every
 * other byte kept; a second run changes nothing; an app that does not render
 * `<FileRoutes />` once is refused with the reason.
 */
import { endOf, ofType } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, parse, type TextEdit } from "./parse.js";

export type AppRoutesEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

export function wrapFileRoutes(text: string, importLine: string, fileName = "app.tsx"): AppRoutesEdit {
  if (text.includes(importLine)) return { status: "unchanged" };
  const source = parse(text, fileName);
  const syntax = firstSyntaxError(source);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const found = [...text.matchAll(/<FileRoutes\s*\/>/g)];
  if (found.length !== 1 || /\bFileRoutes\s*\(/.test(text))
    return { status: "refused", reason: "it does not render <FileRoutes /> once" };
  const routes = found[0]!;
  const newline = eol(text);
  const imports = source.statements.filter(ofType("ImportDeclaration"));
  const at = imports.length ? endOf(imports.at(-1)!) : 0;
  const edits: TextEdit[] = [
    imports.length
      ? { start: at, end: at, text: `${newline}${importLine}` }
      : { start: 0, end: 0, text: `${importLine}${newline}` },
    { start: routes.index, end: routes.index + routes[0].length, text: "{protectRoutes(FileRoutes())}" },
  ];
  return { status: "edited", text: applyEdits(text, edits) };
}
