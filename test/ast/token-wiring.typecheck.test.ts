/**
 * Every config the token wiring writes (fixtures/auth-configs/token-rotation)
 * compiles with strict TypeScript against the real @auth/core types and the
 * real token-rotation.ts: the user's callbacks, wrapped and called with the
 * callback's own parameters, keep their types (a destructured parameter of a
 * called function expression is typed by its argument), and the rotation's
 * callbacks and events fit Auth.js's. The framework packages and the app's own
 * modules are stubbed with @auth/core's types, which the real ones take.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "../../src/render/templates.js";
import { root, tempDir } from "../helpers.js";
import { loadTokenCases } from "./cases.js";

const stubs = `
declare module "next-auth" {
  import type { AuthConfig } from "@auth/core";
  export type NextAuthConfig = AuthConfig;
  export default function NextAuth(config: AuthConfig): { handlers: unknown; auth: unknown; signIn: unknown; signOut: unknown };
}
declare module "@auth/express" {
  import type { AuthConfig } from "@auth/core";
  export function ExpressAuth(config: AuthConfig): unknown;
}
declare module "@auth/prisma-adapter" {
  import type { Adapter } from "@auth/core/adapters";
  export function PrismaAdapter(client: unknown): Adapter;
}
`;

const appModules: Record<string, string> = {
  "auth/adapter.ts":
    'import type { Adapter } from "@auth/core/adapters";\nexport function createAdapter(): Adapter {\n  return {};\n}\n',
  "db.ts": 'import type { Adapter } from "@auth/core/adapters";\nexport const db = { adapter: (): Adapter => ({}) };\n',
  "lib/prisma.ts": "export const prisma = {};\n",
  "providers/keycloak.ts":
    'import Keycloak from "@auth/core/providers/keycloak";\nexport const keycloak = Keycloak({ issuer: "https://sso.example.com/realms/main" });\n',
  "providers/corp.ts":
    'import Keycloak from "@auth/core/providers/keycloak";\nexport const corp = Keycloak({ id: "corp", issuer: "https://login.corp.example" });\n',
  "providers/github.ts": 'import GitHub from "@auth/core/providers/github";\nexport const github = GitHub({});\n',
};

function write(path: string, contents: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}

describe("the configs token wiring writes type-check", () => {
  const outputs = loadTokenCases().filter((c) => c.output !== undefined && c.inputFile === "input.ts");

  it("against @auth/core and the generated token-rotation.ts, strict, in one program", async () => {
    expect(outputs.length).toBeGreaterThanOrEqual(6);
    const dir = tempDir("create-auth-token-wiring-typecheck-");
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    write(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
    write(join(dir, "stubs.d.ts"), stubs);
    const rotation = await renderTemplate("config/token-rotation.ts.hbs", {});
    const rootNames = [join(dir, "stubs.d.ts")];
    for (const c of outputs) {
      const files = { ...appModules, "auth/token-rotation.ts": rotation, "auth.ts": c.output! };
      for (const [path, contents] of Object.entries(files)) {
        write(join(dir, c.name, path), contents);
        rootNames.push(join(dir, c.name, path));
      }
    }
    const program = ts.createProgram(rootNames, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules/@types")],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
