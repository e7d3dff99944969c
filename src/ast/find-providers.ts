/**
 * Locating the one `providers` array of an auth config. Real configs put the
 * config object in many places (export default, NextAuth(...), a typed
 * variable, a lazy-init arrow, module.exports), so the search looks at every
 * object literal with a `providers` key and only uses those places to break
 * a tie between several.
 */

import { collectBindings } from "./bindings.js";
import { type ArrayLiteralExpression, Node, type SourceFile, SyntaxKind } from "./morph.js";
import { propertyName, unwrap } from "./parse.js";

export type ProvidersTarget = { array: ArrayLiteralExpression } | { refusal: string };

type Resolution = { array: ArrayLiteralExpression; property: Node } | { problem: string; property: Node };

const authCalls = /(?:^|\.)(?:NextAuth|SvelteKitAuth|SolidAuth|ExpressAuth|QwikAuth\$?|Auth)$/;
const configTypes = /Auth\w*(?:Config|Options)\b/;

export function findProvidersArray(file: SourceFile): ProvidersTarget {
  const properties = file
    .getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression)
    .flatMap((object) => object.getProperties().filter((p) => propertyName(p) === "providers"));
  if (properties.length === 0) {
    return { refusal: "No `providers` property was found in the file, so there is no list to add the provider to." };
  }
  let resolutions = distinct(properties.map(resolve));
  if (resolutions.length > 1) {
    const inConfigPosition = distinct(resolutions.filter((r) => isConfigPosition(r.property.getParentOrThrow())));
    if (inConfigPosition.length === 1) resolutions = inConfigPosition;
  }
  if (resolutions.length > 1) {
    const lines = resolutions.map((r) => r.property.getStartLineNumber()).join(", ");
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
    const key = "array" in r ? r.array.getStart() : -1 - r.property.getStart();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function resolve(property: Node): Resolution {
  const line = property.getStartLineNumber();
  let value: Node | undefined;
  if (Node.isPropertyAssignment(property)) value = property.getInitializer();
  else if (Node.isShorthandPropertyAssignment(property)) value = property.getNameNode();
  if (!value)
    return {
      property,
      problem: `\`providers\` at line ${line} is a method or getter, not an array that can be appended to.`,
    };
  const found = resolveValue(unwrap(value), property.getSourceFile(), 0);
  return typeof found === "string"
    ? { property, problem: found.replace("{line}", String(line)) }
    : { property, array: found };
}

function resolveValue(value: Node, file: SourceFile, depth: number): ArrayLiteralExpression | string {
  if (Node.isArrayLiteralExpression(value)) return value;
  const shown = oneLine(value.getText());
  if (Node.isCallExpression(value) || Node.isNewExpression(value)) {
    return `\`providers\` at line {line} is built by a function call (\`${shown}\`), which cannot be appended to safely.`;
  }
  if (Node.isIdentifier(value) && depth < 3) {
    const name = value.getText();
    const imported = collectBindings(file).find((b) => b.local === name);
    if (imported)
      return `\`providers\` at line {line} comes from "${imported.module}" (line ${imported.statement.getStartLineNumber()}); add the provider in that file instead.`;
    const declarations = file.getDescendantsOfKind(SyntaxKind.VariableDeclaration).filter((d) => d.getName() === name);
    const initializer = declarations[0]?.getInitializer();
    if (declarations.length === 1 && initializer) {
      const inner = resolveValue(unwrap(initializer), file, depth + 1);
      return typeof inner === "string"
        ? inner.replace("at line {line}", `(\`${name}\`, line ${declarations[0]!.getStartLineNumber()})`)
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

/** Whether an object literal sits where Auth.js reads its config from. */
function isConfigPosition(object: Node): boolean {
  let node = object;
  let parent = node.getParent();
  while (
    parent &&
    (Node.isAsExpression(parent) || Node.isSatisfiesExpression(parent) || Node.isParenthesizedExpression(parent))
  ) {
    if (!Node.isParenthesizedExpression(parent) && configTypes.test(parent.getTypeNode()?.getText() ?? "")) return true;
    node = parent;
    parent = node.getParent();
  }
  if (!parent) return false;
  if (Node.isExportAssignment(parent)) return true;
  if (Node.isVariableDeclaration(parent))
    return configTypes.test(parent.getTypeNode()?.getText() ?? "") || /^auth(?:Config|Options)$/.test(parent.getName());
  if (Node.isBinaryExpression(parent)) return /^(?:module\.)?exports\b/.test(parent.getLeft().getText());
  if (Node.isCallExpression(parent)) return authCalls.test(parent.getExpression().getText());
  // Lazy init: NextAuth(() => ({ ... })) or NextAuth(async (req) => { return { ... } }).
  const fn = Node.isArrowFunction(parent)
    ? parent
    : Node.isReturnStatement(parent)
      ? parent.getFirstAncestor((a) => Node.isArrowFunction(a) || Node.isFunctionExpression(a))
      : undefined;
  const call = fn?.getParent();
  return Node.isCallExpression(call) && authCalls.test(call.getExpression().getText());
}
