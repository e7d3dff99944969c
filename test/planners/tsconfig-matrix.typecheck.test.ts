/**
 * What `init` writes compiles under the tsconfig settings users have
 * (test/support/tsconfig-matrix.ts), not only under the tsconfig it writes
 * itself: every TypeScript file of a framework-neutral project (the config,
 * the providers, the adapter, its database module, the schema modules) for
 * each store, against the real packages' types. Framework wiring needs the
 * framework's own packages and is compiled by the browser layer's builds.
 *
 * Left out: drizzle.config.ts (drizzle-kit is not installed here; the ORM
 * tests run it), and the strictest settings, which the generated config and
 * providers do not meet yet (exactOptionalPropertyTypes on `secret` and
 * `clientId`, noPropertyAccessFromIndexSignature on process.env and rows).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inProcess, tempDir } from "../helpers.js";
import { type SourceFile, typecheckUnder } from "../support/tsconfig-matrix.js";

/** init's project for a store, as its TypeScript files. */
async function initFiles(backend: string, ...extra: string[]): Promise<SourceFile[]> {
  const dir = tempDir("create-auth-init-matrix-");
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  const init = await inProcess([
    "init",
    "--yes",
    "--no-install",
    "--dir",
    dir,
    "--framework",
    "none",
    "--backend",
    backend,
    ...(extra.includes("--providers") ? [] : ["--providers", "credentials,email,passkey,github"]),
    ...extra,
  ]);
  expect(init.exitCode, init.stderr).toBe(0);
  const files: SourceFile[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && name !== "drizzle.config.ts")
        files.push({ path: path.slice(dir.length + 1), contents: readFileSync(path, "utf8") });
    }
  };
  walk(dir);
  return files;
}

const stores: [string, string[]][] = [
  ["sqlite", []],
  ["postgres", []],
  ["mysql", []],
  ["memory", []],
  ["sqlite", ["--schema", "drizzle"]],
  ["postgres", ["--schema", "typeorm"]],
  // The token rotation (token-rotation.ts) beside the config.
  ["sqlite", ["--providers", "credentials,google", "--refresh-tokens"]],
];

const projects: SourceFile[] = [];

beforeAll(async () => {
  for (const [backend, extra] of stores) {
    const folder = [backend, ...extra.filter((e) => !e.startsWith("--"))].join("-").replace(/,/g, "-");
    for (const file of await initFiles(backend, ...extra)) projects.push({ ...file, path: `${folder}/${file.path}` });
  }
}, 120_000);

describe("init's files, under the tsconfig settings users have", () => {
  for (const setting of ["no target", "verbatimModuleSyntax"])
    it(`compile with ${setting}`, () => {
      // One program for every store; a TypeORM project's tsconfig compiles decorators, harmless to the others.
      const decorators = { experimentalDecorators: true, emitDecoratorMetadata: true };
      expect(typecheckUnder(setting, projects, { type: "module" }, decorators)).toEqual([]);
    });
});
