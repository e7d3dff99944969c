// The auth config init writes: its shape and the adapter it imports (its types: config.typecheck.test.ts).
import { describe, expect, it } from "vitest";
import { specifier } from "../../src/render/modules.js";
import { backends } from "../../src/storage/registry.js";
import { planStorage } from "../support/storage.js";
import { renderConfig as render } from "./config-project.js";

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
