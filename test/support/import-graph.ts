/**
 * src/'s imports as the TypeScript compiler reads them, each with its kind:
 * a value import runs the module at load time, a type import (`import type`,
 * `import { type X }`, `export type … from`, `import("…").X` in a type) is
 * erased by the build but still ties one module's meaning to another's, and a
 * dynamic import (`await import("…")`) loads it later. Text inside strings and
 * template literals (the code create-auth generates) is no import: a regular
 * expression cannot tell, the parser can.
 */
import { dirname, posix, relative, resolve, sep } from "node:path";
import ts from "typescript";

export type ImportKind = "value" | "type" | "dynamic";

export interface Import {
  /** The module imported, absolute (`.js` read as the `.ts` it is built from). */
  target: string;
  kind: ImportKind;
  /** 1-based, for the message. */
  line: number;
}

/** An import declaration or re-export that names only types (or is marked `type` as a whole). */
function onlyTypes(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0
      ? clause.elements.every((e) => e.isTypeOnly)
      : false;
  }
  const clause = node.importClause;
  if (!clause) return false; // `import "./x.js"`: run for its effect
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/** Every relative import in `text` (a module at `file`), with its kind. */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: ts.Node, kind: ImportKind) => {
    if (!ts.isStringLiteralLike(specifier) || !specifier.text.startsWith(".")) return;
    const line = source.getLineAndCharacterOfPosition(specifier.getStart(source)).line + 1;
    found.push({ target: resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts")), kind, line });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      add(node.moduleSpecifier, onlyTypes(node) ? "type" : "value");
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly ? "type" : "value");
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0])
      add(node.arguments[0], "dynamic");
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, "type");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each module's imports, from its text: `files` maps an absolute path to its text (read from disk or made up by a test). */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, Import[]> {
  return new Map([...files].map(([file, text]) => [file, importsOf(file, text)]));
}

/**
 * The layer a module of `src` belongs to: its top folder (`lib`, `doctor-model`…)
 * or, for a module at the top, its file name (`cli.ts`).
 */
export function layerOf(src: string, file: string): string {
  return relative(src, file).split(sep).join(posix.sep).split("/")[0]!;
}

export interface Layers {
  /** Each layer's rank: a module may import its own layer's modules and those of a lower rank. */
  rank: Readonly<Record<string, number>>;
  /** Pairs of the same rank allowed to import one way ("families -> storage"). */
  sameRank?: ReadonlySet<string>;
}

/** Imports that point to a higher layer, or sideways without leave, as "from:line -> to (kind)"; and layers without a rank. */
export function upwardImports(src: string, graph: ReadonlyMap<string, readonly Import[]>, layers: Layers): string[] {
  const found: string[] = [];
  const rankOf = (layer: string) => layers.rank[layer];
  for (const [file, imports] of graph) {
    const from = layerOf(src, file);
    const fromRank = rankOf(from);
    if (fromRank === undefined) {
      found.push(`${relative(src, file)}: ${from} has no rank`);
      continue;
    }
    for (const { target, kind, line } of imports) {
      if (relative(src, target).startsWith("..")) continue; // outside src/ (none today)
      const to = layerOf(src, target);
      if (to === from) continue;
      const toRank = rankOf(to);
      const allowed =
        toRank !== undefined &&
        (toRank < fromRank || (toRank === fromRank && (layers.sameRank?.has(`${from} -> ${to}`) ?? false)));
      if (!allowed) found.push(`${relative(src, file)}:${line} -> ${relative(src, target)} (${kind})`);
    }
  }
  return found;
}

/** Imports whose module is not in the graph: a path the reader resolved wrongly would otherwise pass unseen. */
export function unresolved(graph: ReadonlyMap<string, readonly Import[]>): string[] {
  return [...graph].flatMap(([file, imports]) =>
    imports.filter((i) => !graph.has(i.target)).map((i) => `${file}:${i.line} -> ${i.target}`),
  );
}

/** Every cycle's modules, found by depth-first search over imports of every kind. */
export function cycles(graph: ReadonlyMap<string, readonly { target: string }[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    path.push(node);
    for (const { target } of graph.get(node) ?? []) {
      if (state.get(target) === "open") found.push(path.slice(path.indexOf(target)));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}
