/**
 * What the middleware may load, and the route's shape. v5's middleware
 * imports the whole auth config; code the edge runtime cannot run (a
 * database driver, an ORM, Node's own modules) needs the Node.js runtime
 * there. And a v4 route file is rewritten only when it does nothing but
 * hand the options to NextAuth().
 */

import { readAliases, resolveSpecifier } from "../../workspace/auth-setup/aliases.js";
import { appendToList, literalList, rangesOf } from "../list-edit.js";
import { descendants, ofType, propertyName, unwrap } from "../nodes.js";
import { parse } from "../parse.js";
import { ModuleReader } from "../project/modules.js";
import { applyChecked } from "./passes.js";

/** Packages the edge runtime runs: Auth.js and Next.js themselves, and a few pure ones. */
const edgeSafe =
  /^(?:next-auth|next|@auth\/core|react|react-dom|jose|zod|oauth4webapi|@panva\/hkdf|preact|preact-render-to-string)$/;

/** The packages the config reaches that the edge runtime cannot run (Node's modules, drivers, ORMs, adapters). */
export function nodeOnlyPackages(root: string, configFile: string): string[] {
  const aliases = readAliases(root);
  const reader = new (class extends ModuleReader {
    override resolve(from: string, specifier: string) {
      return resolveSpecifier(aliases, from, specifier) ?? super.resolve(from, specifier);
    }
  })(root, undefined);
  const { packages } = reader.reach(configFile);
  // The Email provider of next-auth sends with nodemailer.
  const email = reader.read(configFile)?.file.text.includes("next-auth/providers/email") ? ["nodemailer"] : [];
  return [...new Set([...packages.filter((p) => !edgeSafe.test(p)), ...email])].sort();
}

/** `export const config = { matcher }` given `runtime: "nodejs"`, or such an export added. */
export function addRuntime(text: string, fileName: string): string | undefined {
  const file = parse(text, fileName);
  for (const statement of file.statements) {
    if (statement.type !== "ExportNamedDeclaration" || statement.declaration?.type !== "VariableDeclaration") continue;
    const declarator = statement.declaration.declarations.find(
      (d) => d.id.type === "Identifier" && d.id.name === "config",
    );
    if (!declarator?.init) continue;
    const object = unwrap(declarator.init);
    if (object.type !== "ObjectExpression") return undefined;
    const runtime = object.properties.find((p) => propertyName(p) === "runtime");
    if (runtime) return text.includes('"nodejs"') || text.includes("'nodejs'") ? text : undefined;
    const edits = appendToList(literalList(text, object, rangesOf(object.properties), true), ['runtime: "nodejs"']);
    return applyChecked(file, edits, fileName);
  }
  const semicolon = /;\r?\n/.test(text) ? ";" : "";
  return `${text}${text.endsWith("\n") ? "" : "\n"}\nexport const config = { runtime: "nodejs" }${semicolon}\n`;
}

/**
 * v4's route as the docs write it, and nothing more: imports, `NextAuth(options)` as the default export
 * (Pages Router) or as a handler exported as GET and POST (App Router).
 */
export function isBoilerplateRoute(text: string, fileName: string): boolean {
  const file = parse(text, fileName);
  if (file.syntaxErrors.length) return false;
  for (const statement of file.statements) {
    if (statement.type === "ImportDeclaration") continue;
    if (statement.type === "ExportDefaultDeclaration") {
      const value = unwrap(statement.declaration as never);
      if (value.type === "CallExpression" && value.callee.type === "Identifier" && value.arguments.length === 1)
        continue;
      return false;
    }
    if (statement.type === "VariableDeclaration" && statement.declarations.length === 1) {
      const init = statement.declarations[0]!.init;
      if (init && unwrap(init).type === "CallExpression") continue;
      return false;
    }
    if (statement.type === "ExportNamedDeclaration" && !statement.declaration) {
      const names = statement.specifiers.map((s) =>
        s.exported.type === "Identifier" ? s.exported.name : s.exported.value,
      );
      if (names.every((n) => ["GET", "POST"].includes(n))) continue;
    }
    return false;
  }
  return descendants(file.root.program, ofType("CallExpression")).length >= 1;
}
