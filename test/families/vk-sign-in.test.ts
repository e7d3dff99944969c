/**
 * The generated `social` (VK) provider signs a user in through the real
 * Auth() against a fake VK that is as picky as the real one (fake-vk.ts):
 * version pinned on every call, no PKCE, no token_type, profile in
 * `response[0]`. The generated module is used exactly as written, on VK's
 * vk.ru hosts by default or the vk.com ones under --domain vk.com.
 */
import { customFetch } from "@auth/core";
import type { OAuthConfig } from "@auth/core/providers";
import VK from "@auth/core/providers/vk";
import { describe, expect, test, vi } from "vitest";
import { type VkDomain, vkDomains } from "../../src/families/social.js";
import { AFTER_SIGN_IN, blockRealHosts, callbackUrlFor, explain, routeFetch, signIn } from "../e2e/auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "../e2e/cleanup.js";
import { type FakeVk, startFakeVk, type VkUser } from "../e2e/fake-vk.js";
import { generated, withEnv } from "../e2e/provider-module.js";

const client = { clientId: "51234567", clientSecret: "vk-app-secret" };
const user: VkUser = {
  id: 1_234_567,
  first_name: "Ivan",
  last_name: "Petrov",
  photo_100: "https://sun9-1.userapi.com/c1/photo_100.jpg",
  email: "ivan.petrov@example.com",
};
const env = { AUTH_VK_ID: client.clientId, AUTH_VK_SECRET: client.clientSecret };

describe("generated VK provider through Auth()", () => {
  const defer = useCleanup();

  /**
   * A fake VK that only speaks `expects`, with VK's hosts on `domain` routed to it for Auth.js (server side)
   * and the browser; VK's hosts on any other domain are refused, so a config naming them fails.
   */
  async function vkSpeaking(expects: string, vkUser: VkUser = user, domain: VkDomain = "vk.ru") {
    const fake = await startFakeVk({ ...client, apiVersion: expects, user: vkUser });
    defer(() => fake.close());
    const route = routeFetch(
      { [`https://oauth.${domain}`]: fake.oauthOrigin, [`https://api.${domain}`]: fake.apiOrigin },
      { refuse: vkDomains },
    );
    defer(route.restore);
    defer(withEnv(env));
    return { fake, rewrite: route.rewrite, requested: route.requested };
  }

  async function generatedVk(flags: Record<string, unknown>) {
    const loaded = await generated("social", flags);
    defer(loaded.cleanup);
    // Auth.js's env convention, which the generated .env.example documents.
    expect(loaded.snippet.env.map((e) => e.name)).toEqual(expect.arrayContaining(["AUTH_VK_ID", "AUTH_VK_SECRET"]));
    return loaded;
  }

  /** [server, path, v from the query string] of every call the fake saw, in order (§9: the URLs carry v=). */
  const calls = (fake: FakeVk) => fake.log.map((e) => [e.server, e.path, e.query.v]);

  test.each([
    { version: "5.126", flags: {}, strategy: "database" as const, domain: "vk.ru" as const },
    { version: "5.199", flags: { apiVersion: "5.199" }, strategy: "jwt" as const, domain: "vk.ru" as const },
    {
      version: "5.131",
      flags: { apiVersion: "5.131", domain: "vk.com" },
      strategy: "database" as const,
      domain: "vk.com" as const,
    },
  ])(
    "$domain, api version $version ($strategy sessions): user and account reach the adapter, v= on every call",
    async ({ version, flags, strategy, domain }) => {
      const { fake, rewrite, requested } = await vkSpeaking(version, user, domain);
      const { provider } = await generatedVk(flags);

      const result = await signIn({ provider, providerId: "vk", env, strategy, rewrite });

      // The browser landed back in the app with a session.
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.sessionCookie, explain(result)).toBeTruthy();
      expect(result.callback?.href.startsWith(`${callbackUrlFor("vk")}?`)).toBe(true);
      if (strategy === "database") {
        // The cookie is the adapter's session token, pointing at the created user.
        const stored = await result.store.getSessionAndUser!(result.sessionCookie!);
        expect(stored?.user.email).toBe(user.email);
      }

      // The authorization URL Auth.js built from the generated config: real VK host, version, no PKCE.
      const authorize = result.authorizationUrl;
      expect(authorize.origin + authorize.pathname).toBe(`https://oauth.${domain}/authorize`);
      expect(authorize.searchParams.get("v")).toBe(version);
      expect(authorize.searchParams.get("response_type")).toBe("code");
      expect(authorize.searchParams.has("code_challenge")).toBe(false);

      // The adapter got the VK profile mapped (§2.8 → AdapterUser) and the account link.
      expect(result.adapter.createUser).toHaveLength(1);
      expect(result.adapter.createUser[0]).toMatchObject({
        name: "Ivan Petrov",
        email: user.email,
        image: user.photo_100,
      });
      expect(result.adapter.linkAccount).toHaveLength(1);
      const account = result.adapter.linkAccount[0]!;
      expect(account).toMatchObject({
        provider: "vk",
        type: "oauth",
        providerAccountId: String(user.id),
        access_token: fake.issuedTokens[0],
      });
      expect(typeof account.providerAccountId).toBe("string");

      // §9: v=<api_version> on the authorize, access_token and users.get calls, each on its own host.
      expect(calls(fake)).toEqual([
        ["oauth", "/authorize", version],
        ["oauth", "/access_token", version],
        ["api", "/method/users.get", version],
      ]);
      expect(requested).toEqual([`oauth.${domain}/access_token`, `api.${domain}/method/users.get`]);
      expect(
        fake.log.every((e) => e.error === undefined),
        JSON.stringify(fake.log, null, 1),
      ).toBe(true);
      expect(fake.log[2]!.query.fields?.split(",")).toContain("photo_100");
    },
    FLOW_TIMEOUT,
  );

  test.each(vkDomains)(
    "--domain %s: every endpoint follows the provider's settings and customFetch, repointed at a local VK as a user would; nothing leaves for VK",
    async (domain) => {
      const fake = await startFakeVk({ ...client, apiVersion: "5.131", user });
      defer(() => fake.close());
      defer(withEnv(env));
      const flags = domain === "vk.ru" ? { apiVersion: "5.131" } : { apiVersion: "5.131", domain };
      const { provider } = await generatedVk(flags);
      const { leaked, sent, recording, restore } = blockRealHosts(...vkDomains);
      defer(restore);
      const vk = provider as OAuthConfig<Record<string, unknown>>;
      const endpoint = (value: unknown) => new URL(typeof value === "string" ? value : (value as { url: string }).url);
      // What the generated module names before it is repointed: VK's hosts on the chosen domain.
      expect([vk.authorization, vk.token, vk.userinfo].map((e) => endpoint(e).host)).toEqual([
        `oauth.${domain}`,
        `oauth.${domain}`,
        `api.${domain}`,
      ]);
      /** The same path and query (v= included) on the local fake. */
      const local = (value: unknown, origin: string) => {
        const url = endpoint(value);
        return `${origin}${url.pathname}${url.search}`;
      };
      const repointed = {
        ...vk,
        authorization: local(vk.authorization, fake.oauthOrigin),
        token: { ...(vk.token as object), url: local(vk.token, fake.oauthOrigin) },
        userinfo: { ...(vk.userinfo as object), url: local(vk.userinfo, fake.apiOrigin) },
        [customFetch]: recording,
      } as typeof vk;

      const result = await signIn({ provider: repointed, providerId: "vk", env });

      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.authorizationUrl.origin).toBe(fake.oauthOrigin);
      expect(sent).toEqual(["/access_token", "/method/users.get"]);
      expect(leaked).toEqual([]);
      expect(calls(fake)).toEqual([
        ["oauth", "/authorize", "5.131"],
        ["oauth", "/access_token", "5.131"],
        ["api", "/method/users.get", "5.131"],
      ]);
      expect(result.adapter.createUser[0]).toMatchObject({ email: user.email, name: "Ivan Petrov" });
    },
    FLOW_TIMEOUT,
  );

  test(
    "VK's real data signs in: arrays for career and military, a boolean is_no_index, an odd optional field left out, no email granted",
    async () => {
      const { email: _, ...withoutEmail } = user;
      const real: VkUser = {
        ...withoutEmail,
        extra: {
          career: [
            { company: "VK", from: 2015, until: 2020 },
            { company: "Self", from: 2020 },
          ],
          military: [{ country_id: 1, unit: "1", unit_id: 1 }],
          is_no_index: true,
          city: { id: 1 },
        },
      };
      const { rewrite } = await vkSpeaking("5.126", real);
      const { provider } = await generatedVk({});
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      defer(() => warn.mockRestore());

      const result = await signIn({ provider, providerId: "vk", env, rewrite });

      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.adapter.createUser).toHaveLength(1);
      expect(result.adapter.createUser[0]).toMatchObject({ name: "Ivan Petrov", image: user.photo_100 });
      expect(result.adapter.createUser[0]!.email).toBeFalsy();
      // city without its title: left out and said once; the real shapes kept.
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        '[auth] VK users.get: left out "city", which came as an object, not in the shape expected',
      ]);
    },
    FLOW_TIMEOUT,
  );

  test(
    "a config pinned to another version than the provider expects does not sign in",
    async () => {
      const { fake, rewrite } = await vkSpeaking("5.126");
      const { provider } = await generatedVk({ apiVersion: "5.199" });

      const result = await signIn({ provider, providerId: "vk", env, rewrite });

      // VK refused at the first call, and the fake logged the version it was sent.
      expect(fake.log[0]).toMatchObject({
        server: "oauth",
        path: "/authorize",
        query: { v: "5.199" },
        status: 400,
      });
      expect(fake.log[0]!.error).toMatch(/version is invalid/);
      expect(fake.log).toHaveLength(1);
      // The sign-in never completed: no callback, no token, nothing stored, no session.
      expect(result.callback).toBeUndefined();
      expect(result.stoppedAt?.status).toBe(400);
      expect(fake.issuedTokens).toEqual([]);
      expect(result.adapter.createUser).toEqual([]);
      expect(result.adapter.linkAccount).toEqual([]);
      expect(result.sessionCookie).toBeUndefined();
    },
    FLOW_TIMEOUT,
  );

  test(
    "control: the stock @auth/core VK provider (PKCE on, no token_type fix) is refused by the fake",
    async () => {
      // Proves the fake is strict enough to catch what the generator must fix: same version as the stock provider (5.131).
      // The stock provider still names VK's vk.com hosts.
      const { fake, rewrite } = await vkSpeaking("5.131", user, "vk.com");
      const result = await signIn({ provider: VK({}), providerId: "vk", env, rewrite });

      expect(fake.log[0]).toMatchObject({
        path: "/authorize",
        query: { v: "5.131" },
        error: "Code challenge method is unsupported",
      });
      expect(result.callback).toBeUndefined();
      expect(result.adapter.createUser).toEqual([]);
      expect(result.sessionCookie).toBeUndefined();
    },
    FLOW_TIMEOUT,
  );

  test(
    "control: with PKCE off but no token_type fix, the stock provider still fails at the token response",
    async () => {
      const { fake, rewrite } = await vkSpeaking("5.131", user, "vk.com");
      const result = await signIn({ provider: VK({ checks: ["state"] }), providerId: "vk", env, rewrite });

      // VK issued a token, but oauth4webapi rejected the response for its missing token_type.
      expect(calls(fake)).toEqual([
        ["oauth", "/authorize", "5.131"],
        ["oauth", "/access_token", "5.131"],
      ]);
      expect(fake.issuedTokens).toHaveLength(1);
      expect(result.errors.join("\n")).toMatch(/token_type/);
      expect(result.adapter.createUser).toEqual([]);
      expect(result.sessionCookie).toBeUndefined();
    },
    FLOW_TIMEOUT,
  );
});
