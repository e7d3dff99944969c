/**
 * The generated generic `oauth` provider signs a user in through the real
 * Auth() against a strict OAuth 2.0 server (fake-oauth.ts) that requires
 * PKCE S256 and checks the verifier.
 */
import { describe, expect, test } from "vitest";
import { AFTER_SIGN_IN, callbackUrlFor, explain, signIn } from "../e2e/auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "../e2e/cleanup.js";
import { startFakeOAuth } from "../e2e/fake-oauth.js";
import { generated, withEnv } from "../e2e/provider-module.js";

const client = { clientId: "acme-client", clientSecret: "acme-secret" };
const profile = {
  sub: "acme-user-7",
  name: "Bo Acme",
  email: "bo@acme.example",
  picture: "https://acme.example/avatars/7.png",
};
const env = { AUTH_ACME_ID: client.clientId, AUTH_ACME_SECRET: client.clientSecret };
const explicit = (origin: string) => ({
  authorization: `${origin}/authorize`,
  token: `${origin}/token`,
  userinfo: `${origin}/userinfo`,
});

describe("generated OAuth 2.0 provider through Auth()", () => {
  const defer = useCleanup();

  /** `flags` gets the server's origin; by default the three endpoint URLs are given explicitly. */
  async function setup(flags: (origin: string) => Record<string, unknown> = explicit) {
    const server = await startFakeOAuth({ ...client, redirectUri: callbackUrlFor("acme"), profile });
    defer(() => server.close());
    defer(withEnv(env));
    const loaded = await generated("oauth", { id: "acme", name: "Acme", ...flags(server.origin) });
    defer(loaded.cleanup);
    expect(loaded.snippet.env.map((e) => e.name)).toEqual(expect.arrayContaining(["AUTH_ACME_ID", "AUTH_ACME_SECRET"]));
    return { server, provider: loaded.provider };
  }

  test(
    "default checks (pkce): S256 challenge sent, verifier checked, user and account stored",
    async () => {
      const { server, provider } = await setup();

      const result = await signIn({ provider, providerId: "acme", env });

      expect(result.finalLocation, `${explain(result)}\nserver: ${JSON.stringify(server.log)}`).toBe(AFTER_SIGN_IN);
      expect(result.sessionCookie).toBeTruthy();
      // PKCE end to end: the challenge went out as S256 and the token request's verifier hashed to it.
      expect(server.pkce).toEqual([
        { code_challenge: expect.any(String), code_challenge_method: "S256", verified: true },
      ]);
      const tokenRequest = server.log.find((e) => e.path === "/token");
      expect(tokenRequest?.form.code_verifier).toEqual(expect.any(String));
      expect(server.log.map((e) => [e.path, e.status])).toEqual([
        ["/authorize", 302],
        ["/token", 200],
        ["/userinfo", 200],
      ]);

      expect(result.adapter.createUser).toHaveLength(1);
      expect(result.adapter.createUser[0]).toMatchObject({
        name: profile.name,
        email: profile.email,
        image: profile.picture,
      });
      expect(result.adapter.linkAccount).toHaveLength(1);
      expect(result.adapter.linkAccount[0]).toMatchObject({
        provider: "acme",
        type: "oauth",
        providerAccountId: profile.sub,
        token_type: "bearer",
      });
      expect(result.adapter.linkAccount[0]!.refresh_token).toEqual(expect.any(String));
    },
    FLOW_TIMEOUT,
  );

  test(
    "--checks state (no PKCE) is refused by a PKCE-requiring server and stores nothing",
    async () => {
      // Shows the generated `checks` really drive Auth.js: without pkce no code_challenge is sent.
      const { server, provider } = await setup((origin) => ({ ...explicit(origin), checks: "state" }));

      const result = await signIn({ provider, providerId: "acme", env });

      expect(result.authorizationUrl.searchParams.has("code_challenge")).toBe(false);
      expect(result.authorizationUrl.searchParams.get("state")).toEqual(expect.any(String));
      expect(server.log[0]?.error).toMatch(/code_challenge required/);
      expect(server.log.some((e) => e.path === "/token")).toBe(false);
      // The server sent the browser back with the error; Auth.js refused the callback.
      expect(result.callback?.searchParams.get("error")).toBe("invalid_request");
      expect(result.finalLocation).not.toBe(AFTER_SIGN_IN);
      expect(result.errors.join("\n")).toMatch(/OAuthCallbackError|CallbackRouteError/);
      expect(result.adapter.createUser).toEqual([]);
      expect(result.sessionCookie).toBeUndefined();
    },
    FLOW_TIMEOUT,
  );

  test(
    "--issuer with --token and --userinfo: the authorization endpoint comes from the issuer's metadata",
    async () => {
      const { server, provider } = await setup((origin) => ({
        issuer: origin,
        token: `${origin}/token`,
        userinfo: `${origin}/userinfo`,
      }));

      const result = await signIn({ provider, providerId: "acme", env });

      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(server.log.map((e) => e.path)).toEqual([
        "/.well-known/openid-configuration",
        "/authorize",
        "/token",
        "/userinfo",
      ]);
      expect(server.pkce).toEqual([expect.objectContaining({ code_challenge_method: "S256", verified: true })]);
      expect(result.adapter.linkAccount[0]).toMatchObject({
        provider: "acme",
        type: "oauth",
        providerAccountId: profile.sub,
      });
    },
    FLOW_TIMEOUT,
  );

  /*
   * Auth.js discovers the token endpoint from the issuer only when neither
   * token nor userinfo is set (@auth/core handleOAuth), and --userinfo is
   * required, so `--issuer` alone cannot give the token endpoint: the flags
   * are refused up front, naming --token, instead of failing at the callback.
   */
  test(
    "--issuer with --userinfo but no --token is refused, naming --token",
    async () => {
      await expect(setup((origin) => ({ issuer: origin, userinfo: `${origin}/userinfo` }))).rejects.toThrow(/--token/);
    },
    FLOW_TIMEOUT,
  );
});
