/**
 * Pure text edits of a React Router app's own modules: registering the auth
 * resource route in app/routes.ts, and, for --protect, a loader in
 * app/root.tsx. Every other byte stays; a second run finds the route or the
 * loader and changes nothing; what cannot be edited with certainty is
 * refused with the reason, for the user to add by hand.
 */
import type { ArrayExpression, ImportDeclaration, Node } from "@babel/types";
import { endOf, ofType, startOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, parse, type TextEdit } from "./parse.js";

export type AppEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const unwrapped = (node: Node): Node =>
  node.type === "TSSatisfiesExpression" || node.type === "TSAsExpression" || node.type === "ParenthesizedExpression"
    ? unwrapped(node.expression)
    : node;

/**
 * Adds `route("<path>", "<file>")` to the array routes.ts exports by default,
 * importing `route` from @react-router/dev/routes where it is not yet.
 * Nothing to do when the file is already listed, or when the routes come
 * from the file system (flatRoutes), which finds the new file by its name.
 */
export function registerRoute(text: string, path: string, file: string, fileName = "routes.ts"): AppEdit {
  if (text.includes(JSON.stringify(file)) || text.includes(`'${file}'`)) return { status: "unchanged" };
  const source = parse(text, fileName);
  const syntax = firstSyntaxError(source);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  if (/\bflatRoutes\s*\(/.test(text)) return { status: "unchanged" };
  const exported = source.statements.find(ofType("ExportDefaultDeclaration"));
  const list = exported ? unwrapped(exported.declaration) : undefined;
  if (list?.type !== "ArrayExpression")
    return { status: "refused", reason: "its default export is not an array of routes" };
  const newline = eol(text);
  const edits: TextEdit[] = [];
  const routes = source.statements
    .filter(ofType("ImportDeclaration"))
    .find((i) => i.source.value === "@react-router/dev/routes");
  const local = routes?.specifiers.find(
    (s) => s.type === "ImportSpecifier" && s.imported.type === "Identifier" && s.imported.name === "route",
  )?.local.name;
  if (!local) edits.push(importEdit(text, source.statements, routes, "route", "@react-router/dev/routes"));
  const entry = `${local ?? "route"}(${JSON.stringify(path)}, ${JSON.stringify(file)})`;
  edits.push(appendElement(text, list, entry, newline));
  return { status: "edited", text: applyEdits(text, edits) };
}

/** `name` added to an import of `module` (or a new import line after the last one). */
function importEdit(
  text: string,
  statements: readonly Node[],
  existing: ImportDeclaration | undefined,
  name: string,
  module: string,
): TextEdit {
  const named = existing?.specifiers.filter((s) => s.type === "ImportSpecifier") ?? [];
  const last = named.at(-1);
  if (existing && existing.importKind !== "type" && last)
    return { start: endOf(last), end: endOf(last), text: `, ${name}` };
  const imports = statements.filter(ofType("ImportDeclaration"));
  const at = imports.length ? endOf(imports.at(-1)!) : 0;
  const line = `import { ${name} } from "${module}";`;
  return imports.length
    ? { start: at, end: at, text: `${eol(text)}${line}` }
    : { start: 0, end: 0, text: `${line}${eol(text)}` };
}

/** An element added after the array's last one, on its own line when the array spans lines. */
function appendElement(text: string, list: ArrayExpression, element: string, newline: string): TextEdit {
  const elements = list.elements.filter((e): e is NonNullable<typeof e> => e !== null);
  const last = elements.at(-1);
  if (!last) return { start: startOf(list) + 1, end: startOf(list) + 1, text: element };
  const between = text.slice(startOf(list), startOf(elements[0]!));
  const multiline = between.includes("\n");
  const indent = multiline ? (/\n([ \t]*)$/.exec(between)?.[1] ?? "  ") : "";
  // After the last element and its trailing comma, if it has one.
  const after = endOf(last);
  const comma = /^\s*,/.exec(text.slice(after))?.[0];
  const at = comma ? after + comma.length : after;
  const lead = comma ? "" : ",";
  return {
    start: at,
    end: at,
    text: multiline ? `${lead}${newline}${indent}${element}${comma ? "," : ""}` : `${lead} ${element}`,
  };
}

/**
 * Adds `export const loader = ...` (and its import) to app/root.tsx, which
 * runs on every page of the app; refused when the root has a loader of its
 * own, into which the user adds the call.
 */
export function addRootLoader(text: string, importLine: string, loader: string, fileName = "root.tsx"): AppEdit {
  if (text.includes(importLine)) return { status: "unchanged" };
  const source = parse(text, fileName);
  const syntax = firstSyntaxError(source);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const exportsLoader = source.statements.filter(ofType("ExportNamedDeclaration")).some((s) => {
    const d = s.declaration;
    if (d?.type === "FunctionDeclaration") return d.id?.name === "loader";
    if (d?.type === "VariableDeclaration")
      return d.declarations.some((v) => v.id.type === "Identifier" && v.id.name === "loader");
    return s.specifiers.some((x) => x.exported.type === "Identifier" && x.exported.name === "loader");
  });
  if (exportsLoader) return { status: "refused", reason: "it has a loader of its own" };
  const newline = eol(text);
  const imports = source.statements.filter(ofType("ImportDeclaration"));
  const at = imports.length ? endOf(imports.at(-1)!) : 0;
  const lines = loader.split("\n").join(newline);
  return {
    status: "edited",
    text: applyEdits(text, [{ start: at, end: at, text: `${newline}${importLine}${newline}${newline}${lines}` }]),
  };
}
