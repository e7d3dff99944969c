/**
 * next-auth v4's `withAuth` middleware made v5's `auth` middleware with the
 * same protection. Two facts of v5 decide the shape: `export { auth as
 * middleware }` without an `authorized` callback lets everyone through, and
 * `auth(fn)` runs `fn` whether or not the visitor is signed in. So the
 * middleware itself sends a visitor without a session to the sign-in page
 * (with the page as callbackUrl, as v4 did) before anything else runs.
 */
import type { Node, ObjectExpression } from "@babel/types";
import { collectBindings } from "../bindings.js";
import { removeStatement } from "../list-edit.js";
import { descendants, endOf, ofType, propertyName, startOf, stringValue, textOf, unwrap } from "../nodes.js";
import { eol, indentAt, indentUnit, lineAt, nextChar, parse, type TextEdit } from "../parse.js";
import { addImports, applyChecked, dropUnusedImports, type EditOutcome } from "./passes.js";

export interface MiddlewareEditRequest {
  text: string;
  fileName: string;
  /** How the middleware imports the module that exports `auth`. */
  authModule: string;
}

export type MiddlewareEditResult =
  | (EditOutcome & { status: "edited" | "unchanged" })
  | { status: "refused"; reason: string };

const fromMiddleware = /^next-auth\/middleware$/;

function guard(param: string, signInPage: string, indent: string, unit: string, nl: string): string {
  const lines = [
    `// Without a session, to the sign-in page and back, as withAuth did in next-auth v4.`,
    `if (!${param}.auth) {`,
    `${unit}const signIn = new URL(${JSON.stringify(signInPage)}, ${param}.nextUrl.origin);`,
    `${unit}signIn.searchParams.set("callbackUrl", \`\${${param}.nextUrl.pathname}\${${param}.nextUrl.search}\`);`,
    `${unit}return NextResponse.redirect(signIn);`,
    "}",
  ];
  return lines.map((line) => indent + line).join(nl);
}

/** withAuth's options: only `pages.signIn` carries over; anything else (callbacks, jwt, cookies, secret) cannot. */
function readOptions(text: string, node: Node | undefined): { signIn: string } | { problem: string } {
  if (!node) return { signIn: "/api/auth/signin" };
  const object = unwrap(node);
  if (object.type !== "ObjectExpression")
    return { problem: `withAuth's options (\`${textOf(text, object)}\`) are not an object literal` };
  let signIn = "/api/auth/signin";
  for (const p of object.properties) {
    const name = propertyName(p);
    if (name !== "pages" || p.type !== "ObjectProperty")
      return { problem: `withAuth's \`${name ?? textOf(text, p)}\` option has no v5 equivalent here` };
    const pages = unwrap(p.value) as ObjectExpression;
    if (pages.type !== "ObjectExpression") return { problem: "withAuth's pages option is not an object literal" };
    for (const page of pages.properties) {
      const value = page.type === "ObjectProperty" ? stringValue(unwrap(page.value)) : undefined;
      if (propertyName(page) === "signIn" && value) signIn = value;
    }
  }
  return { signIn };
}

export function editMiddleware(request: MiddlewareEditRequest): MiddlewareEditResult {
  const { fileName } = request;
  const file = parse(request.text, fileName);
  const { text } = file;
  const nl = eol(text);
  const unit = indentUnit(text);
  const bindings = collectBindings(file).filter((b) => fromMiddleware.test(b.module));
  const reExport = file.statements.find(
    (s) => s.type === "ExportNamedDeclaration" && s.source && fromMiddleware.test(s.source.value),
  );
  if (bindings.length === 0 && !reExport) return { status: "unchanged", text: request.text, manual: [] };
  const refuse = (reason: string): MiddlewareEditResult => ({
    status: "refused",
    reason: `${fileName}: ${reason}, so it cannot be rewritten safely; protect the same paths with auth() from your auth config.`,
  });
  if (/\bnextauth\s*\.\s*token\b/.test(text))
    return refuse("the middleware reads req.nextauth.token (v5 gives the session as req.auth, not the token)");
  const edits: TextEdit[] = [];
  const protectAll = (signIn: string) =>
    `export default auth((request) => {${nl}${guard("request", signIn, unit, unit, nl)}${nl}})`;
  const semicolon = /;\r?\n/.test(text) ? ";" : "";

  if (reExport?.type === "ExportNamedDeclaration") {
    // `export { default } from "next-auth/middleware"`: withAuth with its defaults.
    const names = reExport.specifiers.map((s) =>
      s.exported.type === "Identifier" ? s.exported.name : s.exported.value,
    );
    if (names.length !== 1 || names[0] !== "default")
      return refuse(`it re-exports ${names.join(", ")} from next-auth/middleware`);
    edits.push({ start: startOf(reExport), end: endOf(reExport), text: protectAll("/api/auth/signin") + semicolon });
  }
  const withAuth = bindings
    .filter((b) => !b.typeOnly && (b.kind !== "named" || b.imported === "withAuth"))
    .map((b) => b.local);
  for (const reference of descendants(file.root.program, ofType("Identifier"))) {
    if (!withAuth.includes(reference.name)) continue;
    const statement = file.statements.find((s) => startOf(s) <= startOf(reference) && endOf(reference) <= endOf(s));
    if (!statement || statement.type === "ImportDeclaration") continue;
    const call = descendants(statement, ofType("CallExpression")).find((c) => c.callee === reference);
    if (!call) {
      // `export default withAuth`: the function itself as the middleware.
      if (statement.type === "ExportDefaultDeclaration" && statement.declaration === reference) {
        edits.push({
          start: startOf(statement),
          end: endOf(statement),
          text: protectAll("/api/auth/signin") + semicolon,
        });
        continue;
      }
      return refuse(`withAuth is used at line ${lineAt(text, startOf(reference))} in a way that is not a call`);
    }
    const [first, second] = call.arguments;
    const fn = first && unwrap(first);
    const isFunction = fn?.type === "FunctionExpression" || fn?.type === "ArrowFunctionExpression";
    const options = readOptions(text, isFunction ? second : first);
    if ("problem" in options) return refuse(options.problem);
    if (!isFunction) {
      if (fn && fn.type !== "ObjectExpression")
        return refuse(`withAuth(${textOf(text, fn)}) wraps a function defined elsewhere`);
      if (statement.type !== "ExportDefaultDeclaration" || unwrap(statement.declaration as Node) !== call)
        return refuse("withAuth(options) is not the default export");
      edits.push({ start: startOf(statement), end: endOf(statement), text: protectAll(options.signIn) + semicolon });
      continue;
    }
    // withAuth(fn, options?): auth(fn) with the check first in fn's body.
    const param = fn.params[0];
    if (param && param.type !== "Identifier")
      return refuse("the middleware function's request parameter is destructured");
    const paramName = param?.name ?? "request";
    // A function that took no request gets one: the check reads the session from it.
    const open = nextChar(text, startOf(fn), "(");
    if (!param && open !== undefined) edits.push({ start: open + 1, end: open + 1, text: paramName });
    edits.push({ start: startOf(call.callee), end: endOf(call.callee), text: "auth" });
    if (second) edits.push({ start: endOf(first!), end: endOf(second), text: "" });
    if (param?.typeAnnotation)
      edits.push({ start: startOf(param.typeAnnotation), end: endOf(param.typeAnnotation), text: ": NextAuthRequest" });
    if (fn.body.type === "BlockStatement") {
      const firstStatement = fn.body.body[0];
      const indent = firstStatement ? indentAt(text, startOf(firstStatement)) : indentAt(text, startOf(fn.body)) + unit;
      edits.push({
        start: startOf(fn.body) + 1,
        end: startOf(fn.body) + 1,
        text: `${nl}${guard(paramName, options.signIn, indent, unit, nl)}`,
      });
    } else {
      const indent = indentAt(text, startOf(call)) + unit;
      edits.push({
        start: startOf(fn.body),
        end: endOf(fn.body),
        text: `{${nl}${guard(paramName, options.signIn, indent, unit, nl)}${nl}${indent}return ${textOf(text, fn.body)};${nl}${indentAt(text, startOf(call))}}`,
      });
    }
  }
  // The import of next-auth/middleware goes (whole, or the names no longer read).
  for (const statement of file.statements) {
    if (statement.type === "ImportDeclaration" && fromMiddleware.test(statement.source.value))
      edits.push(removeStatement(text, startOf(statement), endOf(statement)));
  }
  const edited = applyChecked(file, edits, fileName);
  if (edited === undefined) return refuse("the rewrite would not parse");
  const usesType = /\bNextAuthRequest\b/.test(edited);
  const added = addImports(dropUnusedImports(edited, fileName, []), fileName, [
    { from: "next/server", named: ["NextResponse"] },
    { from: request.authModule, named: ["auth"] },
    ...(usesType ? [{ from: "next-auth", named: ["type NextAuthRequest"] }] : []),
  ]);
  if ("conflict" in added) return refuse(added.conflict);
  return { status: "edited", text: added.text, manual: [] };
}
