// The generated Drizzle and TypeORM schemas compile in one strict program against the real packages' types.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { type Dialect, dialects } from "../../src/catalog/sql-dialects.js";
import type { GeneratedPart } from "../../src/render/parts.js";
import { generateSchema } from "../../src/storage/schemas.js";
import { root, tempDir } from "../helpers.js";

type Parts = Record<"drizzle" | "typeorm", Record<Dialect, GeneratedPart>>;
let parts: Parts;

beforeAll(async () => {
  const generate = async (flavour: keyof Parts) =>
    Object.fromEntries(
      await Promise.all(
        dialects.map(
          async (d) => [d, await generateSchema(flavour, d, { importExtension: ".js", dir: "auth" })] as const,
        ),
      ),
    ) as Record<Dialect, GeneratedPart>;
  parts = { drizzle: await generate("drizzle"), typeorm: await generate("typeorm") };
});

describe("generated TypeScript", () => {
  it("all drizzle and typeorm files compile in one strict program against the real packages", () => {
    const dir = tempDir("create-auth-schema-typecheck-");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
    const rootNames: string[] = [];
    for (const flavour of ["drizzle", "typeorm"] as const) {
      for (const dialect of dialects) {
        for (const file of parts[flavour][dialect].files) {
          const path = join(dir, flavour, dialect, file.path);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, file.contents);
          rootNames.push(path);
        }
      }
    }
    // What a NodeNext app with TypeORM sets; the decorator flags are harmless for Drizzle files.
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ["node"],
      typeRoots: [join(dir, "node_modules", "@types")],
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      skipLibCheck: true,
      noEmit: true,
    };
    const program = ts.createProgram({ rootNames, options });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
    expect(diagnostics).toEqual([]);
    expect(rootNames).toHaveLength(6);
  });
});
