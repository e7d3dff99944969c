/**
 * v4's ways of reading the session on the server, rewritten to v5's one
 * `auth()` (the calls https://authjs.dev/getting-started/migrating-to-v5
 * tabulates): `getServerSession(authOptions)` → `auth()`,
 * `getServerSession(ctx.req, ctx.res, authOptions)` → `auth(ctx)`,
 * `getServerSession(req, res, authOptions)` → `auth(req, res)`, and
 * `getSession(ctx)` / `getSession({ req })` on the server alike.
 * `getCsrfToken(ctx)` goes to a generated server helper (v5's takes no
 * request). `getToken()` returns the JWT, not the session, so it is left as a
 * manual step. A call of another shape is a manual step too, never a guess.
 */
import type { CallExpression, Node } from "@babel/types";
import type { ImportSpec } from "../../render/parts.js";
import { collectBindings } from "../bindings.js";
import { descendants, ofType, parentOf, propertyName, textOf, unwrap } from "../nodes.js";
import { lineAt, parse, type TextEdit } from "../parse.js";
import { addImports, applyChecked, dropUnusedImports, type EditOutcome } from "./passes.js";

export interface ServerCallsRequest {
  text: string;
  /** For the syntax, and for messages (relative to the project). */
  fileName: string;
  /** How this file imports the module that exports `auth` ("@/auth", "../auth"); "" in that module itself. */
  authModule: string;
  /** How it imports the generated compatibility module (for `getServerCsrfToken`). */
  compatModule: string;
  /** Files that, imported here, are the old config (their bindings go once unused). */
  isConfigModule: (specifier: string) => boolean;
}

const serverFunctions = /^(?:getServerSideProps|getInitialProps|getStaticProps)$/;

/** The function around `node`, and the name it is known by (declared, or the variable it is assigned to). */
function enclosingFunction(root: Node, node: Node): { fn: Node; name?: string } | undefined {
  for (let current = parentOf(root, node); current; current = parentOf(root, current)) {
    if (
      current.type === "FunctionDeclaration" ||
      current.type === "FunctionExpression" ||
      current.type === "ArrowFunctionExpression"
    ) {
      let name = "id" in current && current.id ? current.id.name : undefined;
      const holder = parentOf(root, current);
      if (!name && holder?.type === "VariableDeclarator" && holder.id.type === "Identifier") name = holder.id.name;
      return { fn: current, name };
    }
  }
  return undefined;
}

function paramNames(fn: Node): string[] {
  if (!("params" in fn)) return [];
  return fn.params.map((p) => (p.type === "Identifier" ? p.name : ""));
}

/** The two arguments are names the enclosing function destructures from its first parameter (`async ({ req, res }) =>`). */
function fromContextPattern(root: Node, call: CallExpression, args: string[]): boolean {
  const around = enclosingFunction(root, call);
  const first = around && "params" in around.fn ? around.fn.params[0] : undefined;
  if (first?.type !== "ObjectPattern") return false;
  const names = first.properties.flatMap((p) =>
    p.type === "ObjectProperty" && p.value.type === "Identifier" ? [p.value.name] : [],
  );
  return names.includes(args[0]!) && names.includes(args[1]!);
}

/** `X.req` → "X", for `{ req: ctx.req }` and `getServerSession(ctx.req, ctx.res, ...)`. */
function objectOfMember(text: string, node: Node | undefined, property: string): string | undefined {
  if (!node) return undefined;
  const value = unwrap(node);
  if (value.type !== "MemberExpression" || value.computed || value.property.type !== "Identifier") return undefined;
  return value.property.name === property ? textOf(text, value.object) : undefined;
}

export function rewriteServerCalls(request: ServerCallsRequest): EditOutcome & { changed: boolean } {
  const { text, fileName } = request;
  const file = parse(text, fileName);
  const bindings = collectBindings(file);
  const localOf = (module: RegExp, name: string) =>
    bindings.filter((b) => module.test(b.module) && b.kind === "named" && b.imported === name).map((b) => b.local);
  // v4.19's unstable_getServerSession is the same function under its earlier name.
  const getServerSession = [
    ...localOf(/^next-auth(?:\/next)?$/, "getServerSession"),
    ...localOf(/^next-auth(?:\/next)?$/, "unstable_getServerSession"),
  ];
  const getSession = localOf(/^next-auth\/react$/, "getSession");
  const getCsrfToken = localOf(/^next-auth\/react$/, "getCsrfToken");
  const getToken = localOf(/^next-auth\/jwt$/, "getToken");
  const manual: string[] = [];
  const edits: TextEdit[] = [];
  let usesAuth = false;
  let usesCsrf = false;
  let contextType = false;
  const typescript = /\.[cm]?tsx?$/.test(fileName);
  const where = (node: Node) => `${fileName}:${lineAt(text, node.start ?? 0)}`;
  const replace = (call: CallExpression, replacement: string) => {
    edits.push({ start: call.start!, end: call.end!, text: replacement });
    usesAuth ||= replacement.startsWith("auth(");
  };
  const root = file.root.program;

  for (const call of descendants(root, ofType("CallExpression"))) {
    if (call.callee.type !== "Identifier") continue;
    const name = call.callee.name;
    const args = call.arguments.map((a) => textOf(text, a));
    if (getServerSession.includes(name)) {
      if (args.length === 1) replace(call, "auth()");
      else if (args.length === 3) {
        const ctx = objectOfMember(text, call.arguments[0], "req");
        if (ctx !== undefined && ctx === objectOfMember(text, call.arguments[1], "res")) replace(call, `auth(${ctx})`);
        else if (fromContextPattern(root, call, args)) {
          // getServerSideProps({ req, res }): v5 takes the context, and these two are all of it auth() reads.
          const object =
            args[0] === "req" && args[1] === "res" ? "{ req, res }" : `{ req: ${args[0]}, res: ${args[1]} }`;
          replace(call, typescript ? `auth(${object} as GetServerSidePropsContext)` : `auth(${object})`);
          contextType ||= typescript;
        } else replace(call, `auth(${args[0]}, ${args[1]})`);
      } else
        manual.push(
          `${where(call)}: getServerSession() with ${args.length} arguments: read the session with auth() from your auth config.`,
        );
    } else if (getSession.includes(name) && args.length > 0) {
      const arg = unwrap(call.arguments[0]!);
      const around = enclosingFunction(root, call);
      if (arg.type === "Identifier" && around?.name && serverFunctions.test(around.name))
        replace(call, `auth(${args[0]})`);
      else if (
        arg.type === "ObjectExpression" &&
        arg.properties.length === 1 &&
        propertyName(arg.properties[0]!) === "req"
      ) {
        const property = arg.properties[0]!;
        const value = property.type === "ObjectProperty" ? property.value : undefined;
        const ctx = objectOfMember(text, value, "req");
        const params = around ? paramNames(around.fn) : [];
        if (ctx !== undefined) replace(call, `auth(${ctx})`);
        else if (value?.type === "Identifier" && params[0] === value.name && params[1])
          replace(call, `auth(${value.name}, ${params[1]})`);
        else
          manual.push(
            `${where(call)}: getSession({ req }) on the server: call auth(req, res) from your auth config with the response too.`,
          );
      } else
        manual.push(
          `${where(call)}: getSession(${args.join(", ")}) on the server: read the session with auth(...) instead.`,
        );
    } else if (getCsrfToken.includes(name) && args.length > 0) {
      edits.push({ start: call.callee.start!, end: call.callee.end!, text: "getServerCsrfToken" });
      usesCsrf = true;
    } else if (getToken.includes(name)) {
      manual.push(
        `${where(call)}: getToken() from next-auth/jwt needs the secret and the cookie name in v5; the session from auth(req, res) is usually what is wanted (its user, not the token).`,
      );
    }
  }
  if (edits.length === 0) return { text, manual, changed: false };
  let next = applyChecked(file, edits, fileName);
  if (next === undefined)
    return {
      text,
      manual: [...manual, `${fileName}: the session calls could not be rewritten safely.`],
      changed: false,
    };
  // The new imports first, beside the old ones, so that when the old ones go the new ones hold their place.
  const imports: ImportSpec[] = [];
  if (usesAuth && request.authModule) imports.push({ from: request.authModule, named: ["auth"] });
  if (usesCsrf) imports.push({ from: request.compatModule, named: ["getServerCsrfToken"] });
  if (contextType && !bindings.some((b) => b.local === "GetServerSidePropsContext"))
    imports.push({ from: "next", named: ["type GetServerSidePropsContext"] });
  const added = addImports(next, fileName, imports);
  if ("conflict" in added)
    return {
      text,
      manual: [...manual, `${fileName}: ${added.conflict} Rewrite its session calls by hand.`],
      changed: false,
    };
  const configNames = bindings.filter((b) => request.isConfigModule(b.module)).map((b) => b.local);
  next = dropUnusedImports(added.text, fileName, [...getServerSession, ...getSession, ...getCsrfToken, ...configNames]);
  return { text: next, manual, changed: next !== text };
}
