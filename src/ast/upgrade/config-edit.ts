/**
 * v4's `authOptions` made v5's `NextAuth(config)`: the module that holds the
 * options gets `export const { handlers, auth, signIn, signOut } =
 * NextAuth(authOptions)` (in place of v4's `export default NextAuth(...)`
 * when the options sat in the route), `NextAuthOptions` becomes
 * `NextAuthConfig`, and the options keep v4's session cookie by name (so
 * signed-in users stay signed in) and, for JWT sessions, a decoder that also
 * reads v4's tokens. Everything else in the module stays as written.
 */
import type { CallExpression, Node, ObjectExpression } from "@babel/types";
import { collectBindings, variablesOf } from "../bindings.js";
import { appendToList, literalList, rangesOf } from "../list-edit.js";
import { descendants, endOf, ofType, propertyName, startOf, stringValue, textOf, unwrap } from "../nodes.js";
import { eol, lineAt, parse, type SourceFile, type TextEdit } from "../parse.js";
import { addImports, applyChecked, type EditOutcome } from "./passes.js";

export interface ConfigEditRequest {
  text: string;
  fileName: string;
  /** The generated compatibility module, as this module imports it ("./auth-v4-compat"). */
  compatModule: string;
  /** Rewrite relative imports: the module moves (from the pages route to auth.ts). */
  moveImport?: (specifier: string) => string;
}

export type ConfigEditResult =
  | (EditOutcome & { status: "edited"; strategy: "jwt" | "database"; cookieKept: boolean; decoderAdded: boolean })
  | { status: "refused"; reason: string };

const v5Exports = ["handlers", "auth", "signIn", "signOut"];

/** The options object: what `NextAuth(...)` is given, else the one typed (or named) as the options. */
function findOptions(file: SourceFile): { object: ObjectExpression; name?: string; call?: CallExpression } | undefined {
  const program = file.root.program;
  const nextAuth = collectBindings(file).find(
    (b) => /^next-auth(?:\/next)?$/.test(b.module) && b.kind !== "named",
  )?.local;
  const declared = (name: string) => {
    const d = descendants(program, ofType("VariableDeclarator")).find(
      (v) => v.id.type === "Identifier" && v.id.name === name,
    );
    const value = d?.init && unwrap(d.init);
    return value?.type === "ObjectExpression" ? value : undefined;
  };
  for (const call of descendants(program, ofType("CallExpression"))) {
    if (call.callee.type !== "Identifier" || call.callee.name !== nextAuth) continue;
    const arg = call.arguments[0] && unwrap(call.arguments[0]);
    if (arg?.type === "ObjectExpression") return { object: arg, call };
    if (arg?.type === "Identifier") {
      const object = declared(arg.name);
      if (object) return { object, name: arg.name, call };
    }
  }
  for (const d of descendants(program, ofType("VariableDeclarator"))) {
    if (d.id.type !== "Identifier" || !d.init) continue;
    const type = "typeAnnotation" in d.id && d.id.typeAnnotation ? textOf(file.text, d.id.typeAnnotation) : "";
    const value = unwrap(d.init);
    if (value.type !== "ObjectExpression") continue;
    if (/\b(?:NextAuthOptions|AuthOptions)\b/.test(type) || /^auth(?:Options|Config)$/.test(d.id.name))
      return { object: value, name: d.id.name };
  }
  return undefined;
}

function property(object: ObjectExpression, name: string): Node | undefined {
  return object.properties.find((p) => propertyName(p) === name);
}

function objectValue(node: Node | undefined): ObjectExpression | undefined {
  if (node?.type !== "ObjectProperty") return undefined;
  const value = unwrap(node.value);
  return value.type === "ObjectExpression" ? value : undefined;
}

/** `session.strategy` as written, else what v4 chose: database with an adapter, JWT without. */
function strategyOf(object: ObjectExpression): "jwt" | "database" {
  const session = objectValue(property(object, "session"));
  const strategy = session && property(session, "strategy");
  const value = strategy?.type === "ObjectProperty" ? stringValue(unwrap(strategy.value)) : undefined;
  if (value === "jwt" || value === "database") return value;
  return property(object, "adapter") ? "database" : "jwt";
}

function appendProperties(text: string, object: ObjectExpression, items: string[]): TextEdit[] {
  return appendToList(literalList(text, object, rangesOf(object.properties), true), items);
}

/** `NextAuthOptions`/`AuthOptions` imported from next-auth, and the type references to them, renamed `NextAuthConfig`. */
function renameTypes(file: SourceFile): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const binding of collectBindings(file)) {
    if (binding.module !== "next-auth" || binding.kind !== "named") continue;
    if (binding.imported !== "NextAuthOptions" && binding.imported !== "AuthOptions") continue;
    const spec = binding.declaration;
    if (spec.type !== "ImportSpecifier") continue;
    edits.push({ start: startOf(spec.imported), end: endOf(spec.imported), text: "NextAuthConfig" });
    if (spec.local.name !== binding.imported) continue;
    // The local name is the type's own: every reference to it goes too (the specifier's local is the same node range).
    if (startOf(spec.local) !== startOf(spec.imported))
      edits.push({ start: startOf(spec.local), end: endOf(spec.local), text: "NextAuthConfig" });
    for (const ref of descendants(file.root.program, ofType("TSTypeReference"))) {
      if (ref.typeName.type === "Identifier" && ref.typeName.name === binding.local)
        edits.push({ start: startOf(ref.typeName), end: endOf(ref.typeName), text: "NextAuthConfig" });
    }
  }
  // JSDoc in JavaScript: {import("next-auth").NextAuthOptions}.
  for (const match of file.text.matchAll(/import\((["'])next-auth\1\)\.(?:NextAuthOptions|AuthOptions)\b/g)) {
    const at = match.index + match[0].lastIndexOf(".") + 1;
    edits.push({ start: at, end: match.index + match[0].length, text: "NextAuthConfig" });
  }
  return edits;
}

/** Relative imports re-pointed for the module's new place. */
function moveImports(file: SourceFile, move: (specifier: string) => string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const statement of file.statements) {
    const source =
      statement.type === "ImportDeclaration" ||
      ((statement.type === "ExportNamedDeclaration" || statement.type === "ExportAllDeclaration") && statement.source)
        ? statement.source
        : undefined;
    if (source?.value.startsWith(".")) {
      const quote = file.text[startOf(source)]!;
      edits.push({ start: startOf(source), end: endOf(source), text: `${quote}${move(source.value)}${quote}` });
    }
  }
  return edits;
}

export function editConfig(request: ConfigEditRequest): ConfigEditResult {
  const { fileName } = request;
  const file = parse(request.text, fileName);
  const { text } = file;
  const found = findOptions(file);
  if (!found)
    return { status: "refused", reason: `${fileName}: no authOptions object was found to hand to NextAuth().` };
  const { object, call } = found;
  const nextAuth = collectBindings(file).find(
    (b) => /^next-auth(?:\/next)?$/.test(b.module) && b.kind !== "named",
  )?.local;
  const advanced = descendants(file.root.program, ofType("CallExpression")).find(
    (c) => c.callee.type === "Identifier" && c.callee.name === nextAuth && c.arguments.length > 1,
  );
  if (advanced)
    return {
      status: "refused",
      reason: `${fileName}:${lineAt(text, startOf(advanced))}: NextAuth(req, res, options) (advanced initialization) cannot be rewritten safely.`,
    };
  const declared = new Set(
    file.statements.flatMap((s) =>
      (variablesOf(s)?.declarations ?? []).map((d) => (d.id.type === "Identifier" ? d.id.name : "")),
    ),
  );
  const clash = v5Exports.find((name) => declared.has(name) || collectBindings(file).some((b) => b.local === name));
  if (clash)
    return { status: "refused", reason: `${fileName} already declares \`${clash}\`, which v5's NextAuth() exports.` };

  const edits: TextEdit[] = [...renameTypes(file)];
  if (request.moveImport) edits.push(...moveImports(file, request.moveImport));
  const strategy = strategyOf(object);
  const items: string[] = [];
  const imports: string[] = [];
  const manual: string[] = [];
  // v4 named its session cookie next-auth.session-token; v5 reads authjs.session-token unless told otherwise.
  const cookies = property(object, "cookies");
  const cookieObject = objectValue(cookies);
  let cookieKept = false;
  if (!cookies) {
    items.push("cookies: { sessionToken: v4SessionCookie }");
    cookieKept = true;
  } else if (cookieObject && !property(cookieObject, "sessionToken")) {
    edits.push(...appendProperties(text, cookieObject, ["sessionToken: v4SessionCookie"]));
    cookieKept = true;
  }
  if (cookieKept) imports.push("v4SessionCookie");
  let decoderAdded = false;
  if (strategy === "jwt" && cookieKept) {
    const jwt = property(object, "jwt");
    const jwtObject = objectValue(jwt);
    const secret = jwtObject && property(jwtObject, "secret");
    if (!jwt) {
      items.push("jwt: { decode: decodeV4Session }");
      imports.push("decodeV4Session");
      decoderAdded = true;
    } else if (jwtObject && !property(jwtObject, "decode") && !property(jwtObject, "encode")) {
      if (secret?.type === "ObjectProperty") {
        // v4's jwt.secret: v5 still honours it but its types no longer have it, so the token's
        // encoding and decoding take it explicitly (the same secret, so v4's tokens still open).
        edits.push({
          start: startOf(secret),
          end: endOf(secret),
          text: `...jwtWithSecret(${textOf(text, secret.value)})`,
        });
        imports.push("jwtWithSecret");
      } else {
        edits.push(...appendProperties(text, jwtObject, ["decode: decodeV4Session"]));
        imports.push("decodeV4Session");
      }
      decoderAdded = true;
    } else
      manual.push(
        `${fileName}: jwt is kept as written; for people signed in under v4 to stay signed in, its decode must also read v4's tokens (decodeV4Session in auth-v4-compat does).`,
      );
  } else if (strategy === "database") {
    const jwtObject = objectValue(property(object, "jwt"));
    const secret = jwtObject && property(jwtObject, "secret");
    if (secret?.type === "ObjectProperty")
      manual.push(`${fileName}: jwt.secret is not in v5's types; with database sessions it is unused and can go.`);
  }
  if (items.length) edits.push(...appendProperties(text, object, items));

  // The entry point: v4's `export default NextAuth(options)` (the route) or nothing (a module of options).
  const nl = eol(text);
  // Semicolons as the file writes them.
  const semicolon = /;\r?\n/.test(text) ? ";" : "";
  const exportLine = (argument: string) =>
    `export const { ${v5Exports.join(", ")} } = NextAuth(${argument})${semicolon}`;
  let needsNextAuth = false;
  if (call) {
    const statement = file.statements.find(
      (s) => s.type === "ExportDefaultDeclaration" && startOf(s) <= startOf(call) && endOf(call) <= endOf(s),
    );
    if (!statement || unwrap((statement as { declaration: Node }).declaration) !== call)
      return {
        status: "refused",
        reason: `${fileName}: NextAuth() is called in a way create-auth cannot rewrite safely.`,
      };
    // Around the argument, not over it: options written inline in the call get their own edits above.
    const argument = call.arguments[0]!;
    const [head, tail] = exportLine("\0").split("\0") as [string, string];
    edits.push(
      { start: startOf(statement), end: startOf(argument), text: head },
      { start: endOf(argument), end: endOf(statement), text: tail },
    );
  } else {
    if (!found.name)
      return { status: "refused", reason: `${fileName}: the options object has no name to hand to NextAuth().` };
    const end = text.length;
    const tail = text.endsWith("\n") ? "" : nl;
    edits.push({ start: end, end, text: `${tail}${nl}${exportLine(found.name)}${nl}` });
    needsNextAuth = true;
  }
  const edited = applyChecked(file, edits, fileName);
  if (edited === undefined)
    return { status: "refused", reason: `${fileName}: the rewrite would not parse; nothing was changed.` };
  const specs = [
    ...(needsNextAuth ? [{ from: "next-auth", defaultImport: "NextAuth" }] : []),
    ...(imports.length ? [{ from: request.compatModule, named: imports }] : []),
  ];
  const added = addImports(edited, fileName, specs);
  if ("conflict" in added) return { status: "refused", reason: `${fileName}: ${added.conflict}` };
  return { status: "edited", text: added.text, manual, strategy, cookieKept, decoderAdded };
}
