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
  const errors: ts.Diagnostic[] = [];
  const parsed = compiler.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    { noEmit: true },
    { ...compiler.sys, onUnRecoverableConfigFileDiagnostic: (d) => errors.push(d) },
  );
  if (!parsed) return compiler.formatDiagnostics(errors, formatHost(dir));
  return check(compiler, dir, parsed.fileNames, parsed.options, parsed.errors);
}

/**
 * A JavaScript project, which has no tsconfig, through the same compiler reading JavaScript as Node runs it
 * (ES modules, Node's resolution): what does not parse, an import that resolves to no module or names
 * nothing it exports, a JSDoc type that names nothing. Not the types of its values, which no one checks in
 * a JavaScript project (an erased `as` leaves `unknown` where TypeScript had a cast). `files` are
 * project-relative.
 */
export function typecheckJavaScript(dir: string, files: string[]): string {
  const compiler = compilerOf(dir);
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    module: compiler.ModuleKind.NodeNext,
    moduleResolution: compiler.ModuleResolutionKind.NodeNext,
    target: compiler.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: ["node"],
  };
  return check(
    compiler,
    dir,
    files.map((f) => join(dir, f)),
    options,
    [],
    (d) => d.code < 2000 || javascriptCodes.has(d.code),
  );
}

/** Cannot find module, has no exported member (and its suggestions), a namespace without the member, extensions. */
const javascriptCodes = new Set([2305, 2306, 2307, 2614, 2694, 2724, 2834, 2835]);

function check(
  compiler: Ts,
  dir: string,
  rootNames: string[],
  options: ts.CompilerOptions,
  configErrors: readonly ts.Diagnostic[],
  reported: (diagnostic: ts.Diagnostic) => boolean = () => true,
): string {
  const cache = shared.get(compiler) ?? new Map<string, ts.SourceFile>();
  shared.set(compiler, cache);
  const host = compiler.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, create) => {
    const fixed =
      /[\\/]node_modules[\\/]/.test(fileName) ||
      fileName.startsWith(compiler.getDefaultLibFilePath({}).replace(/[^\\/]+$/, ""));
    if (!fixed) return getSourceFile(fileName, version, onError, create);
    const languageOptions = typeof version === "object" ? version : { languageVersion: version };
    const key = `${fileName}\0${languageOptions.languageVersion}\0${languageOptions.impliedNodeFormat ?? ""}`;
    let file = cache.get(key);
    if (!file) {
      file = getSourceFile(fileName, version, onError, create);
      if (file) cache.set(key, file);
    }
    return file;
  };
  const program = compiler.createProgram({ rootNames, options, host });
  const diagnostics = [...configErrors, ...compiler.getPreEmitDiagnostics(program)].filter(reported);
  return compiler.formatDiagnostics(diagnostics, formatHost(dir));
}

const formatHost = (dir: string): ts.FormatDiagnosticsHost => ({
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => dir,
  getNewLine: () => "\n",
});
