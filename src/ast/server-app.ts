/**
 * Which module creates the app a server entry serves. The entry itself, when
 * it creates one; else the entry's imports are followed, binding by binding,
 * to the declaration of what it imports (`import { app } from "./app"`,
 * `import createApp from "./app"`, through re-exports and `paths` aliases,
 * already resolved by the caller), and a module the entry imports for its
 * effect alone is read like an entry. Sub-apps a module builds its app from
 * are never candidates: only what the entry's own imports declare is. When
 * the entry imports several apps, the one it serves (`serve(app)`,
 * `app.listen()`, `export default app`) is chosen; when that is not
 * certain, nothing is.
 */
import type { Node } from "@babel/types";
import { collectBindings } from "./bindings.js";
import { descendants, endOf, ofType, startOf } from "./nodes.js";
import { parse, type SourceFile } from "./parse.js";
import { type AppCreation, creationsIn, describeCreation } from "./server-entry.js";

/** A project module as the caller read it: its text, and where its local specifiers lead (project paths). */
export interface ModuleSource {
  text: string;
  imports: Record<string, string>;
}

export type AppLocation =
  | { status: "found"; path: string; at: number | undefined }
  | { status: "refused"; reason: string };

interface Site {
  path: string;
  at: number;
  /** The entry's local name for what leads to it, when an import binding does. */
  local?: string;
}

const servingMembers = new Set(["listen", "fetch"]);
const servingCalls = new Set(["serve", "createServer", "createAdaptorServer", "createSecureServer"]);

/** Whether the entry serves what `local` names: `serve({ fetch: app.fetch })`, `app.listen()`, `export default app`. */
function serves(file: SourceFile, local: string): boolean {
  const named = (node: Node | null | undefined) => node?.type === "Identifier" && node.name === local;
  return descendants(file.root.program, () => true).some(
    (node) =>
      (node.type === "MemberExpression" &&
        named(node.object) &&
        node.property.type === "Identifier" &&
        servingMembers.has(node.property.name)) ||
      (node.type === "CallExpression" &&
        (node.callee.type === "Identifier"
          ? servingCalls.has(node.callee.name)
          : node.callee.type === "MemberExpression" &&
            node.callee.property.type === "Identifier" &&
            servingCalls.has(node.callee.property.name)) &&
        node.arguments.some((a) => named(a))) ||
      (node.type === "ExportDefaultDeclaration" && named(node.declaration)),
  );
}

export function locateApp(entry: string, modules: Record<string, ModuleSource>, creates: AppCreation): AppLocation {
  const parsed = new Map<string, SourceFile>();
  const fileOf = (path: string) => {
    const source = modules[path];
    if (!source) return undefined;
    if (!parsed.has(path)) parsed.set(path, parse(source.text, path));
    return parsed.get(path);
  };
  const target = (from: string, specifier: string) => modules[from]?.imports[specifier];
  const seen = new Set<string>();

  /** The creations inside the top-level declaration of `name` in `path` (following what it imports or re-exports). */
  const declared = (path: string, name: string, depth: number): Site[] => {
    const file = fileOf(path);
    if (!file || depth > 6 || seen.has(`${path}#${name}`)) return [];
    seen.add(`${path}#${name}`);
    const within = (node: Node) =>
      creationsIn(file, creates)
        .filter((c) => startOf(c) >= startOf(node) && endOf(c) <= endOf(node))
        .map((c) => ({ path, at: startOf(c) }));
    const local = (localName: string): Site[] => {
      const binding = collectBindings(file).find((b) => b.local === localName && b.style === "esm");
      if (binding) {
        const next = target(path, binding.module);
        return next
          ? declared(next, binding.kind === "named" ? (binding.imported ?? localName) : "default", depth + 1)
          : [];
      }
      for (const statement of file.statements) {
        const declaration =
          statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration"
            ? statement.declaration
            : statement;
        if (declaration?.type === "VariableDeclaration") {
          const declarator = declaration.declarations.find(
            (d) => d.id.type === "Identifier" && d.id.name === localName,
          );
          if (declarator) return fromValue(declarator, declarator.init);
        } else if (
          (declaration?.type === "FunctionDeclaration" || declaration?.type === "ClassDeclaration") &&
          declaration.id?.name === localName
        )
          return within(declaration);
      }
      return [];
    };
    /** A declaration's creations; a value that is a call of an imported factory leads to that factory. */
    const fromValue = (holder: Node, value: Node | null | undefined): Site[] => {
      const sites = within(holder);
      if (sites.length || value?.type !== "CallExpression" || value.callee.type !== "Identifier") return sites;
      return local(value.callee.name);
    };
    for (const statement of file.statements) {
      if (statement.type === "ExportDefaultDeclaration" && name === "default") {
        const value = statement.declaration;
        return value.type === "Identifier" ? local(value.name) : fromValue(value, value);
      }
      if (statement.type !== "ExportNamedDeclaration") continue;
      const declaration = statement.declaration;
      if (declaration?.type === "VariableDeclaration") {
        const declarator = declaration.declarations.find((d) => d.id.type === "Identifier" && d.id.name === name);
        if (declarator) return fromValue(declarator, declarator.init);
      } else if (
        declaration &&
        "id" in declaration &&
        declaration.id?.type === "Identifier" &&
        declaration.id.name === name
      )
        return within(declaration);
      for (const spec of statement.specifiers) {
        if (spec.type !== "ExportSpecifier") continue;
        const exported = spec.exported.type === "Identifier" ? spec.exported.name : spec.exported.value;
        if (exported !== name) continue;
        if (!statement.source) return local(spec.local.name);
        const next = target(path, statement.source.value);
        return next ? declared(next, spec.local.name, depth + 1) : [];
      }
    }
    for (const statement of file.statements.filter(ofType("ExportAllDeclaration"))) {
      const next = target(path, statement.source.value);
      const sites = next ? declared(next, name, depth + 1) : [];
      if (sites.length) return sites;
    }
    return [];
  };

  /** What a module (the entry, or one imported for its effect) leads to: its own creations, else its imports'. */
  const reached = (path: string, depth: number): Site[] => {
    const file = fileOf(path);
    if (!file || depth > 4 || seen.has(path)) return [];
    seen.add(path);
    const own = creationsIn(file, creates).map((c) => ({ path, at: startOf(c) }));
    if (own.length) return own;
    const sites: Site[] = [];
    for (const statement of file.statements) {
      if (statement.type === "ImportDeclaration" && statement.importKind !== "type") {
        const next = target(path, statement.source.value);
        if (!next) continue;
        if (statement.specifiers.length === 0) sites.push(...reached(next, depth + 1));
        for (const spec of statement.specifiers) {
          if (spec.type === "ImportSpecifier" && spec.importKind === "type") continue;
          const name =
            spec.type === "ImportDefaultSpecifier"
              ? "default"
              : spec.type === "ImportSpecifier"
                ? spec.imported.type === "Identifier"
                  ? spec.imported.name
                  : spec.imported.value
                : undefined;
          const found = name ? declared(next, name, depth + 1) : reached(next, depth + 1);
          sites.push(...found.map((site) => ({ ...site, local: spec.local.name })));
        }
      } else if (
        (statement.type === "ExportNamedDeclaration" || statement.type === "ExportAllDeclaration") &&
        statement.source
      ) {
        const next = target(path, statement.source.value);
        if (!next) continue;
        if (statement.type === "ExportAllDeclaration") sites.push(...reached(next, depth + 1));
        else
          for (const spec of statement.specifiers)
            if (spec.type === "ExportSpecifier") sites.push(...declared(next, spec.local.name, depth + 1));
      }
    }
    return sites;
  };

  const entryFile = fileOf(entry);
  if (!entryFile) return { status: "refused", reason: `${entry} could not be read` };
  if (creationsIn(entryFile, creates).length) return { status: "found", path: entry, at: undefined };
  const unique = [...new Map(reached(entry, 0).map((s) => [`${s.path}:${s.at}`, s])).values()];
  const served = unique.length > 1 ? unique.filter((s) => s.local && serves(entryFile, s.local)) : unique;
  if (served.length === 1) return { status: "found", path: served[0]!.path, at: served[0]!.at };
  return {
    status: "refused",
    reason: unique.length
      ? `it imports ${unique.length} ${creates.name} apps (${[...new Set(unique.map((s) => s.path))].join(", ")}); which one serves the pages is not certain`
      : `no ${describeCreation(creates)} was found in it or in the modules it imports`,
  };
}
