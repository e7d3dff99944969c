/** A throwaway project for generated provider modules: real @auth/core and zod types, tsx at runtime. */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import type { GenerateContext } from "../../src/families/family.js";
import { parseProvider } from "../../src/families/registry.js";
import { generateProvider } from "../../src/families/render.js";
import type { ProviderSnippet } from "../../src/render/parts.js";
import { root, tempDir } from "../helpers.js";

/** The tsconfig a typical app would have (bundler resolution, strict). */
export const appTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "esnext",
    moduleResolution: "bundler",
    lib: ["ES2023"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    isolatedModules: true,
  },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
};

export function makeProject(prefix = "create-auth-providers-"): string {
  const dir = tempDir(prefix);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(appTsconfig, null, 2)}\n`);
  return dir;
}

/** Generates into `dir/<sub>/` (the auth config's folder) and returns the snippet. */
export async function generateInto(
  dir: string,
  kind: string,
  options: Record<string, unknown>,
  context: GenerateContext = {},
  sub = ".",
): Promise<ProviderSnippet> {
  const provider = parseProvider(kind, options);
  const snippet = await generateProvider(provider.kind, provider.options, context);
  for (const file of snippet.files) {
    const path = join(dir, sub, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  return snippet;
}

/** Imports a generated TypeScript module at runtime, as the user's app would. */
export function importGenerated<T = Record<string, unknown>>(dir: string, path: string): Promise<T> {
  return tsImport(pathToFileURL(join(dir, path)).href, import.meta.url) as Promise<T>;
}
