/**
 * Which elements of a `providers` array already stand for a given provider id
 * (§2.1: ids are unique within the list). An element's id is read from what
 * the code says without running it: an `id` key, or the module its binding
 * is imported from (Auth.js names provider modules after their ids).
 */

import type { ArrayExpression, Node } from "@babel/types";
import { collectBindings, idFromModule } from "./bindings.js";
import { descendants, ofType, propertyName, rangeWithParens, stringValue, unwrap } from "./nodes.js";
import { parseExpression, type SourceFile, type Token } from "./parse.js";

interface ExistingProviders {
  /** An element whose code is the entry itself (ignoring whitespace, comments, quotes). */
  exact?: Node;
  /** Elements whose id is the edit's id, in source order (includes `exact` when it has that id). */
  sameId: Node[];
}

export function findExisting(file: SourceFile, array: ArrayExpression, id: string, entry: string): ExistingProviders {
  const wanted = normalise(parseExpression(entry)?.tokens ?? [], entry);
  let exact: Node | undefined;
  const sameId: Node[] = [];
  for (const element of array.elements) {
    if (!element) continue;
    const { start, end } = rangeWithParens(file.text, element);
    const isExact = normalise(tokensIn(file, start, end), file.text) === wanted;
    if (isExact) exact ??= element;
    if (isExact || elementId(element, file, 0) === id) sameId.push(element);
  }
  return { exact, sameId };
}

function elementId(element: Node, file: SourceFile, depth: number): string | undefined {
  const node = unwrap(element);
  if (node.type === "ObjectExpression") return idProperty(node);
  if (node.type === "CallExpression") {
    const options = node.arguments[0];
    const explicit = options ? idProperty(unwrap(options)) : undefined;
    return explicit ?? bindingId(node.callee, file, depth);
  }
  return bindingId(node, file, depth);
}

function idProperty(object: Node): string | undefined {
  if (object.type !== "ObjectExpression") return undefined;
  const property = object.properties.find((p) => propertyName(p) === "id");
  return property?.type === "ObjectProperty" ? stringValue(property.value) : undefined;
}

/** The id of what an identifier is bound to: an imported provider module, or a local provider value. */
function bindingId(node: Node, file: SourceFile, depth: number): string | undefined {
  if (node.type !== "Identifier" || depth > 2) return undefined;
  const name = node.name;
  const imported = collectBindings(file).find((b) => b.local === name);
  if (imported) return idFromModule(imported.module);
  const declaration = descendants(file.root.program, ofType("VariableDeclarator")).find(
    (d) => d.id.type === "Identifier" && d.id.name === name,
  );
  return declaration?.init ? elementId(declaration.init, file, depth + 1) : undefined;
}

/** The file's tokens from `start` to `end`: an element's, parentheses included. */
function tokensIn(file: SourceFile, start: number, end: number): Token[] {
  return file.tokens.filter((token) => token.start >= start && token.end <= end);
}

/** Tokens with trivia, string quote style and trailing commas normalised away. */
function normalise(tokens: readonly Token[], text: string): string {
  const out: string[] = [];
  for (const token of tokens) {
    const label = typeof token.type === "string" ? token.type : token.type.label;
    if (label === "CommentLine" || label === "CommentBlock" || label === "eof") continue;
    const source = text.slice(token.start, token.end);
    if (label === "string") out.push(JSON.stringify(token.value));
    else if ((source === "}" || source === "]" || source === ")") && out.at(-1) === ",") out[out.length - 1] = source;
    else out.push(source);
  }
  return out.join(" ");
}
