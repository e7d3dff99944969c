/**
 * Reading Babel's AST. Children are found generically (any property that
 * holds a node or a list of nodes) rather than by a visitor-key table, so
 * the walk needs nothing from Babel beyond its parser; parents are worked
 * out once per tree, on first use.
 */
import type { Node } from "@babel/types";
import { skipTrivia } from "./parse.js";

/** Properties that hold no children, or none of interest: comments and, on the File node, tokens and errors. */
const notChildren = new Set([
  "loc",
  "extra",
  "range",
  "leadingComments",
  "trailingComments",
  "innerComments",
  "comments",
  "tokens",
  "errors",
]);

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

export function forEachChild(node: Node, visit: (child: Node, key: string) => void): void {
  for (const [key, value] of Object.entries(node)) {
    if (notChildren.has(key)) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, key);
    } else if (isNode(value)) visit(value, key);
  }
}

/** Every node under `root` (not `root` itself) that `matches`, in source order. */
export function descendants<T extends Node>(root: Node, matches: (node: Node) => node is T): T[];
export function descendants(root: Node, matches: (node: Node) => boolean): Node[];
export function descendants(root: Node, matches: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const walk = (node: Node) =>
    forEachChild(node, (child) => {
      if (matches(child)) found.push(child);
      walk(child);
    });
  walk(root);
  // Property order in a node is not always source order (type arguments come after a call's arguments).
  return found.sort((a, b) => startOf(a) - startOf(b));
}

export function ofType<K extends Node["type"]>(...types: K[]) {
  return (node: Node | null | undefined): node is Extract<Node, { type: K }> =>
    !!node && (types as string[]).includes(node.type);
}

const parentMaps = new WeakMap<Node, Map<Node, Node>>();

/** The node whose child `node` is, in the tree under `root`. */
export function parentOf(root: Node, node: Node): Node | undefined {
  let parents = parentMaps.get(root);
  if (!parents) {
    const map = new Map<Node, Node>();
    const walk = (parent: Node) =>
      forEachChild(parent, (child) => {
        map.set(child, parent);
        walk(child);
      });
    walk(root);
    parentMaps.set(root, map);
    parents = map;
  }
  return parents.get(node);
}

export function startOf(node: Node): number {
  return node.start ?? 0;
}

export function endOf(node: Node): number {
  return node.end ?? 0;
}

export function textOf(text: string, node: Node): string {
  return text.slice(startOf(node), endOf(node));
}

/**
 * Where a node starts and ends with the parentheses around it: Babel records
 * `(x)` as `x` with `extra.parenthesized`, and an edit that appends after
 * `x` must land after the `)`.
 */
export function rangeWithParens(text: string, node: Node): { start: number; end: number } {
  const parenStart = node.extra?.parenthesized ? (node.extra.parenStart as number | undefined) : undefined;
  if (parenStart === undefined) return { start: startOf(node), end: endOf(node) };
  // Only `(`s and comments lie between the outermost `(` and the node; as many `)`s close them after it.
  let open = 0;
  for (let i = skipTrivia(text, parenStart); i < startOf(node); i = skipTrivia(text, i + 1))
    if (text[i] === "(") open++;
  let end = endOf(node);
  for (let i = 0; i < open; i++) end = skipTrivia(text, end) + 1;
  return { start: parenStart, end };
}

const typeWrappers = ofType("TSAsExpression", "TSSatisfiesExpression", "TSNonNullExpression", "TSTypeAssertion");

/** Looks through `x as T`, `x satisfies T`, `<T>x` and `x!` to the value underneath (parentheses are no nodes). */
export function unwrap(node: Node): Node {
  let current = node;
  while (typeWrappers(current)) current = current.expression;
  return current;
}

/** Property name as written, for identifiers and string literal keys; undefined for computed ones and setters. */
export function propertyName(node: Node): string | undefined {
  if (node.type !== "ObjectProperty" && (node.type !== "ObjectMethod" || node.kind === "set")) return undefined;
  if (node.computed) return undefined;
  if (node.key.type === "Identifier") return node.key.name;
  if (node.key.type === "StringLiteral") return node.key.value;
  return undefined;
}

/** The value of a string literal, or of a template literal with no substitutions. */
export function stringValue(node: Node | null | undefined): string | undefined {
  if (node?.type === "StringLiteral") return node.value;
  if (node?.type === "TemplateLiteral" && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}
