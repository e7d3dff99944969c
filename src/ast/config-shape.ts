/**
 * A framework's pieces of an auth config (templates/config/auth.ts.hbs's
 * imports and exports) changed in a config that exists: import lines it
 * lacks added after its imports, and the framework's export block swapped
 * for another (next-auth's `export const { handlers, ... } = NextAuth(...)`
 * for the one that sends sign-out on to the provider). Exact text only: a
 * block that is not there once, as generated, is a refusal.
 */
import type { ImportDeclaration } from "@babel/types";
import { collectBindings, isCommonJs, localDeclarations, moduleKey } from "./bindings.js";
import { importStyle, insertNewImports } from "./imports.js";
import { endOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, parse } from "./parse.js";
import { declaredNames, referencedNames } from "./references.js";
import { configObject } from "./token-wiring/config-object.js";

export type ShapeEdit = { text: string } | { refusal: string };

/** `lines` (import statements) in the module: a binding it already imports alike is dropped from its line. */
function importLines(source: string, lines: readonly string[], fileName?: string): ShapeEdit {
  const file = parse(source, fileName);
  const broken = firstSyntaxError(file);
  if (broken) return { refusal: `the file does not parse (${broken})` };
  const bindings = collectBindings(file);
  const missing: string[] = [];
  for (const line of lines) {
    const statement = parse(line).statements[0] as ImportDeclaration | undefined;
    if (statement?.type !== "ImportDeclaration") throw new Error(`not an import: ${line}`);
    const typeOnly = statement.importKind === "type";
    const wanted = statement.specifiers.filter((spec) => {
      const imported =
        spec.type === "ImportSpecifier" && spec.imported.type === "Identifier" ? spec.imported.name : undefined;
      const have = bindings.find((b) => b.local === spec.local.name);
      if (!have) return true;
      const alike =
        moduleKey(have.module) === moduleKey(statement.source.value) &&
        (spec.type === "ImportDefaultSpecifier" ? have.kind === "default" : have.imported === imported) &&
        (typeOnly || !have.typeOnly);
      if (alike) return false;
      throw new ShapeRefusal(`\`${spec.local.name}\` is already a name in the module (${line} would clash)`);
    });
    if (wanted.length === statement.specifiers.length) missing.push(line);
    else if (wanted.length) {
      const names = wanted.map((spec) => line.slice(spec.start ?? 0, spec.end ?? 0));
      missing.push(`import ${typeOnly ? "type " : ""}{ ${names.join(", ")} } from "${statement.source.value}";`);
    }
  }
  if (missing.length === 0) return { text: source };
  const style = importStyle(file, isCommonJs(file));
  const styled = missing.map((l) => (style.semicolon ? l : l.replace(/;$/, "")));
  return { text: applyEdits(source, [insertNewImports(file, styled, style)]) };
}

/** A name the module already has for something else. */
class ShapeRefusal extends Error {}

/** Import lines the module lacks, after its imports; a name it has for something else is a refusal. */
export function addImports(source: string, lines: readonly string[], fileName?: string): ShapeEdit {
  try {
    return importLines(source, lines, fileName);
  } catch (error) {
    if (error instanceof ShapeRefusal) return { refusal: error.message };
    throw error;
  }
}

/**
 * `from` (lines, found once as whole lines) replaced by `to`; an empty `from`
 * puts `to` after the config's statement. Already `to`: unchanged.
 */
export function swapExports(
  source: string,
  from: readonly string[],
  to: readonly string[],
  fileName?: string,
): ShapeEdit {
  const nl = eol(source);
  const after = to.join(nl);
  if (to.length === 0 || (after && source.includes(after))) return { text: source };
  const unknown = unboundNames(source, after, fileName);
  if (unknown.length)
    return { refusal: `the module has no ${unknown.map((n) => `\`${n}\``).join(", ")}, which the wiring reads` };
  if (from.length === 0) {
    const file = parse(source, fileName);
    const config = configObject(file);
    if ("refusal" in config) return config;
    const at = endOf(config.statement);
    return { text: applyEdits(source, [{ start: at, end: at, text: nl + nl + after }]) };
  }
  const before = from.join(nl);
  const first = source.indexOf(before);
  if (first === -1 || source.indexOf(before, first + 1) !== -1)
    return { refusal: `\`${from[0]}\` is not in the module once, as generated` };
  return { text: source.slice(0, first) + after + source.slice(first + before.length) };
}

/** Names `block` reads that neither it, the module nor the runtime's globals declare. */
function unboundNames(source: string, block: string, fileName: string | undefined): string[] {
  const module = parse(source, fileName);
  const own = parse(block, fileName);
  const declared = new Set([
    ...collectBindings(module).map((b) => b.local),
    ...localDeclarations(module).keys(),
    ...declaredNames(own.root.program),
  ]);
  return [...referencedNames(own.root.program)].filter((name) => !declared.has(name) && !(name in globalThis));
}
