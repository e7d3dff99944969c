// The auth config init writes: its shape, the adapter it imports, and that it type-checks against @auth/core.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseProvider } from "../../src/families/registry.js";
import { generateProvider } from "../../src/families/render.js";
import { plainConfig } from "../../src/frameworks/framework.js";
import { generateConfig } from "../../src/planners/auth-config.js";
import { specifier } from "../../src/render/modules.js";
import { backends } from "../../src/storage/registry.js";
import { root, tempDir } from "../helpers.js";
import { planStorage } from "../support/storage.js";

// A stand-in for the generated auth/adapter.ts: only its export shape matters here.
const stubAdapter = `import type { Adapter } from "@auth/core/adapters";\n\nexport function createAdapter(): Adapter {\n  return {};\n}\n`;

async function render(
  kinds: string[],
  o: { session?: "jwt" | "database"; configPath?: string; ext?: "" | ".js" } = {},
) {
  const ext = o.ext ?? "";
  const providers = await Promise.all(
    kinds.map((k) => parseProvider(k, {})).map((p) => generateProvider(p.kind, p.options, { importExtension: ext })),
  );
  return generateConfig({
    configPath: o.configPath ?? "auth.ts",
    providers,
    adapterPath: "auth/adapter.ts",
    session: o.session ?? "jwt",
    storage: "sqlite",
    importExtension: ext,
    shape: plainConfig(),
    verifyCommand: "npm run verify-adapter",
  });
}

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
  it("imports each provider module and the adapter, and sets the session strategy and secret", async () => {
    const [config, ...providers] = await render(["credentials", "social"], { session: "jwt" });
    expect(config!.path).toBe("auth.ts");
    expect(config!.contents).toContain('import type { AuthConfig } from "@auth/core";');
    expect(config!.contents).toContain('import { credentials } from "./providers/credentials";');
    expect(config!.contents).toContain('import { vk } from "./providers/vk";');
    expect(config!.contents).toContain('import { createAdapter } from "./auth/adapter";');
    expect(config!.contents).toMatch(/providers: \[\n {4}credentials,\n {4}vk,\n {2}\],/);
    expect(config!.contents).toContain("adapter: createAdapter(),");
    expect(config!.contents).toContain('session: { strategy: "jwt" },');
    expect(config!.contents).toContain("secret: process.env.AUTH_SECRET,");
    expect(config!.contents).toContain("} satisfies AuthConfig;");
    expect(config!.contents).not.toContain("enableWebAuthn");
    expect(providers.map((f) => f.path)).toEqual([
      "providers/credentials.ts",
      "providers/vk.ts",
      "providers/vk-profile.ts",
    ]);
  });

  it("switches on WebAuthn for passkeys and puts providers beside a src/ config", async () => {
    const [config, ...providers] = await render(["passkey", "email"], {
      session: "database",
      configPath: "src/auth.ts",
      ext: ".js",
    });
    expect(config!.contents).toContain("experimental: { enableWebAuthn: true },");
    expect(config!.contents).toContain('session: { strategy: "database" },');
    expect(config!.contents).toContain('import { createAdapter } from "../auth/adapter.js";');
    expect(config!.contents).toContain('import { webauthn } from "./providers/webauthn.js";');
    expect(providers.map((f) => f.path)).toEqual(["src/providers/webauthn.ts", "src/providers/email.ts"]);
  });

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

describe("the adapter the config imports", () => {
  it.each(backends)("the %s adapter module exports createAdapter(), which the config calls", async (backend) => {
    const adapter = await planStorage(backend, { importExtension: "" });
    const module = adapter.files.find((f) => f.path === adapter.adapterPath);
    expect(module?.contents).toMatch(/^export function createAdapter\(/m);
  });
});

describe("specifier", () => {
  it.each([
    ["auth.ts", "auth/adapter.ts", "", "./auth/adapter"],
    ["src/auth.ts", "auth/adapter.ts", ".js", "../auth/adapter.js"],
  ])("%s -> %s", (from, to, ext, expected) => {
    expect(specifier(from, to, ext as "" | ".js")).toBe(expected);
  });
});
