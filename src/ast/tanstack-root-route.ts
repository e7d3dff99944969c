/**
 * TanStack Router runs the root route's beforeLoad before every navigation,
 * in the browser too, where no request middleware sees it: --protect adds
 * `beforeLoad: protectPages` to the options of `createRootRoute({...})` (or
 * `createRootRouteWithContext<...>()({...})`) in src/routes/__root.tsx, and
 * its import. Every other byte kept; a second run changes nothing; a root
 * route that has a beforeLoad of its own, or that cannot be found with
 * certainty, is refused with the reason.
 */
import type { CallExpression, Node, ObjectExpression } from "@babel/types";
import { descendants, endOf, ofType, propertyName, startOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, indentAt, parse, startsLine, type TextEdit } from "./parse.js";

export type RootEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const calleeName = (call: CallExpression): string | undefined => {
  const callee = call.callee.type === "CallExpression" ? call.callee.callee : call.callee;
  return callee.type === "Identifier" ? callee.name : undefined;
};

/** The options object of the root route: `createRootRoute({...})` or `createRootRouteWithContext<T>()({...})`. */
function rootOptions(root: Node): ObjectExpression[] {
  return descendants(root, ofType("CallExpression")).flatMap((call) => {
    const name = calleeName(call);
    const creates =
      (name === "createRootRoute" && call.callee.type === "Identifier") ||
      (name === "createRootRouteWithContext" && call.callee.type === "CallExpression");
    const options = call.arguments[0];
    return creates && options?.type === "ObjectExpression" ? [options] : [];
  });
}

export function addRootBeforeLoad(text: string, importLine: string, hook: string, fileName = "__root.tsx"): RootEdit {
  if (text.includes(importLine)) return { status: "unchanged" };
  const source = parse(text, fileName);
  const syntax = firstSyntaxError(source);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const found = rootOptions(source.root);
  if (found.length !== 1) return { status: "refused", reason: "it does not call createRootRoute({ ... }) once" };
  const options = found[0]!;
  if (options.properties.some((p) => propertyName(p) === "beforeLoad"))
    return { status: "refused", reason: "its root route has a beforeLoad of its own" };
  const newline = eol(text);
  const first = options.properties[0];
  const property = `beforeLoad: ${hook},`;
  let edit: TextEdit;
  if (!first) edit = { start: startOf(options) + 1, end: endOf(options) - 1, text: ` ${property.slice(0, -1)} ` };
  else if (startsLine(text, startOf(first)))
    edit = {
      start: startOf(first),
      end: startOf(first),
      text: `${property}${newline}${indentAt(text, startOf(first))}`,
    };
  else edit = { start: startOf(first), end: startOf(first), text: `${property} ` };
  const imports = source.statements.filter(ofType("ImportDeclaration"));
  const at = imports.length ? endOf(imports.at(-1)!) : 0;
  const importEdit: TextEdit = imports.length
    ? { start: at, end: at, text: `${newline}${importLine}` }
    : { start: 0, end: 0, text: `${importLine}${newline}` };
  return { status: "edited", text: applyEdits(text, [importEdit, edit]) };
}
