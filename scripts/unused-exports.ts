/**
 * Lists the exports of src/ that no other module imports (`npx tsx
 * scripts/unused-exports.ts`; exit 1 when there are any): "unused" ones
 * are dead code, "local" ones are used only in their own file and need no
 * `export`. Imports are read from every file the type-check covers (src,
 * test, fixtures, bench, scripts): static and type imports, re-exports,
 * `import * as`, and `import()` (destructured names, else the whole module).
 * The package's entry points count as used whole: the library's (src/index.ts,
 * src/vitest.ts) and the bundle's, which bin/create-auth.js loads from dist/.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const entryPoints = [
  "src/index.ts",
  "src/vitest.ts",
  "src/cli.ts",
  "src/lib/private-cache.ts",
  "src/contract/isolation/worker-entry.ts",
  "src/contract/isolation/spawn-worker.ts",
].map((path) => join(root, path));

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  },
)!;
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

/** Per module file: the names other files take from it, or "all". */
const used = new Map<string, Set<string> | "all">();
const take = (file: string | undefined, names: string[] | "all") => {
  if (!file) return;
  const have = used.get(file);
  if (have === "all") return;
  if (names === "all") used.set(file, "all");
  else used.set(file, new Set([...(have ?? []), ...names]));
};
const resolve = (specifier: string, from: string) =>
  ts.resolveModuleName(specifier, from, config.options, ts.sys).resolvedModule?.resolvedFileName;

for (const source of program.getSourceFiles()) {
  if (source.fileName.includes("/node_modules/")) continue;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const target = resolve((node.moduleSpecifier as ts.StringLiteral).text, source.fileName);
      if (ts.isImportDeclaration(node)) {
        const bindings = node.importClause?.namedBindings;
        if (node.importClause?.name) take(target, ["default"]);
        if (bindings && ts.isNamespaceImport(bindings)) take(target, "all");
        if (bindings && ts.isNamedImports(bindings))
          take(
            target,
            bindings.elements.map((e) => (e.propertyName ?? e.name).text),
          );
      } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        take(
          target,
          node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text),
        );
      } else take(target, "all");
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      const target = specifier && ts.isStringLiteral(specifier) ? resolve(specifier.text, source.fileName) : undefined;
      // const { a, b } = await import("./x.js"): only those names; anything else may reach any export.
      let parent = node.parent;
      if (parent && ts.isAwaitExpression(parent)) parent = parent.parent;
      if (parent && ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name))
        take(
          target,
          parent.name.elements.map((e) => ((e.propertyName ?? e.name) as ts.Identifier).text),
        );
      else take(target, "all");
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const target = resolve((node.argument.literal as ts.StringLiteral).text, source.fileName);
      take(target, node.qualifier ? [ts.isIdentifier(node.qualifier) ? node.qualifier.text : "all"] : "all");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const findings: string[] = [];
for (const source of program.getSourceFiles()) {
  const file = source.fileName;
  if (!file.startsWith(join(root, "src/")) || entryPoints.includes(file)) continue;
  const taken = used.get(file);
  if (taken === "all") continue;
  const symbol = checker.getSymbolAtLocation(source);
  const text = readFileSync(file, "utf8");
  for (const exported of symbol ? checker.getExportsOfModule(symbol) : []) {
    const name = exported.getName();
    if (taken?.has(name)) continue;
    // Its name used again in its own file (beyond the declaration): drop `export`; else the declaration is dead.
    const uses = text.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
    findings.push(`${relative(root, file)}: ${name} (${uses > 1 ? "local" : "unused"})`);
  }
}
console.log(findings.join("\n") || "every export of src/ is imported somewhere");
process.exitCode = findings.length ? 1 : 0;
