/** Loads the folder-per-case fixtures in fixtures/auth-configs. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProviderEdit } from "../../src/ast/insert-provider.js";
import type { TokenWiringRequest } from "../../src/ast/token-wiring/index.js";
import { fixture } from "../helpers.js";

export interface ConfigCase {
  name: string;
  dir: string;
  /** "input.ts", or "input.js" for the CommonJS config: the name tells the parser what it reads. */
  inputFile: string;
  input: string;
  edit: ProviderEdit;
  /** Expected text; absent for refusals. */
  output?: string;
  outputFile?: string;
  /** Pattern the refusal reason must match. */
  refused?: RegExp;
}

export const casesRoot = fixture("auth-configs");
/** The token-rotation wiring's cases, a folder of their own (test/ast/token-wiring.test.ts). */
export const tokenCasesRoot = join(casesRoot, "token-rotation");

export function loadCases(): ConfigCase[] {
  return readdirSync(casesRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && join(casesRoot, entry.name) !== tokenCasesRoot)
    .map((entry) => {
      const dir = join(casesRoot, entry.name);
      const files = readdirSync(dir);
      const inputFile = files.find((f) => f.startsWith("input."));
      if (!inputFile) throw new Error(`${entry.name}: no input file`);
      const read = (file: string) => readFileSync(join(dir, file), "utf8");
      const outputFile = files.find((f) => f.startsWith("output."));
      const refused = files.includes("refused.json")
        ? new RegExp((JSON.parse(read("refused.json")) as { reason: string }).reason)
        : undefined;
      if (!outputFile === !refused) throw new Error(`${entry.name}: needs exactly one of output.* and refused.json`);
      return {
        name: entry.name,
        dir,
        inputFile,
        input: read(inputFile),
        edit: JSON.parse(read("options.json")) as ProviderEdit,
        output: outputFile && read(outputFile),
        outputFile,
        refused,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What the case expects: an identical output means the edit must be a no-op. */
export function expectedStatus(c: ConfigCase): "added" | "replaced" | "unchanged" | "refused" {
  if (c.refused) return "refused";
  if (c.output === c.input) return "unchanged";
  return c.edit.force ? "replaced" : "added";
}

export interface TokenCase {
  name: string;
  inputFile: string;
  input: string;
  request: TokenWiringRequest;
  output?: string;
  refused?: RegExp;
}

export function loadTokenCases(): TokenCase[] {
  return readdirSync(tokenCasesRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = join(tokenCasesRoot, entry.name);
      const files = readdirSync(dir);
      const read = (file: string) => readFileSync(join(dir, file), "utf8");
      const inputFile = files.find((f) => f.startsWith("input."))!;
      const outputFile = files.find((f) => f.startsWith("output."));
      const refused = files.includes("refused.json")
        ? new RegExp((JSON.parse(read("refused.json")) as { reason: string }).reason)
        : undefined;
      if (!outputFile === !refused) throw new Error(`${entry.name}: needs exactly one of output.* and refused.json`);
      return {
        name: entry.name,
        inputFile,
        input: read(inputFile),
        request: JSON.parse(read("options.json")) as TokenWiringRequest,
        output: outputFile && read(outputFile),
        refused,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
