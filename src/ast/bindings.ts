/**
 * What the module scope of a config file binds: ESM imports and CommonJS
 * `require`s, read syntactically. Binding resolution goes by name, not by
 * scope analysis: configs rarely shadow their own imports, and where one
 * does the answer errs towards keeping an import.
 */
import type { Identifier, Node, Statement, VariableDeclaration } from "@babel/types";
import { descendants, stringValue } from "./nodes.js";
import { hasModuleSyntax, type SourceFile } from "./parse.js";

export interface Binding {
  local: string;
  /** Module specifier as written. */
  module: string;
  /** `namespace` is also a plain `const X = require("m")`. */
  kind: "default" | "named" | "namespace";
  /** The exported name, for named bindings. */
  imported?: string;
  typeOnly: boolean;
  style: "esm" | "cjs";
  /** The import specifier, or the identifier or destructuring property, that declares `local`. */
  declaration: Node;
  /** The top-level statement it is in (an `export const` included). */
  statement: Statement;
}

/** The specifier of `require("m")`, `require("m").default` or `require("m").x`, with what it selects. */
export function requireOf(node: Node | null | undefined): { module: string; member?: string } | undefined {
  if (!node) return undefined;
  if (node.type === "MemberExpression" && !node.computed && node.property.type === "Identifier") {
    const inner = requireOf(node.object);
    return inner && !inner.member ? { module: inner.module, member: node.property.name } : undefined;
  }
  if (node.type !== "CallExpression" || node.callee.type !== "Identifier" || node.callee.name !== "require")
    return undefined;
  const [arg, ...rest] = node.arguments;
  const module = rest.length === 0 ? stringValue(arg) : undefined;
  return module === undefined ? undefined : { module };
}

/** The `const`/`let`/`var` declaration a top-level statement makes, exported or not. */
export function variablesOf(statement: Statement): VariableDeclaration | undefined {
  if (statement.type === "VariableDeclaration") return statement;
  if (statement.type === "ExportNamedDeclaration" && statement.declaration?.type === "VariableDeclaration")
    return statement.declaration;
  return undefined;
}

function importedName(node: Node): string {
  return node.type === "Identifier" ? node.name : (stringValue(node) ?? "");
}

export function collectBindings(file: SourceFile): Binding[] {
  const out: Binding[] = [];
  for (const statement of file.statements) {
    if (statement.type === "ImportDeclaration") {
      const base = { module: statement.source.value, style: "esm" as const, statement };
      const typeOnly = statement.importKind === "type" || statement.importKind === "typeof";
      for (const spec of statement.specifiers) {
        const local = spec.local.name;
        if (spec.type === "ImportDefaultSpecifier")
          out.push({ ...base, local, kind: "default", typeOnly, declaration: spec });
        else if (spec.type === "ImportNamespaceSpecifier")
          out.push({ ...base, local, kind: "namespace", typeOnly, declaration: spec });
        else {
          const specTypeOnly = spec.importKind === "type" || spec.importKind === "typeof";
          const imported = importedName(spec.imported);
          out.push({ ...base, local, kind: "named", imported, typeOnly: typeOnly || specTypeOnly, declaration: spec });
        }
      }
      continue;
    }
    for (const decl of variablesOf(statement)?.declarations ?? []) {
      const req = requireOf(decl.init);
      if (!req) continue;
      const base = { module: req.module, style: "cjs" as const, statement, typeOnly: false };
      if (decl.id.type === "Identifier") {
        const kind = req.member === "default" ? "default" : req.member ? "named" : "namespace";
        out.push({ ...base, local: decl.id.name, kind, imported: req.member, declaration: decl.id });
      } else if (decl.id.type === "ObjectPattern" && !req.member) {
        for (const property of decl.id.properties) {
          if (property.type !== "ObjectProperty" || property.value.type !== "Identifier" || property.computed) continue;
          const imported = importedName(property.key);
          out.push({ ...base, local: property.value.name, kind: "named", imported, declaration: property });
        }
      }
    }
  }
  return out;
}

/** Module-scope names that are not imports: `const`, `function`, `class` and friends. */
export function localDeclarations(file: SourceFile): Map<string, Node> {
  const names = new Map<string, Node>();
  for (const statement of file.statements) {
    const declaration =
      statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration"
        ? statement.declaration
        : statement;
    if (!declaration) continue;
    if (declaration.type === "VariableDeclaration") {
      for (const decl of declaration.declarations) {
        if (requireOf(decl.init)) continue;
        for (const id of bindingIdentifiers(decl.id)) names.set(id.name, id);
      }
    } else if (
      (declaration.type === "FunctionDeclaration" ||
        declaration.type === "ClassDeclaration" ||
        declaration.type === "TSEnumDeclaration") &&
      declaration.id
    ) {
      names.set(declaration.id.name, declaration.id);
    }
  }
  return names;
}

const relativeExt = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Compares specifiers the way a bundler resolves them: "./vk", "./vk.js" and "./vk/index" are one module. */
export function moduleKey(specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return specifier.replace(relativeExt, "").replace(/\/index$/, "");
}

/** Auth.js names provider modules after their id: "@auth/core/providers/github" is "github". */
export function idFromModule(specifier: string): string {
  const key = moduleKey(specifier);
  return key.slice(key.lastIndexOf("/") + 1);
}

/** True when the file is written in CommonJS (so new bindings must be `require`s). */
export function isCommonJs(file: SourceFile): boolean {
  if (hasModuleSyntax(file.statements)) return false;
  if (/\.c[jt]s$/i.test(file.fileName ?? "")) return true;
  const exportsTarget = (node: Node) =>
    node.type === "MemberExpression" &&
    !node.computed &&
    node.object.type === "Identifier" &&
    (node.object.name === "exports" ||
      (node.object.name === "module" && node.property.type === "Identifier" && node.property.name === "exports"));
  return (
    descendants(file.root.program, exportsTarget).length > 0 || collectBindings(file).some((b) => b.style === "cjs")
  );
}

/** The identifiers a binding pattern (`x`, `{ a, b: c }`, `[d, ...e]`, `f = 1`) declares. */
function bindingIdentifiers(pattern: Node): Identifier[] {
  switch (pattern.type) {
    case "Identifier":
      return [pattern];
    case "ObjectPattern":
      return pattern.properties.flatMap((p) => bindingIdentifiers(p.type === "ObjectProperty" ? p.value : p));
    case "ArrayPattern":
      return pattern.elements.flatMap((e) => (e ? bindingIdentifiers(e) : []));
    case "RestElement":
      return bindingIdentifiers(pattern.argument);
    case "AssignmentPattern":
      return bindingIdentifiers(pattern.left);
    default:
      return [];
  }
}
