/**
 * What the module scope of a config file binds: ESM imports and CommonJS
 * `require`s, read syntactically. Binding resolution goes by name, not by the
 * type checker: a checker for one config file costs far more than the edit,
 * and configs rarely shadow their own imports.
 */
import { Node, type SourceFile, type Statement, SyntaxKind } from "./morph.js";

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
  /** The import specifier, clause, or binding element that declares `local`. */
  declaration: Node;
  statement: Statement;
}

/** The specifier of `require("m")`, `require("m").default` or `require("m").x`, with what it selects. */
export function requireOf(node: Node | undefined): { module: string; member?: string } | undefined {
  if (!node) return undefined;
  if (Node.isPropertyAccessExpression(node)) {
    const inner = requireOf(node.getExpression());
    return inner && !inner.member ? { module: inner.module, member: node.getName() } : undefined;
  }
  if (!Node.isCallExpression(node)) return undefined;
  const callee = node.getExpression();
  const [arg, ...rest] = node.getArguments();
  if (!Node.isIdentifier(callee) || callee.getText() !== "require" || rest.length > 0) return undefined;
  return Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)
    ? { module: arg.getLiteralText() }
    : undefined;
}

export function collectBindings(file: SourceFile): Binding[] {
  const out: Binding[] = [];
  for (const statement of file.getStatements()) {
    if (Node.isImportDeclaration(statement)) {
      const module = statement.getModuleSpecifierValue();
      const base = { module, style: "esm" as const, statement };
      const typeOnly = statement.isTypeOnly();
      const def = statement.getDefaultImport();
      if (def) out.push({ ...base, local: def.getText(), kind: "default", typeOnly, declaration: def });
      const ns = statement.getNamespaceImport();
      if (ns) out.push({ ...base, local: ns.getText(), kind: "namespace", typeOnly, declaration: ns });
      for (const spec of statement.getNamedImports()) {
        const local = spec.getAliasNode()?.getText() ?? spec.getName();
        out.push({
          ...base,
          local,
          kind: "named",
          imported: spec.getName(),
          typeOnly: typeOnly || spec.isTypeOnly(),
          declaration: spec,
        });
      }
    } else if (Node.isVariableStatement(statement)) {
      for (const decl of statement.getDeclarations()) {
        const req = requireOf(decl.getInitializer());
        if (!req) continue;
        const base = { module: req.module, style: "cjs" as const, statement, typeOnly: false };
        const name = decl.getNameNode();
        if (Node.isIdentifier(name)) {
          const kind = req.member === "default" ? "default" : req.member ? "named" : "namespace";
          out.push({ ...base, local: name.getText(), kind, imported: req.member, declaration: name });
        } else if (Node.isObjectBindingPattern(name) && !req.member) {
          for (const element of name.getElements()) {
            const local = element.getNameNode();
            if (!Node.isIdentifier(local) || element.getDotDotDotToken()) continue;
            const imported = element.getPropertyNameNode()?.getText() ?? local.getText();
            out.push({ ...base, local: local.getText(), kind: "named", imported, declaration: element });
          }
        }
      }
    }
  }
  return out;
}

/** Module-scope names that are not imports: `const`, `function`, `class` and friends. */
export function localDeclarations(file: SourceFile): Map<string, Node> {
  const names = new Map<string, Node>();
  for (const statement of file.getStatements()) {
    if (Node.isVariableStatement(statement)) {
      for (const decl of statement.getDeclarations()) {
        if (requireOf(decl.getInitializer())) continue;
        for (const id of [decl.getNameNode(), ...decl.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier)]) {
          if (Node.isIdentifier(id) && !isPropertyKey(id)) names.set(id.getText(), id);
        }
      }
    } else if (
      Node.isFunctionDeclaration(statement) ||
      Node.isClassDeclaration(statement) ||
      Node.isEnumDeclaration(statement)
    ) {
      const name = statement.getNameNode();
      if (name) names.set(name.getText(), name);
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
  const esm = file
    .getStatements()
    .some(
      (s) =>
        Node.isImportDeclaration(s) ||
        Node.isExportDeclaration(s) ||
        Node.isExportAssignment(s) ||
        (Node.isModifierable(s) && s.hasModifier(SyntaxKind.ExportKeyword)),
    );
  if (esm) return false;
  if (/\.c[jt]s$/.test(file.getFilePath())) return true;
  return (
    file.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).some((p) => {
      const target = p.getExpression().getText();
      return target === "module" ? p.getName() === "exports" : target === "exports";
    }) || collectBindings(file).some((b) => b.style === "cjs")
  );
}

/** Names declared but not read at this identifier: keys, member names, binding sites. */
function isPropertyKey(id: Node): boolean {
  const parent = id.getParent();
  if (!parent) return false;
  if (Node.isPropertyAccessExpression(parent)) return parent.getNameNode() === id;
  if (Node.isQualifiedName(parent)) return parent.getRight() === id;
  if (
    Node.isPropertyAssignment(parent) ||
    Node.isMethodDeclaration(parent) ||
    Node.isPropertyDeclaration(parent) ||
    Node.isPropertySignature(parent) ||
    Node.isGetAccessorDeclaration(parent) ||
    Node.isSetAccessorDeclaration(parent) ||
    Node.isEnumMember(parent) ||
    Node.isJsxAttribute(parent)
  ) {
    return parent.getNameNode() === id;
  }
  if (Node.isBindingElement(parent)) return parent.getPropertyNameNode() === id;
  return false;
}

function isDeclarationSite(id: Node): boolean {
  const parent = id.getParent();
  if (Node.isImportSpecifier(parent) || Node.isImportClause(parent) || Node.isNamespaceImport(parent)) return true;
  if (Node.isBindingElement(parent) || Node.isVariableDeclaration(parent) || Node.isParameterDeclaration(parent))
    return parent.getNameNode() === id;
  return false;
}

/** Reads of `name` anywhere in the file. Shadowing counts as a read, which errs towards keeping an import. */
export function countReferences(file: SourceFile, name: string): number {
  return file
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .filter((id) => id.getText() === name && !isPropertyKey(id) && !isDeclarationSite(id)).length;
}

/** Identifiers an expression reads (what it needs in scope). */
export function referencedNames(node: Node): Set<string> {
  const ids = Node.isIdentifier(node) ? [node] : node.getDescendantsOfKind(SyntaxKind.Identifier);
  return new Set(ids.filter((id) => !isPropertyKey(id) && !isDeclarationSite(id)).map((id) => id.getText()));
}
