/**
 * The generated `oidc` provider signs a user in through the real Auth()
 * against a real OpenID Provider (oidc-provider) on loopback: discovery,
 * PKCE, client_secret_basic, a signed id_token and its claims.
 */
import { describe, expect, test } from "vitest";
import { AFTER_SIGN_IN, callbackUrlFor, explain, type SignInResult, signIn } from "../e2e/auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "../e2e/cleanup.js";
import { type OidcAccount, type OidcServer, type OidcServerOptions, startOidcServer } from "../e2e/oidc-server.js";
import { generated, withEnv } from "../e2e/provider-module.js";

const client = { clientId: "corp-portal", clientSecret: "corp-portal-secret" };
const account: OidcAccount = {
  sub: "248289761001",
  email: "Jane.Doe@Corp.example",
  name: "Jane Doe",
  picture: "https://corp.example/jane.png",
};
const byIssuer = (issuer: string) => ({ id: "corp", name: "Corp SSO", issuer });
const byWellKnown = (issuer: string) => ({
  id: "corp",
  wellKnown: new URL(".well-known/openid-configuration", issuer.endsWith("/") ? issuer : `${issuer}/`).href,
});

describe("generated OIDC provider through Auth()", () => {
  const defer = useCleanup();

  async function run(flags: (issuer: string) => Record<string, unknown>, op: Partial<OidcServerOptions> = {}) {
    const server = await startOidcServer({ ...client, redirectUri: callbackUrlFor("corp"), account, ...op });
    defer(() => server.close());
    const env = { AUTH_CORP_ID: client.clientId, AUTH_CORP_SECRET: client.clientSecret };
    defer(withEnv(env));
    const loaded = await generated("oidc", flags(server.issuer));
    defer(loaded.cleanup);
    expect(loaded.snippet.env.map((e) => e.name)).toEqual(expect.arrayContaining(["AUTH_CORP_ID", "AUTH_CORP_SECRET"]));
    return { server, result: await signIn({ provider: loaded.provider, providerId: "corp", env }) };
  }

  function expectSignedIn(server: OidcServer, result: SignInResult) {
    expect(result.finalLocation, `${explain(result)}\nOP errors: ${server.errors.join(" | ")}`).toBe(AFTER_SIGN_IN);
    expect(result.sessionCookie).toBeTruthy();
    // The OP accepted the client credentials and the code_verifier (oidc-provider checks PKCE itself).
    expect(server.exchanges).toEqual([{ clientId: client.clientId, codeVerifier: true }]);
    expect(server.errors).toEqual([]);
    // Profile claims → AdapterUser (Auth.js lower-cases the email), and the account link.
    expect(result.adapter.createUser).toHaveLength(1);
    expect(result.adapter.createUser[0]).toMatchObject({
      email: account.email.toLowerCase(),
      name: account.name,
      image: account.picture,
    });
    expect(result.adapter.linkAccount).toHaveLength(1);
    expect(result.adapter.linkAccount[0]).toMatchObject({
      provider: "corp",
      type: "oidc",
      providerAccountId: account.sub,
      token_type: "bearer",
    });
    expect(result.adapter.linkAccount[0]!.id_token).toEqual(expect.any(String));
  }

  test.each([
    { how: "--issuer", flags: byIssuer, op: {} },
    { how: "--well-known", flags: byWellKnown, op: {} },
    // Auth0-style issuer identifier "https://tenant.example/": the derived issuer must still match discovery.
    { how: "--well-known, issuer with trailing slash", flags: byWellKnown, op: { issuerTrailingSlash: true } },
  ])(
    "from $how: user and oidc account reach the adapter",
    async ({ flags, op }) => {
      const { server, result } = await run(flags, op);
      expectSignedIn(server, result);
      // The browser went to the OP's discovered authorization endpoint with the default PKCE (S256) and the OIDC scope.
      expect(result.authorizationUrl.origin + result.authorizationUrl.pathname).toBe(
        new URL("/auth", server.issuer).href,
      );
      expect(result.authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(result.authorizationUrl.searchParams.get("scope")?.split(" ")).toEqual(
        expect.arrayContaining(["openid", "email", "profile"]),
      );
      expect(server.logins).toEqual([
        { clientId: client.clientId, scope: expect.stringContaining("openid"), prompt: "login" },
      ]);
    },
    FLOW_TIMEOUT,
  );

  /*
   * An OP that follows OIDC Core §5.4 (oidc-provider's default) puts email,
   * name and picture at userinfo, not in the id_token. The generated config
   * sets `idToken: false` so Auth.js reads the userinfo endpoint (its sub
   * checked against the id_token): the profile still reaches the adapter.
   */
  test(
    "against a spec-conformant OP (profile claims only at userinfo): email and name still reach the adapter",
    async () => {
      const { result } = await run(byIssuer, { profileClaimsIn: "userinfo" });
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.adapter.createUser[0]).toMatchObject({
        email: account.email.toLowerCase(),
        name: account.name,
        image: account.picture,
      });
    },
    FLOW_TIMEOUT,
  );
});
