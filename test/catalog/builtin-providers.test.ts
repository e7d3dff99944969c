// The catalog of built-in providers against the installed @auth/core: drift fails here, not in users' apps.
import { describe, expect, it } from "vitest";
import { deriveBuiltinProviders, installedCoreVersion } from "../../scripts/builtin-providers.js";
import { builtinExtras } from "../../src/catalog/builtin-provider-extras.js";
import { coreVersion, derivedProviders } from "../../src/catalog/builtin-providers.data.js";
import { builtinProviders, findBuiltin } from "../../src/catalog/builtin-providers.js";
import { providerKinds } from "../../src/families/registry.js";

const regenerate = "run npx tsx scripts/builtin-providers.ts and commit src/catalog/builtin-providers.data.ts";

describe("the built-in provider catalog", () => {
  it("says what the installed @auth/core's provider modules say, provider by provider", async () => {
    const derived = await deriveBuiltinProviders();
    expect(coreVersion, regenerate).toBe(installedCoreVersion());
    const missing = derived.filter((d) => !derivedProviders.some((p) => p.module === d.module)).map((d) => d.module);
    expect(missing, `providers of @auth/core the catalog lacks: ${regenerate}`).toEqual([]);
    expect(derivedProviders, regenerate).toEqual(derived);
  });

  it("derives the env names as setEnvDefaults reads them: the id upper-cased, - turned into _", () => {
    const entra = findBuiltin("microsoft-entra-id")!;
    expect(entra.env).toEqual({
      id: "AUTH_MICROSOFT_ENTRA_ID_ID",
      secret: "AUTH_MICROSOFT_ENTRA_ID_SECRET",
      issuer: "AUTH_MICROSOFT_ENTRA_ID_ISSUER",
    });
    expect(findBuiltin("resend")!.env).toEqual({ key: "AUTH_RESEND_KEY" });
    // The module is ory-hydra, the id (and so the variables) hydra.
    expect(findBuiltin("ory-hydra")).toMatchObject({ id: "hydra", env: { id: "AUTH_HYDRA_ID" } });
    expect(findBuiltin("keycloak")).toMatchObject({ type: "oidc", issuerRequired: true, checks: ["pkce"] });
    expect(findBuiltin("github")).toMatchObject({ type: "oauth", issuerRequired: false });
    expect(findBuiltin("passkey")).toMatchObject({ type: "webauthn", env: {} });
  });

  it("has hand-written options for every provider that needs more than an issuer", () => {
    const lacking = builtinProviders
      .filter((p) => p.needsOwnOptions && !p.options?.some((o) => o.required))
      .map((p) => p.module);
    expect(lacking).toEqual([]);
  });

  it("writes hand-written fields only for providers @auth/core has, and hands names only to real kinds", () => {
    const stale = Object.keys(builtinExtras).filter((m) => !derivedProviders.some((p) => p.module === m));
    expect(stale).toEqual([]);
    for (const p of builtinProviders.filter((b) => b.servedBy)) expect(providerKinds).toContain(p.servedBy);
    for (const p of builtinProviders.filter((b) => b.console)) expect(p.console).toMatch(/^https:\/\//);
  });
});
