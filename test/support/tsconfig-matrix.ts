/**
 * The tsconfig settings users' projects have, for the typecheck layer: code
 * create-auth writes into a project must compile under the project's own
 * settings, not only under the ones this repository uses. Written as a
 * tsconfig's compilerOptions, as users write them:
 *
 * - no target: create-next-app's tsconfig without its `target` line, so
 *   TypeScript's default (ES5) applies: no iteration of typed arrays, maps or
 *   sets without downlevelIteration;
 * - strictest: @tsconfig/strictest's options (exactOptionalPropertyTypes,
 *   noUncheckedIndexedAccess, noPropertyAccessFromIndexSignature, unused
 *   locals and parameters, checkJs...);
 * - verbatimModuleSyntax: type-only imports must say so (isolatedModules too).
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { root, tempDir } from "../helpers.js";

export const tsconfigMatrix: Record<string, Record<string, unknown>> = {
  "no target": {
    lib: ["dom", "dom.iterable", "esnext"],
    allowJs: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    module: "esnext",
    moduleResolution: "bundler",
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: "preserve",
  },
  strictest: {
    target: "es2022",
    lib: ["dom", "dom.iterable", "es2023"],
    module: "esnext",
    moduleResolution: "bundler",
    strict: true,
    allowUnusedLabels: false,
    allowUnreachableCode: false,
    exactOptionalPropertyTypes: true,
    noFallthroughCasesInSwitch: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    noPropertyAccessFromIndexSignature: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    isolatedModules: true,
    allowJs: true,
    checkJs: true,
    esModuleInterop: true,
    skipLibCheck: true,
    forceConsistentCasingInFileNames: true,
    noEmit: true,
  },
  verbatimModuleSyntax: {
    target: "es2022",
    lib: ["dom", "dom.iterable", "es2023"],
    module: "esnext",
    moduleResolution: "bundler",
    strict: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
  },
};

export interface SourceFile {
  /** Relative to the project. */
  path: string;
  contents: string;
}

/**
 * Writes `files` into a fresh project (this repository's node_modules
 * linked, so the real packages' types resolve) and type-checks them under
 * the named settings; returns "file:line: TScode message" for each error.
 */
export function typecheckUnder(
  setting: string,
  files: SourceFile[],
  packageJson: object = { type: "module" },
  /** What the kind of project adds whatever else it sets (a TypeORM project's decorators). */
  required: Record<string, unknown> = {},
): string[] {
  const dir = tempDir("create-auth-tsconfig-matrix-");
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "app", private: true, ...packageJson })}\n`);
  const rootNames = files.map((file) => {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
    return path;
  });
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    { ...tsconfigMatrix[setting], ...required, types: ["node"], typeRoots: [join(root, "node_modules/@types")] },
    dir,
  );
  if (errors.length)
    throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, "\n")).join("\n"));
  const program = ts.createProgram({ rootNames, options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
