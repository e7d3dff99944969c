/**
 * `tsc --noEmit` as the project runs it, in this process: the project's own
 * TypeScript (from its node_modules) and its own tsconfig.json (extends,
 * include, rootDir, paths and all), so what fails here fails for the user.
 * Declarations under node_modules and TypeScript's libs never change during
 * a run, so each is parsed once per compiler and reused by every check:
 * a check costs what the project's own modules cost.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type ts from "typescript";

type Ts = typeof ts;
const shared = new Map<Ts, Map<string, ts.SourceFile>>();

function compilerOf(dir: string): Ts {
  return createRequire(join(dir, "package.json"))("typescript") as Ts;
}

/** The diagnostics of `tsc --noEmit -p <dir>`, formatted as tsc prints them; empty when it passes. */
export function typecheckProject(dir: string): string {
  const compiler = compilerOf(dir);
  const cache = shared.get(compiler) ?? new Map<string, ts.SourceFile>();
  shared.set(compiler, cache);
  const errors: ts.Diagnostic[] = [];
  const parsed = compiler.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    { noEmit: true },
    { ...compiler.sys, onUnRecoverableConfigFileDiagnostic: (d) => errors.push(d) },
  );
  if (!parsed) return compiler.formatDiagnostics(errors, formatHost(dir));
  const host = compiler.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, create) => {
    const fixed =
      /[\\/]node_modules[\\/]/.test(fileName) ||
      fileName.startsWith(compiler.getDefaultLibFilePath({}).replace(/[^\\/]+$/, ""));
    if (!fixed) return getSourceFile(fileName, version, onError, create);
    const options = typeof version === "object" ? version : { languageVersion: version };
    const key = `${fileName}\0${options.languageVersion}\0${options.impliedNodeFormat ?? ""}`;
    let file = cache.get(key);
    if (!file) {
      file = getSourceFile(fileName, version, onError, create);
      if (file) cache.set(key, file);
    }
    return file;
  };
  const program = compiler.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
  });
  const diagnostics = [...parsed.errors, ...compiler.getPreEmitDiagnostics(program)];
  return compiler.formatDiagnostics(diagnostics, formatHost(dir));
}

const formatHost = (dir: string): ts.FormatDiagnosticsHost => ({
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => dir,
  getNewLine: () => "\n",
});
