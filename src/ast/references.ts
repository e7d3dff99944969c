/**
 * Which identifiers read a name, as opposed to naming a property or member
 * or declaring a binding. Scopes are not tracked: a read of a local that
 * shadows an import counts as a read of the import, which errs towards
 * keeping the import.
 */
import type { Node } from "@babel/types";
import { forEachChild } from "./nodes.js";
import type { SourceFile } from "./parse.js";

/** What an identifier at a position does: reads a value, declares one, or is only a name (a key, a member, a label). */
type Role = "read" | "binding" | "name";

const withKeys = new Set([
  "ObjectProperty",
  "ObjectMethod",
  "ClassProperty",
  "ClassMethod",
  "ClassAccessorProperty",
  "ClassPrivateProperty",
  "ClassPrivateMethod",
  "TSDeclareMethod",
  "TSPropertySignature",
  "TSMethodSignature",
]);

/** Parent.key positions that declare what is under them. */
const declaring = new Set([
  "VariableDeclarator.id",
  "FunctionDeclaration.id",
  "FunctionExpression.id",
  "ClassDeclaration.id",
  "ClassExpression.id",
  "CatchClause.param",
  "ImportSpecifier.local",
  "ImportDefaultSpecifier.local",
  "ImportNamespaceSpecifier.local",
  "TSImportEqualsDeclaration.id",
  "TSEnumDeclaration.id",
  "TSInterfaceDeclaration.id",
  "TSTypeAliasDeclaration.id",
  "TSModuleDeclaration.id",
]);

/** Inside a declaring pattern, the positions that still declare (the rest, like a default value, read). */
const stillDeclaring = new Set([
  "ObjectPattern.properties",
  "ObjectProperty.value",
  "ArrayPattern.elements",
  "RestElement.argument",
  "AssignmentPattern.left",
  "TSParameterProperty.parameter",
]);

const namingOnly = new Set([
  "ImportSpecifier.imported",
  "ExportSpecifier.exported",
  "ExportNamespaceSpecifier.exported",
  "ExportDefaultSpecifier.exported",
  "TSQualifiedName.right",
  "TSEnumMember.id",
  "LabeledStatement.label",
  "BreakStatement.label",
  "ContinueStatement.label",
  "MetaProperty.meta",
  "MetaProperty.property",
  "PrivateName.id",
  "JSXAttribute.name",
  "JSXMemberExpression.property",
  "JSXNamespacedName.namespace",
  "JSXNamespacedName.name",
]);

function childRole(parent: Node, key: string, role: Role): Role {
  const computed = (parent as { computed?: boolean }).computed === true;
  if (key === "key" && withKeys.has(parent.type)) return computed ? "read" : "name";
  const position = `${parent.type}.${key}`;
  if (role === "binding") return stillDeclaring.has(position) ? "binding" : "read";
  if (declaring.has(position) || key === "params" || key === "parameters") return "binding";
  if (namingOnly.has(position)) return "name";
  if (
    key === "property" &&
    !computed &&
    (parent.type === "MemberExpression" || parent.type === "OptionalMemberExpression")
  )
    return "name";
  return "read";
}

/** The names under `root` in `wanted` role, once per occurrence, `root` included. */
function names(root: Node, wanted: Role): string[] {
  const found: string[] = [];
  const visit = (node: Node, role: Role) => {
    // A JSX tag (`<Credentials />`) reads its name as much as a call does.
    if ((node.type === "Identifier" || node.type === "JSXIdentifier") && role === wanted) found.push(node.name);
    forEachChild(node, (child, key) => visit(child, childRole(node, key, role)));
  };
  visit(root, "read");
  return found;
}

const reads = (root: Node) => names(root, "read");

const readsByFile = new WeakMap<SourceFile, string[]>();

/** Reads of `name` anywhere in the file. */
export function countReferences(file: SourceFile, name: string): number {
  let all = readsByFile.get(file);
  if (!all) {
    all = reads(file.root.program);
    readsByFile.set(file, all);
  }
  return all.filter((read) => read === name).length;
}

/** Identifiers an expression reads (what it needs in scope). */
export function referencedNames(node: Node): Set<string> {
  return new Set(reads(node));
}

/** Identifiers declared anywhere under `node`: its variables, functions, parameters and type parameters, at any depth. */
export function declaredNames(node: Node): Set<string> {
  const declared = new Set(names(node, "binding"));
  const visit = (n: Node) => {
    // Babel keeps a type parameter's name as a string, outside every role.
    if (n.type === "TSTypeParameter")
      declared.add(typeof n.name === "string" ? n.name : (n.name as { name: string }).name);
    forEachChild(n, visit);
  };
  visit(node);
  return declared;
}
