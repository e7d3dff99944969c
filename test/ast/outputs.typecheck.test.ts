/**
 * Every expected output must still compile against the real @auth/core types:
 * a provider appended in the wrong place (outside the array, after a comment
 * that swallowed it, without its import) shows up here even when the text
 * diff looks plausible.
 *
 * Which outputs are checked: ESM outputs whose imports all come from
 * @auth/core, @auth/core/*, ./providers/*, or a framework wrapper stubbed
 * below (next-auth, @auth/sveltekit, @auth/solid-start, @auth/express and
 * express are not installed; their stubs take an @auth/core AuthConfig, which
 * is what the real packages accept, and their providers/* re-export
 * @auth/core's). Skipped: the CommonJS output (plain JS, nothing to check
 * without allowJs + checkJs on a `require` of next-auth) and any output that
 * imports something else (an adapter, an app alias like "@/lib/prisma").
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../helpers.js";
import { loadCases } from "./cases.js";

const wrappers = new Set(["next-auth", "@auth/sveltekit", "@auth/solid-start", "@auth/express", "express"]);
const wrapperProviders = /^(?:next-auth|@auth\/sveltekit|@auth\/express)\/providers\/([\w-]+)$/;

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s+["']([^"']+)["']/g)].map((m) => m[1]!);
}

function checkable(specifier: string): boolean {
  return (
    specifier === "@auth/core" ||
    specifier.startsWith("@auth/core/") ||
    specifier.startsWith("./providers/") ||
    wrappers.has(specifier) ||
    wrapperProviders.test(specifier)
  );
}

const frameworkStubs = `
declare const process: { env: Record<string, string | undefined> };

declare module "next-auth" {
  import type { AuthConfig } from "@auth/core";
  type Lazy = (request: Request | undefined) => AuthConfig | Promise<AuthConfig>;
  export default function NextAuth(config: AuthConfig | Lazy): { handlers: unknown; auth: unknown; signIn: unknown; signOut: unknown };
}
declare module "@auth/sveltekit" {
  import type { AuthConfig } from "@auth/core";
  export function SvelteKitAuth(config: AuthConfig | ((event: unknown) => AuthConfig | Promise<AuthConfig>)): { handle: unknown; signIn: unknown; signOut: unknown };
}
declare module "@auth/solid-start" {
  import type { AuthConfig } from "@auth/core";
  export type SolidAuthConfig = AuthConfig;
  export function SolidAuth(config: SolidAuthConfig): { GET: unknown; POST: unknown };
}
declare module "@auth/express" {
  import type { AuthConfig } from "@auth/core";
  export function ExpressAuth(config: AuthConfig): unknown;
}
declare module "express" {
  export default function express(): { set(name: string, value: unknown): void; use(path: string, handler: unknown): void };
}
`;

/** Stub modules for ./providers/<name>: every binding an output imports from one, typed as a Provider. */
function providerStubs(outputs: string[]): Map<string, string> {
  const exports = new Map<string, Set<string>>();
  for (const text of outputs) {
    for (const m of text.matchAll(
      /import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s+["']\.\/providers\/([\w-]+)(?:\.js)?["']/g,
    )) {
      const names = exports.get(m[3]!) ?? new Set<string>();
      if (m[1]) names.add("default");
      for (const name of (m[2] ?? "")
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean))
        names.add(name);
      exports.set(m[3]!, names);
    }
  }
  const files = new Map<string, string>();
  for (const [module, names] of exports) {
    const lines = ['import type { Provider } from "@auth/core/providers";', ""];
    for (const name of names) {
      const value = `{ id: "${module}", name: "${module}", type: "oauth" } as Provider`;
      lines.push(name === "default" ? `export default ${value};` : `export const ${name}: Provider = ${value};`);
    }
    files.set(module, `${lines.join("\n")}\n`);
  }
  return files;
}

describe("expected outputs type-check against @auth/core", () => {
  const outputs = loadCases().filter(
    (c) => c.output !== undefined && c.outputFile === "output.ts" && importsOf(c.output).every(checkable),
  );

  it("checks most of the accepted fixtures", () => {
    expect(outputs.length).toBeGreaterThanOrEqual(20);
  });

  it("compiles them all in one program without errors", () => {
    const dir = tempDir("create-auth-ast-typecheck-");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    mkdirSync(join(dir, "providers"));
    for (const [module, text] of providerStubs(outputs.map((c) => c.output!)))
      writeFileSync(join(dir, "providers", `${module}.ts`), text);
    const wrapperModules = new Set(
      outputs
        .flatMap((c) => importsOf(c.output!))
        .map((s) => wrapperProviders.exec(s)?.[0])
        .filter((s) => s !== undefined),
    );
    const reexports = [...wrapperModules].map(
      (s) =>
        `declare module "${s}" { export { default } from "@auth/core/providers/${wrapperProviders.exec(s)![1]}"; }`,
    );
    writeFileSync(join(dir, "frameworks.d.ts"), `${frameworkStubs}\n${reexports.join("\n")}\n`);
    for (const c of outputs) writeFileSync(join(dir, `${c.name}.ts`), c.output!);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: "esnext",
        moduleResolution: "bundler",
        target: "es2022",
        lib: ["es2022", "dom"],
        noEmit: true,
        types: [],
        skipLibCheck: true,
      },
      include: ["*.ts", "providers/*.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));

    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(dir, "tsconfig.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    );
    const program = ts.createProgram({ rootNames: parsed!.fileNames, options: parsed!.options });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
    expect(diagnostics).toEqual([]);
    expect(parsed!.fileNames.length).toBe(outputs.length + providerStubs(outputs.map((c) => c.output!)).size + 1);
  });
});
