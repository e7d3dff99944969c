// Every generated provider module type-checks against the real @auth/core and zod types (tsc, in one project).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProviderSnippet } from "../../src/render/parts.js";
import { renderTemplate } from "../../src/render/templates.js";
import { root } from "../helpers.js";
import { generateEvery, makeProject } from "./provider-project.js";

describe("generated provider modules", () => {
  let dir: string;
  let snippets: Record<string, ProviderSnippet> = {};

  beforeAll(async () => {
    dir = makeProject();
    snippets = await generateEvery(dir);
  });

  it("type-checks every generated module against the real @auth/core and zod types, in one config", async () => {
    const lines = ['import type { AuthConfig } from "@auth/core";'];
    const entries: string[] = [];
    for (const [key, snippet] of Object.entries(snippets)) {
      for (const spec of snippet.imports)
        lines.push(`import { ${spec.named!.join(", ")} } from "./${key}/${spec.from.slice(2)}";`);
      entries.push(snippet.entry);
    }
    lines.push(
      `export const config: AuthConfig = {`,
      `  providers: [${entries.join(", ")}],`,
      `  experimental: { enableWebAuthn: true },`,
      `};`,
      "",
    );
    writeFileSync(join(dir, "auth.ts"), lines.join("\n"));
    writeFileSync(join(dir, "token-rotation.ts"), await renderTemplate("config/token-rotation.ts.hbs", {}));
    // VK ID's wiring as an app writes it: a framework's Request subclass (Next.js's NextRequest) keeps its type.
    writeFileSync(
      join(dir, "vkid-route.ts"),
      [
        'import { refreshTokens, runWithVkIdCallback, vkid, withVkIdCallback } from "./socialVkid/providers/vkid";',
        'import { createTokenRotation, type TokenAdapter } from "./token-rotation";',
        "class FrameworkRequest extends Request {",
        "  readonly nextUrl = new URL(this.url);",
        "}",
        "const handler = async (request: FrameworkRequest) => new Response(request.nextUrl.pathname);",
        "export const GET: (request: FrameworkRequest) => Promise<Response> = withVkIdCallback(handler);",
        "export const hook = (url: URL, next: () => Promise<Response>) => runWithVkIdCallback(url, next);",
        'export const renewed = refreshTokens({ refresh_token: "r", session_state: { device_id: "d" } });',
        // --refresh-tokens: the provider, with its own refresh, in the rotation's list.
        "declare const adapter: TokenAdapter;",
        "export const rotation = createTokenRotation({ adapter, refresh: [vkid] });",
        "",
      ].join("\n"),
    );
    const tsc = await execa(join(root, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], {
      cwd: dir,
      reject: false,
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.exitCode).toBe(0);
  }, 120_000);
});
