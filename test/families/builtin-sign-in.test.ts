/**
 * Generated modules of Auth.js's built-in providers sign a user in through
 * the real Auth() against servers on loopback, each pointed there the way a
 * user could: an issuer flag for the OIDC ones (Google, Keycloak), the
 * endpoints spread over the module's export for an OAuth 2 one (Discord).
 */
import type { OAuthConfig } from "@auth/core/providers";
import { describe, expect, test } from "vitest";
import { findBuiltin } from "../../src/catalog/builtin-providers.js";
import { parseBuiltin, planBuiltin } from "../../src/families/builtin.js";
import { AFTER_SIGN_IN, callbackUrlFor, explain, signIn } from "../e2e/auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "../e2e/cleanup.js";
import { startFakeGitHub } from "../e2e/fake-github.js";
import { startFakeOAuth } from "../e2e/fake-oauth.js";
import { startOidcServer } from "../e2e/oidc-server.js";
import { importSnippet, withEnv } from "../e2e/provider-module.js";

const client = { clientId: "app-client", clientSecret: "app-client-secret" };

async function generatedBuiltin(module: string, flags: Record<string, unknown> = {}) {
  const entry = findBuiltin(module)!;
  const snippet = await planBuiltin(entry, parseBuiltin(entry, flags), { importExtension: ".js" });
  return importSnippet(snippet);
}

describe("built-in providers through Auth()", () => {
  const defer = useCleanup();

  test.each([
    { module: "google", id: "google", prefix: "AUTH_GOOGLE" },
    { module: "keycloak", id: "keycloak", prefix: "AUTH_KEYCLOAK" },
  ])(
    "$module (OIDC, a signed id_token) with --issuer on a local OpenID Provider",
    async ({ module, id, prefix }) => {
      const account = {
        sub: "1029384756",
        email: "ada@example.com",
        name: "Ada Lovelace",
        picture: "https://example.com/ada.png",
      };
      const server = await startOidcServer({ ...client, redirectUri: callbackUrlFor(id), account });
      defer(() => server.close());
      const env = { [`${prefix}_ID`]: client.clientId, [`${prefix}_SECRET`]: client.clientSecret };
      defer(withEnv(env));
      const loaded = await generatedBuiltin(module, { issuer: server.issuer });
      defer(loaded.cleanup);
      expect(loaded.sources[`providers/${id}.ts`]).toContain(
        `process.env.${prefix}_ISSUER || ${JSON.stringify(server.issuer)}`,
      );
      const result = await signIn({ provider: loaded.provider, providerId: id, env });
      expect(result.finalLocation, `${explain(result)}\nOP errors: ${server.errors.join(" | ")}`).toBe(AFTER_SIGN_IN);
      expect(server.exchanges).toEqual([{ clientId: client.clientId, codeVerifier: true }]);
      expect(result.adapter.createUser[0]).toMatchObject({ email: account.email, name: account.name });
      expect(result.adapter.linkAccount[0]).toMatchObject({
        provider: id,
        type: "oidc",
        providerAccountId: account.sub,
      });
      expect(result.adapter.linkAccount[0]!.id_token).toEqual(expect.any(String));
    },
    FLOW_TIMEOUT,
  );

  test(
    "discord (OAuth 2 with PKCE): its endpoints spread over the generated export, pointed at a local server",
    async () => {
      const profile = {
        id: "80351110224678912",
        username: "nelly",
        global_name: "Nelly",
        email: "nelly@example.com",
        avatar: null,
        discriminator: "0",
      };
      const server = await startFakeOAuth({ ...client, redirectUri: callbackUrlFor("discord"), profile });
      defer(() => server.close());
      const env = { AUTH_DISCORD_ID: client.clientId, AUTH_DISCORD_SECRET: client.clientSecret };
      defer(withEnv(env));
      const loaded = await generatedBuiltin("discord");
      defer(loaded.cleanup);
      const discord = loaded.provider as OAuthConfig<Record<string, unknown>>;
      // What a user writes to send Discord's requests elsewhere (a proxy, a test server).
      const pointed: OAuthConfig<Record<string, unknown>> = {
        ...discord,
        authorization: { url: `${server.origin}/authorize`, params: { scope: "identify email" } },
        token: `${server.origin}/token`,
        userinfo: `${server.origin}/userinfo`,
      };
      const result = await signIn({ provider: pointed, providerId: "discord", env });
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(server.pkce).toEqual([expect.objectContaining({ code_challenge_method: "S256", verified: true })]);
      expect(result.adapter.createUser[0]).toMatchObject({ email: profile.email, name: "Nelly" });
      expect(result.adapter.linkAccount[0]).toMatchObject({ provider: "discord", providerAccountId: profile.id });
    },
    FLOW_TIMEOUT,
  );

  test(
    "github (OAuth 2) with --enterprise-url: no public email, so the primary one comes from /user/emails",
    async () => {
      const user = { id: 583231, login: "octocat", name: "The Octocat" };
      const emails = [
        { email: "octo@work.example", primary: false, verified: true },
        { email: "octocat@example.com", primary: true, verified: true },
      ];
      const server = await startFakeGitHub({ ...client, redirectUri: callbackUrlFor("github"), user, emails });
      defer(() => server.close());
      const env = { AUTH_GITHUB_ID: client.clientId, AUTH_GITHUB_SECRET: client.clientSecret };
      defer(withEnv(env));
      const loaded = await generatedBuiltin("github", { enterpriseUrl: server.origin });
      defer(loaded.cleanup);
      expect(loaded.sources["providers/github.ts"]).toContain(
        `enterprise: { baseUrl: ${JSON.stringify(server.origin)} },`,
      );
      const result = await signIn({ provider: loaded.provider, providerId: "github", env });
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(server.requests).toEqual([
        "GET /login/oauth/authorize",
        "POST /login/oauth/access_token",
        "GET /api/v3/user",
        "GET /api/v3/user/emails",
      ]);
      expect(result.adapter.createUser[0]).toMatchObject({ email: "octocat@example.com", name: user.name });
      expect(result.adapter.linkAccount[0]).toMatchObject({ provider: "github", providerAccountId: String(user.id) });
    },
    FLOW_TIMEOUT,
  );
});
