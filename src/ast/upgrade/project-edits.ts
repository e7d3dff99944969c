/**
 * The upgrade's edits outside the auth code: env files (v4's NEXTAUTH_
 * names to v5's AUTH_ ones, values kept), package.json (next-auth 5 pinned,
 * `@next-auth/*-adapter` swapped for `@auth/*-adapter`), next.config
 * (`transpilePackages` for the Pages Router), and module names in the code
 * (the adapters, `process.env.NEXTAUTH_*`). Text in, text out: every byte
 * not named here stays.
 */
import type { Node, ObjectExpression } from "@babel/types";
import { v5Releases } from "../../catalog/next-auth-5-releases.js";
import { appendToList, literalList, rangesOf } from "../list-edit.js";
import { descendants, endOf, ofType, propertyName, startOf, stringValue, textOf, unwrap } from "../nodes.js";
import { parse, type TextEdit } from "../parse.js";
import { applyChecked } from "./passes.js";

/** `@next-auth/prisma-adapter` → `@auth/prisma-adapter`; undefined when no @auth package of that name exists. */
export function v5Adapter(name: string): string | undefined {
  const match = /^@next-auth\/([a-z0-9-]+-adapter)$/.exec(name);
  const replacement = match && `@auth/${match[1]}`;
  return replacement && replacement in v5Releases ? replacement : undefined;
}

/** Env names v5 does not read under their v4 names. */
export const envRenames: Record<string, string> = { NEXTAUTH_SECRET: "AUTH_SECRET", NEXTAUTH_URL: "AUTH_URL" };

/**
 * An env file with v4's names renamed, values and every other byte kept.
 * A name whose v5 twin the file already assigns is left alone (the twin wins in v5) and reported.
 */
export function renameEnv(text: string): { text: string; renamed: string[]; kept: string[] } {
  const renamed: string[] = [];
  const kept: string[] = [];
  let next = text;
  for (const [from, to] of Object.entries(envRenames)) {
    const assigns = (name: string) => new RegExp(`^([ \\t]*(?:export[ \\t]+)?)${name}([ \\t]*=)`, "m");
    if (!assigns(from).test(next)) continue;
    if (assigns(to).test(next)) {
      kept.push(from);
      continue;
    }
    next = next.replace(new RegExp(assigns(from).source, "gm"), `$1${to}$2`);
    renamed.push(from);
  }
  return { text: next, renamed, kept };
}

export interface AdapterSwaps {
  /** Adapters swapped, old → new. */
  swapped: Record<string, string>;
  /** @next-auth packages with no @auth twin: a manual step. */
  unknown: string[];
}

/** The @next-auth packages package.json names: those with an @auth successor, and those without. */
export function adapterSwaps(text: string): AdapterSwaps {
  const swapped: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [, name] of text.matchAll(/"(@next-auth\/[a-z0-9-]+)"\s*:\s*"[^"]*"/g)) {
    const replacement = v5Adapter(name!);
    if (replacement) swapped[name!] = replacement;
    else if (!unknown.includes(name!)) unknown.push(name!);
  }
  return { swapped, unknown };
}

/**
 * package.json as text, edited in place (the order and every other byte
 * kept): next-auth and each swapped adapter at the version `versions` gives
 * (keyed by the new name), and the dependencies in `raised` at their new range.
 */
export function editPackageJson(
  text: string,
  versions: Record<string, string>,
  raised: Record<string, string> = {},
): string {
  const literal = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  let next = text.replace(
    /"(next-auth|@next-auth\/[a-z0-9-]+)"(\s*:\s*)"[^"]*"/g,
    (whole, name: string, colon: string) => {
      const to = name === "next-auth" ? name : v5Adapter(name);
      const version = to && versions[to];
      return version ? `"${to}"${colon}"${version}"` : whole;
    },
  );
  for (const [name, range] of Object.entries(raised))
    next = next.replace(new RegExp(`("${literal(name)}"\\s*:\\s*)"[^"]*"`, "g"), `$1"${range}"`);
  return next;
}

/** Module names and env names in code: the adapters' new packages, and `process.env.NEXTAUTH_SECRET`/`_URL`. */
export function renameInCode(text: string, fileName: string): string {
  const file = parse(text, fileName);
  if (file.syntaxErrors.length) return text;
  const edits: TextEdit[] = [];
  for (const literal of descendants(file.root.program, ofType("StringLiteral"))) {
    const replacement = v5Adapter(literal.value);
    if (!replacement) continue;
    const quote = text[startOf(literal)]!;
    edits.push({ start: startOf(literal), end: endOf(literal), text: `${quote}${replacement}${quote}` });
  }
  for (const member of descendants(file.root.program, ofType("MemberExpression"))) {
    const key = member.computed
      ? stringValue(member.property)
      : member.property.type === "Identifier"
        ? member.property.name
        : undefined;
    const to = key && envRenames[key];
    if (!to || textOf(text, member.object).replace(/\s+/g, "") !== "process.env") continue;
    const property = member.property as Node;
    const quote = member.computed ? text[startOf(property)]! : "";
    edits.push({ start: startOf(property), end: endOf(property), text: `${quote}${to}${quote}` });
  }
  if (edits.length === 0) return text;
  return applyChecked(file, edits, fileName) ?? text;
}

/** The object a next.config exports: `const nextConfig = {...}`, `module.exports = {...}` or `export default {...}`. */
function nextConfigObject(text: string, fileName: string): ObjectExpression | undefined {
  const file = parse(text, fileName);
  const program = file.root.program;
  const declared = (name: string) => {
    const d = descendants(program, ofType("VariableDeclarator")).find(
      (v) => v.id.type === "Identifier" && v.id.name === name,
    );
    return d?.init ? unwrap(d.init) : undefined;
  };
  for (const statement of file.statements) {
    let value: Node | undefined;
    if (statement.type === "ExportDefaultDeclaration") value = unwrap(statement.declaration as Node);
    else if (statement.type === "ExpressionStatement" && statement.expression.type === "AssignmentExpression") {
      if (textOf(text, statement.expression.left).replace(/\s+/g, "") === "module.exports")
        value = unwrap(statement.expression.right);
    } else continue;
    if (value?.type === "Identifier") value = declared(value.name);
    if (value?.type === "ObjectExpression") return value;
    return undefined;
  }
  return undefined;
}

/**
 * `transpilePackages: ["next-auth"]` in next.config: Pages Router server code
 * that imports next-auth 5 needs it on Next.js 14 and 15 (next-auth 5 imports
 * `next/server`, which Node cannot resolve from an untranspiled package).
 */
export function addTranspilePackage(text: string, fileName: string): string | undefined {
  const object = nextConfigObject(text, fileName);
  if (!object) return undefined;
  const existing = object.properties.find((p) => propertyName(p) === "transpilePackages");
  const file = parse(text, fileName);
  if (existing) {
    const list = existing.type === "ObjectProperty" ? unwrap(existing.value) : undefined;
    if (list?.type !== "ArrayExpression" || list.elements.includes(null)) return undefined;
    if (list.elements.some((e) => e && stringValue(e) === "next-auth")) return text;
    const edits = appendToList(literalList(text, list, rangesOf(list.elements as Node[]), false), ['"next-auth"']);
    return applyChecked(file, edits, fileName);
  }
  const edits = appendToList(literalList(text, object, rangesOf(object.properties), true), [
    'transpilePackages: ["next-auth"]',
  ]);
  return applyChecked(file, edits, fileName);
}

/** A next.config.mjs for a project that has none. */
export const newNextConfig = `/** @type {import("next").NextConfig} */
const nextConfig = {
  // Pages Router server code imports next-auth 5, which Next.js must compile.
  transpilePackages: ["next-auth"],
};

export default nextConfig;
`;
