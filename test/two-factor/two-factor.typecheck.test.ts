/**
 * What init writes with --providers credentials --two-factor totp type-checks
 * with the real packages' types (@auth/core, better-sqlite3, pg, mysql2),
 * under bundler resolution with the DOM library and NodeNext without it (a
 * Node server's tsconfig: only @types/node's globals), strict: the config with its signIn
 * callback, the provider, the two-factor modules and pages, and each store.
 * The framework's route files are checked in the browser layer, in the apps.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { parseResolved, resolveProviderName } from "../../src/families/index.js";
import { chosenFramework } from "../../src/frameworks/registry.js";
import { planInit } from "../../src/planners/init-plan.js";
import { storageById } from "../../src/storage/registry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { root, tempDir } from "../helpers.js";

const backends = ["sqlite", "postgres", "mysql", "memory", "skeleton"] as const;

/** init's TypeScript files for a new project with `backend`, in `dir`/<backend>/. */
async function writePlan(dir: string, backend: (typeof backends)[number], nodeNext: boolean): Promise<string[]> {
  const project = join(dir, backend);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: nodeNext ? "NodeNext" : "ESNext" } }),
  );
  const view = new ProjectView(project);
  const storage = storageById(backend);
  const plan = await planInit({
    root: project,
    project: view,
    providers: [parseResolved(resolveProviderName("credentials"), { twoFactor: "totp" })],
    session: "jwt",
    force: false,
    framework: chosenFramework(view, "none"),
    storage: { module: storage, facts: storage.assume(view), dialect: storage.dialect ?? "sqlite", schema: "sql" },
  });
  const files: string[] = [];
  for (const change of plan.changes) {
    if (!change.path.endsWith(".ts")) continue;
    mkdirSync(dirname(change.path), { recursive: true });
    writeFileSync(change.path, change.after);
    files.push(change.path);
  }
  return files;
}

it.each([
  ["bundler", false],
  ["NodeNext", true],
] as const)(
  "type-checks on every backend (%s resolution)",
  async (_, nodeNext) => {
    const dir = tempDir("create-auth-two-factor-types-");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const rootNames = (await Promise.all(backends.map((b) => writePlan(dir, b, nodeNext)))).flat();
    expect(rootNames.some((f) => f.endsWith("two-factor-pages.ts"))).toBe(true);
    const program = ts.createProgram(rootNames, {
      target: ts.ScriptTarget.ES2022,
      module: nodeNext ? ts.ModuleKind.NodeNext : ts.ModuleKind.ESNext,
      moduleResolution: nodeNext ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Bundler,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules/@types")],
      ...(nodeNext ? { lib: ["lib.es2022.d.ts"] } : {}),
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) => `${d.file?.fileName.slice(dir.length) ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    expect(diagnostics).toEqual([]);
  },
  120_000,
);
