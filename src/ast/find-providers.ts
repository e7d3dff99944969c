/**
 * Locating the one `providers` array of an auth config. Real configs put the
 * config object in many places (export default, NextAuth(...), a typed
 * variable, a lazy-init arrow, module.exports), so the search looks at every
 * object literal with a `providers` key and only uses those places to break
 * a tie between several.
 */

import type { ArrayExpression, Node, ObjectExpression } from "@babel/types";
import { collectBindings } from "./bindings.js";
import { descendants, ofType, parentOf, propertyName, startOf, textOf, unwrap } from "./nodes.js";
import { lineAt, type SourceFile } from "./parse.js";

type ProvidersTarget = { array: ArrayExpression } | { refusal: string };

type Resolution = { array: ArrayExpression; property: Node } | { problem: string; property: Node };

const authCalls = /(?:^|\.)(?:NextAuth|SvelteKitAuth|SolidAuth|ExpressAuth|QwikAuth\$?|Auth)$/;
const configTypes = /Auth\w*(?:Config|Options)\b/;

export function findProvidersArray(file: SourceFile): ProvidersTarget {
  const properties = descendants(file.root.program, ofType("ObjectExpression")).flatMap((object) =>
    object.properties.filter((p) => propertyName(p) === "providers"),
  );
  if (properties.length === 0) {
    return { refusal: "No `providers` property was found in the file, so there is no list to add the provider to." };
  }
  let resolutions = distinct(properties.map((property) => resolve(file, property)));
  if (resolutions.length > 1) {
    const inConfigPosition = distinct(
      resolutions.filter((r) => isConfigPosition(file, parentOf(file.root, r.property) as ObjectExpression)),
    );
    if (inConfigPosition.length === 1) resolutions = inConfigPosition;
  }
  if (resolutions.length > 1) {
    const lines = resolutions.map((r) => lineAt(file.text, startOf(r.property))).join(", ");
    return {
      refusal: `Several objects have a \`providers\` property (lines ${lines}), so which one is the auth config is ambiguous.`,
    };
  }
  const only = resolutions[0]!;
  return "array" in only ? { array: only.array } : { refusal: only.problem };
}

/** Several properties may share one array (`const providers = [...]` used twice); count it once. */
function distinct(resolutions: Resolution[]): Resolution[] {
  const seen = new Set<number>();
  return resolutions.filter((r) => {
    const key = "array" in r ? startOf(r.array) : -1 - startOf(r.property);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function resolve(file: SourceFile, property: Node): Resolution {
  const line = lineAt(file.text, startOf(property));
  if (property.type !== "ObjectProperty")
    return {
      property,
      problem: `\`providers\` at line ${line} is a method or getter, not an array that can be appended to.`,
    };
  const found = resolveValue(unwrap(property.value), file, 0);
  return typeof found === "string"
    ? { property, problem: found.replace("{line}", String(line)) }
    : { property, array: found };
}

function resolveValue(value: Node, file: SourceFile, depth: number): ArrayExpression | string {
  if (value.type === "ArrayExpression") {
    // `[a, , b]`: where a new entry goes, and what the hole means, is the author's call.
    if (value.elements.includes(null))
      return "`providers` at line {line} has an empty slot (`[a, , b]`), so the provider cannot be appended safely.";
    return value;
  }
  const shown = oneLine(textOf(file.text, value));
  if (value.type === "CallExpression" || value.type === "NewExpression") {
    return `\`providers\` at line {line} is built by a function call (\`${shown}\`), which cannot be appended to safely.`;
  }
  if (value.type === "Identifier" && depth < 3) {
    const name = value.name;
    const imported = collectBindings(file).find((b) => b.local === name);
    if (imported)
      return `\`providers\` at line {line} comes from "${imported.module}" (line ${lineAt(file.text, startOf(imported.statement))}); add the provider in that file instead.`;
    const declarations = descendants(file.root.program, ofType("VariableDeclarator")).filter(
      (d) => d.id.type === "Identifier" && d.id.name === name,
    );
    const initializer = declarations[0]?.init;
    if (declarations.length === 1 && initializer) {
      const inner = resolveValue(unwrap(initializer), file, depth + 1);
      return typeof inner === "string"
        ? inner.replace("at line {line}", `(\`${name}\`, line ${lineAt(file.text, startOf(declarations[0]!))})`)
        : inner;
    }
    if (declarations.length > 1)
      return `\`providers\` at line {line} refers to \`${name}\`, which is declared ${declarations.length} times in the file.`;
    return `\`providers\` at line {line} refers to \`${name}\`, which is not an array declared in this file.`;
  }
  return `\`providers\` at line {line} is not an array literal (\`${shown}\`), so the provider cannot be appended safely.`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

const typedWrappers = ofType("TSAsExpression", "TSSatisfiesExpression");
const functions = ofType("ArrowFunctionExpression", "FunctionExpression");

/** Whether an object literal sits where Auth.js reads its config from. */
function isConfigPosition(file: SourceFile, object: Node): boolean {
  const text = (node: Node | null | undefined) => (node ? textOf(file.text, node) : "");
  let node = object;
  let parent = parentOf(file.root, node);
  while (typedWrappers(parent)) {
    if (configTypes.test(text(parent.typeAnnotation))) return true;
    node = parent;
    parent = parentOf(file.root, node);
  }
  if (!parent) return false;
  if (parent.type === "ExportDefaultDeclaration" || parent.type === "TSExportAssignment") return true;
  if (parent.type === "VariableDeclarator") {
    const id = parent.id;
    const typeAnnotation = "typeAnnotation" in id ? id.typeAnnotation : undefined;
    return (
      configTypes.test(text(typeAnnotation)) || (id.type === "Identifier" && /^auth(?:Config|Options)$/.test(id.name))
    );
  }
  if (
    parent.type === "AssignmentExpression" ||
    parent.type === "BinaryExpression" ||
    parent.type === "LogicalExpression"
  )
    return /^(?:module\.)?exports\b/.test(text(parent.left));
  if (parent.type === "CallExpression") return authCalls.test(text(parent.callee));
  // Lazy init: NextAuth(() => ({ ... })) or NextAuth(async (req) => { return { ... } }).
  let fn: Node | undefined = parent.type === "ArrowFunctionExpression" ? parent : undefined;
  if (parent.type === "ReturnStatement") {
    fn = parentOf(file.root, parent);
    while (fn && !functions(fn)) fn = parentOf(file.root, fn);
  }
  const call = fn && parentOf(file.root, fn);
  return call?.type === "CallExpression" && authCalls.test(text(call.callee));
}
