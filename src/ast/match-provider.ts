/**
 * Which elements of a `providers` array already stand for a given provider id
 * (§2.1: ids are unique within the list). An element's id is read from what
 * the code says without running it: an `id` key, or the module its binding
 * is imported from (Auth.js names provider modules after their ids).
 */

import { collectBindings, idFromModule } from "./bindings.js";
import { type ArrayLiteralExpression, Node, type SourceFile, SyntaxKind, ts } from "./morph.js";
import { unwrap } from "./parse.js";

export interface ExistingProviders {
  /** An element whose code is the entry itself (ignoring whitespace, comments, quotes). */
  exact?: Node;
  /** Elements whose id is the edit's id, in source order (includes `exact` when it has that id). */
  sameId: Node[];
}

export function findExisting(array: ArrayLiteralExpression, id: string, entry: string): ExistingProviders {
  const file = array.getSourceFile();
  const wanted = tokens(entry);
  let exact: Node | undefined;
  const sameId: Node[] = [];
  for (const element of array.getElements()) {
    const isExact = tokens(element.getText()) === wanted;
    if (isExact) exact ??= element;
    if (isExact || elementId(element, file, 0) === id) sameId.push(element);
  }
  return { exact, sameId };
}

function elementId(element: Node, file: SourceFile, depth: number): string | undefined {
  const node = unwrap(element);
  if (Node.isObjectLiteralExpression(node)) return idProperty(node);
  if (Node.isCallExpression(node)) {
    const options = node.getArguments()[0];
    const explicit =
      options && Node.isObjectLiteralExpression(unwrap(options)) ? idProperty(unwrap(options)) : undefined;
    return explicit ?? bindingId(node.getExpression(), file, depth);
  }
  return bindingId(node, file, depth);
}

function idProperty(object: Node): string | undefined {
  if (!Node.isObjectLiteralExpression(object)) return undefined;
  const property = object.getProperty("id");
  const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
  return Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)
    ? value.getLiteralText()
    : undefined;
}

/** The id of what an identifier is bound to: an imported provider module, or a local provider value. */
function bindingId(node: Node, file: SourceFile, depth: number): string | undefined {
  if (!Node.isIdentifier(node) || depth > 2) return undefined;
  const name = node.getText();
  const imported = collectBindings(file).find((b) => b.local === name);
  if (imported) return idFromModule(imported.module);
  const declaration = file.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find((d) => d.getName() === name);
  const initializer = declaration?.getInitializer();
  return initializer ? elementId(initializer, file, depth + 1) : undefined;
}

/** The entry's tokens with trivia, string quote style and trailing commas normalised away. */
export function tokens(code: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.StringLiteral) out.push(JSON.stringify(scanner.getTokenValue()));
    else if (
      (kind === ts.SyntaxKind.CloseBraceToken ||
        kind === ts.SyntaxKind.CloseBracketToken ||
        kind === ts.SyntaxKind.CloseParenToken) &&
      out.at(-1) === ","
    )
      out[out.length - 1] = scanner.getTokenText();
    else out.push(scanner.getTokenText());
  }
  return out.join(" ");
}
