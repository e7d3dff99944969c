/**
 * The project's own modules as doctor reads them: parsed with Babel, never
 * run. Resolves relative imports (and the "@/" and "$lib" aliases) to files,
 * finds what a module exports under a name, and lists the packages a module
 * pulls in through its own imports.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Node } from "@babel/types";
import { readIfExists } from "../../workspace/plan.js";
import { collectBindings, requireOf, variablesOf } from "../bindings.js";
import { descendants, ofType, stringValue, unwrap } from "../nodes.js";
import { parse, type SourceFile } from "../parse.js";

export interface Module {
  path: string;
  file: SourceFile;
}

/** Reads modules once per run: the config, its providers and the wiring files share many. */
export class ModuleReader {
  private readonly cache = new Map<string, Module | null>();

  constructor(
    readonly root: string,
    /** tsconfig's "@/*" target ("src/", ""), when it has one. */
    private readonly alias: string | undefined,
  ) {}

  read(path: string): Module | null {
    if (!this.cache.has(path)) {
      let text: string | null = null;
      try {
        text = readIfExists(path);
      } catch {
        // A folder or a binary where a module belongs: nothing doctor can read.
      }
      this.cache.set(path, text === null ? null : { path, file: parse(text, path) });
    }
    return this.cache.get(path)!;
  }

  relative(path: string): string {
    return relative(this.root, path) || path;
  }

  /** The file a specifier names from `from`, when it is one of the project's own. */
  resolve(from: string, specifier: string): string | undefined {
    let base: string;
    if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
    else if (specifier.startsWith("$lib/")) base = join(this.root, "src/lib", specifier.slice(5));
    else if (specifier.startsWith("@/") && this.alias !== undefined)
      base = join(this.root, this.alias, specifier.slice(2));
    else if (specifier.startsWith("~/")) base = join(this.root, "src", specifier.slice(2));
    else return undefined;
    const bare = base.replace(/\.[cm]?js$/, "");
    const candidates = [base, ...["ts", "tsx", "mts", "js", "mjs", "cjs", "jsx"].flatMap((e) => [`${bare}.${e}`])];
    candidates.push(...["ts", "js"].map((e) => join(base, `index.${e}`)));
    return candidates.find((p) => existsSync(p) && statSync(p).isFile());
  }

  /** The expression a module exports as `name` ("default" for the default export), following re-exports. */
  exported(path: string, name: string, depth = 0): { module: Module; node: Node } | undefined {
    const module = this.read(path);
    if (!module || depth > 4) return undefined;
    for (const statement of module.file.statements) {
      if (name === "default" && statement.type === "ExportDefaultDeclaration") {
        const declaration = statement.declaration;
        if (declaration.type === "Identifier") return this.local(module, declaration.name, depth);
        return { module, node: declaration };
      }
      if (statement.type !== "ExportNamedDeclaration") continue;
      for (const decl of variablesOf(statement)?.declarations ?? []) {
        if (declares(decl.id, name) && decl.init) return { module, node: decl.init };
      }
      const declaration = statement.declaration;
      if (declaration && "id" in declaration && declaration.id?.type === "Identifier" && declaration.id.name === name)
        return { module, node: declaration };
      for (const spec of statement.specifiers) {
        if (spec.type !== "ExportSpecifier") continue;
        const exportedName = spec.exported.type === "Identifier" ? spec.exported.name : spec.exported.value;
        if (exportedName !== name) continue;
        if (statement.source) {
          const target = this.resolve(path, statement.source.value);
          return target ? this.exported(target, spec.local.name, depth + 1) : undefined;
        }
        return this.local(module, spec.local.name, depth);
      }
    }
    for (const statement of module.file.statements) {
      if (statement.type !== "ExportAllDeclaration") continue;
      const target = this.resolve(path, statement.source.value);
      const found = target && this.exported(target, name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** What a module-scope name is: a local declaration's value, or what it imports from one of the project's modules. */
  local(module: Module, name: string, depth = 0): { module: Module; node: Node } | undefined {
    const binding = collectBindings(module.file).find((b) => b.local === name);
    if (binding) {
      const target = this.resolve(module.path, binding.module);
      if (!target) return undefined;
      return this.exported(target, binding.kind === "named" ? (binding.imported ?? name) : "default", depth + 1);
    }
    const declarator = descendants(module.file.root.program, ofType("VariableDeclarator")).find((d) =>
      declares(d.id, name),
    );
    if (declarator?.init) return { module, node: declarator.init };
    const declared = module.file.statements
      .map((s) => (s.type === "ExportNamedDeclaration" || s.type === "ExportDefaultDeclaration" ? s.declaration : s))
      .find((d) => d && "id" in d && d.id?.type === "Identifier" && d.id.name === name);
    return declared ? { module, node: declared } : undefined;
  }

  /** Every module specifier a file imports: static, re-exported, `import()` and `require()` with a literal. */
  specifiers(module: Module): string[] {
    const found = new Set<string>();
    for (const s of module.file.statements) {
      if (s.type === "ImportDeclaration" && s.importKind !== "type") found.add(s.source.value);
      if ((s.type === "ExportNamedDeclaration" || s.type === "ExportAllDeclaration") && s.source)
        found.add(s.source.value);
    }
    for (const call of descendants(module.file.root.program, ofType("CallExpression"))) {
      const dynamic = call.callee.type === "Import" ? stringValue(call.arguments[0]) : requireOf(call)?.module;
      if (dynamic) found.add(dynamic);
    }
    return [...found];
  }

  /** The packages `path` pulls in, through its own modules too (a bounded walk), and the modules it reaches. */
  reach(path: string): { packages: string[]; files: string[] } {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const walk = (file: string, depth: number) => {
      if (seen.has(file) || seen.size > 200 || depth > 8) return;
      seen.add(file);
      const module = this.read(file);
      if (!module) return;
      for (const specifier of this.specifiers(module)) {
        const local = this.resolve(file, specifier);
        if (local) walk(local, depth + 1);
        else if (!specifier.startsWith(".") && !specifier.startsWith("$")) packages.add(packageName(specifier));
      }
    };
    walk(path, 0);
    return { packages: [...packages].sort(), files: [...seen] };
  }
}

/** Whether a declarator's target binds `name`: `x`, or `{ x }` / `{ y: x }` (`export const { handlers, auth } = NextAuth(...)`). */
function declares(target: Node, name: string): boolean {
  if (target.type === "Identifier") return target.name === name;
  if (target.type !== "ObjectPattern") return false;
  return target.properties.some(
    (p) => p.type === "ObjectProperty" && p.value.type === "Identifier" && p.value.name === name,
  );
}

/** "pg" from "pg/lib/x", "@scope/name" from "@scope/name/sub"; "node:fs" stays. */
export function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The variable an expression reads: `process.env.X`, `process.env["X"]`, `env.X` ($env/dynamic), or an $env/static import. */
export function envReference(node: Node | null | undefined, module?: Module): string | undefined {
  if (!node) return undefined;
  const value = unwrap(node);
  if (value.type === "LogicalExpression") return envReference(value.left, module);
  if (value.type === "MemberExpression") {
    const key = value.computed
      ? stringValue(value.property)
      : value.property.type === "Identifier"
        ? value.property.name
        : undefined;
    const object = value.object;
    // process.env.X, import.meta.env.X, and SvelteKit's `env.X` from $env/dynamic/private.
    const isEnv =
      (object.type === "Identifier" && object.name === "env") ||
      (object.type === "MemberExpression" && object.property.type === "Identifier" && object.property.name === "env");
    return isEnv ? key : undefined;
  }
  if (value.type === "Identifier" && module) {
    const binding = collectBindings(module.file).find((b) => b.local === value.name);
    if (binding && /^\$env\/(?:static|dynamic)\/private$/.test(binding.module)) return binding.imported ?? value.name;
  }
  return undefined;
}
