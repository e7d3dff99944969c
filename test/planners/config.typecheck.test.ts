// The auth config init writes type-checks against @auth/core, under bundler and NodeNext resolution.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../helpers.js";
import { renderConfig as render } from "./config-project.js";

// A stand-in for the generated auth/adapter.ts: only its export shape matters here.
const stubAdapter = `import type { Adapter } from "@auth/core/adapters";\n\nexport function createAdapter(): Adapter {\n  return {};\n}\n`;

/**
 * Type-checks several generated projects (each in a folder of its own) in one
 * program with the real @auth/core types; returns the diagnostics.
 */
function typecheck(projects: { path: string; contents: string }[][], nodeNext: boolean): string[] {
  const dir = tempDir("create-auth-config-");
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  const rootNames: string[] = [];
  projects.forEach((files, i) => {
    for (const f of [...files, { path: "auth/adapter.ts", contents: stubAdapter }]) {
      const path = join(dir, `project-${i}`, f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.contents);
      rootNames.push(path);
    }
  });
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: nodeNext ? ts.ModuleKind.NodeNext : ts.ModuleKind.ESNext,
    moduleResolution: nodeNext ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
  };
  const program = ts.createProgram(rootNames, options);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("generateConfig", () => {
  it.each([
    ["bundler", false, ""],
    ["NodeNext", true, ".js"],
  ] as const)(
    "type-checks against @auth/core (%s resolution)",
    async (_, nodeNext, ext) => {
      const projects = [
        await render(["credentials"], { session: "jwt", ext }),
        await render(["email", "webauthn", "social", "credentials"], { session: "database", ext }),
      ];
      expect(typecheck(projects, nodeNext)).toEqual([]);
    },
    60_000,
  );
});
