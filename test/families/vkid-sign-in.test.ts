/**
 * The generated VK ID provider (add-provider social --flow vkid) signs a user
 * in through the real Auth() against a fake VK ID written from VK's API
 * reference (fake-vkid.ts): PKCE S256 and state at /authorize, the device_id
 * of the callback back at the token exchange, user_info as a POST, the
 * refresh token stored and usable. The generated module is used as written.
 */
import { customFetch } from "@auth/core";
import type { OAuthConfig } from "@auth/core/providers";
import { describe, expect, test, vi } from "vitest";
import { type VkDomain, vkDomains } from "../../src/families/social.js";
import { AFTER_SIGN_IN, blockRealHosts, callbackUrlFor, explain, routeFetch, signIn } from "../e2e/auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "../e2e/cleanup.js";
import { startFakeVkId, type VkIdUser } from "../e2e/fake-vkid.js";
import { generated, withEnv } from "../e2e/provider-module.js";

const clientId = "52345678";
const env = { AUTH_VK_ID: clientId };
const user: VkIdUser = {
  user_id: 1_234_567,
  first_name: "Ivan",
  last_name: "Petrov",
  avatar: "https://sun9-1.userapi.com/avatar.jpg",
  email: "ivan.petrov@example.com",
};

type Handler = (request: Request) => Promise<Response>;
interface VkIdModule {
  vk: OAuthConfig<Record<string, unknown>>;
  withVkIdCallback(handler: Handler): Handler;
  vkIdFetch(send?: typeof fetch): typeof fetch;
  refreshTokens(
    account: { refresh_token?: string | null; session_state?: unknown },
    provider?: unknown,
  ): Promise<{ access_token: string; refresh_token: string; expires_at: number; scope?: string }>;
}

describe("generated VK ID provider through Auth()", () => {
  const defer = useCleanup();

  async function setUp(vkUser: VkIdUser = user, domain?: VkDomain) {
    const fake = await startFakeVkId({ clientId, user: vkUser });
    defer(() => fake.close());
    defer(withEnv(env));
    const loaded = await generated("social", { flow: "vkid", domain });
    defer(loaded.cleanup);
    // The module's helpers, imported as the app's route file would import them.
    const module = await loaded.module<VkIdModule>("providers/vk.ts");
    return { fake, provider: loaded.provider as VkIdModule["vk"], module };
  }

  test.each(["database", "jwt"] as const)(
    "signs in (%s sessions): PKCE and state, the callback's device_id at the token exchange, tokens stored",
    async (strategy) => {
      const { fake, provider, module } = await setUp();
      const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
      defer(route.restore);

      const result = await signIn({
        provider,
        providerId: "vk",
        env,
        strategy,
        rewrite: route.rewrite,
        wrap: module.withVkIdCallback,
      });

      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.sessionCookie, explain(result)).toBeTruthy();

      // The authorization URL Auth.js built: VK ID's host, PKCE S256, state, the scopes, no secret.
      const authorize = result.authorizationUrl;
      expect(authorize.origin + authorize.pathname).toBe("https://id.vk.ru/authorize");
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
        response_type: "code",
        client_id: clientId,
        redirect_uri: callbackUrlFor("vk"),
        code_challenge_method: "S256",
        scope: "vkid.personal_info email",
      });
      expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      expect(authorize.searchParams.get("state")).toBeTruthy();
      // VK ID came back with the device_id on the callback.
      expect(result.callback?.searchParams.get("device_id")).toBe(fake.deviceIds[0]);

      // The token exchange carried what VK ID asks for, and no client secret.
      expect(fake.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        "GET /authorize 302",
        "POST /oauth2/auth 200",
        "POST /oauth2/user_info 200",
      ]);
      const exchange = fake.log[1]!.form;
      expect(exchange).toMatchObject({
        grant_type: "authorization_code",
        client_id: clientId,
        device_id: fake.deviceIds[0],
        redirect_uri: callbackUrlFor("vk"),
        state: authorize.searchParams.get("state"),
      });
      expect(exchange.code_verifier).toMatch(/^[\w-]{43,128}$/);
      expect(JSON.stringify(fake.log)).not.toMatch(/client_secret/);
      expect(fake.log[2]!.form).toEqual({ client_id: clientId, access_token: fake.issued.access[0] });

      // The user and the account Auth.js stored: VK's user id, the tokens, the device_id to refresh with.
      expect(result.adapter.createUser).toEqual([
        expect.objectContaining({ name: "Ivan Petrov", email: user.email, image: user.avatar }),
      ]);
      expect(result.adapter.linkAccount).toHaveLength(1);
      const account = result.adapter.linkAccount[0]!;
      expect(account).toMatchObject({
        provider: "vk",
        type: "oauth",
        providerAccountId: String(user.user_id),
        access_token: fake.issued.access[0],
        refresh_token: fake.issued.refresh[0],
        id_token: fake.issued.id[0],
        token_type: "bearer",
        scope: "vkid.personal_info email",
        // JSON text: a text column (Prisma, Drizzle) keeps it as well as a JSON one.
        session_state: JSON.stringify({ device_id: fake.deviceIds[0] }),
      });
      expect(account.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);
      if (strategy === "database") {
        const stored = await result.store.getSessionAndUser!(result.sessionCookie!);
        expect(stored?.user.email).toBe(user.email);
      }

      // The stored refresh token works: new tokens, with the device_id; the old refresh token is spent.
      const refreshed = await module.refreshTokens(account);
      expect(refreshed).toMatchObject({ access_token: fake.issued.access[1], refresh_token: fake.issued.refresh[1] });
      expect(fake.log.at(-1)!.form).toMatchObject({
        grant_type: "refresh_token",
        refresh_token: fake.issued.refresh[0],
        device_id: fake.deviceIds[0],
        client_id: clientId,
      });
      await expect(module.refreshTokens(account)).rejects.toThrow(/refresh_token is invalid or was already used/);
      // An account stored by an earlier module version holds session_state as an object: still read.
      const earlier = { refresh_token: refreshed.refresh_token, session_state: { device_id: fake.deviceIds[0] } };
      expect(await module.refreshTokens(earlier)).toMatchObject({ refresh_token: fake.issued.refresh[2] });
      expect(fake.log.at(-1)!.form).toMatchObject({
        device_id: fake.deviceIds[0],
        refresh_token: refreshed.refresh_token,
      });
    },
    FLOW_TIMEOUT,
  );

  test(
    "a user who grants no email still signs in; optional fields of another shape are left out",
    async () => {
      const { fake, provider, module } = await setUp({
        ...user,
        email: undefined,
        extra: { sex: "male", is_verified: true, birthday: "01.01.2000" },
      });
      const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
      defer(route.restore);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      defer(() => warn.mockRestore());
      const result = await signIn({
        provider,
        providerId: "vk",
        env,
        rewrite: route.rewrite,
        wrap: module.withVkIdCallback,
      });
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.adapter.createUser[0]).toMatchObject({ name: "Ivan Petrov", image: user.avatar });
      expect(result.adapter.createUser[0]!.email).toBeFalsy();
      // "sex" came as a string, not VK ID's 0|1|2: left out, said once; the other fields kept.
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        '[auth] VK ID user_info: left out "sex", which came as a string, not in the shape expected',
      ]);
    },
    FLOW_TIMEOUT,
  );

  test.each(vkDomains)(
    "--domain %s: every endpoint follows the provider's settings and customFetch, repointed at a local VK ID as a user would; nothing leaves for VK",
    async (domain) => {
      const { fake, provider, module } = await setUp(user, domain);
      const { leaked, sent, recording, restore } = blockRealHosts(...vkDomains);
      defer(restore);
      // What the generated module names before it is repointed: VK ID on the chosen domain.
      const urlOf = (value: unknown) => (typeof value === "string" ? value : (value as { url: string }).url);
      expect([provider.authorization, provider.token, provider.userinfo].map(urlOf)).toEqual([
        `https://id.${domain}/authorize`,
        `https://id.${domain}/oauth2/auth`,
        `https://id.${domain}/oauth2/user_info`,
      ]);
      const local = (path: string) => `${fake.origin}${path}`;
      const repointed = {
        ...provider,
        authorization: { ...(provider.authorization as object), url: local("/authorize") },
        token: local("/oauth2/auth"),
        userinfo: { ...(provider.userinfo as object), url: local("/oauth2/user_info") },
        [customFetch]: module.vkIdFetch(recording),
      } as VkIdModule["vk"];

      const result = await signIn({ provider: repointed, providerId: "vk", env, wrap: module.withVkIdCallback });

      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
      expect(result.authorizationUrl.origin).toBe(fake.origin);
      expect(sent).toEqual(["/oauth2/auth", "/oauth2/user_info"]);
      expect(leaked).toEqual([]);
      expect(fake.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        "GET /authorize 302",
        "POST /oauth2/auth 200",
        "POST /oauth2/user_info 200",
      ]);
    },
    FLOW_TIMEOUT,
  );

  test("user_info's errors are reported with VK ID's description, not as an empty profile", async () => {
    const { fake, provider } = await setUp();
    const userinfo = provider.userinfo as { request(context: unknown): Promise<unknown> };
    const local = { ...provider, clientId, userinfo: { url: new URL("/oauth2/user_info", fake.origin) } };
    await expect(userinfo.request({ tokens: { access_token: "expired" }, provider: local })).rejects.toThrow(
      "VK ID user_info failed: access_token is invalid",
    );
    expect(fake.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["POST /oauth2/user_info 401"]);
  });

  test(
    "control: without withVkIdCallback the sign-in stops with a message that says what to do, and VK ID refuses a code without its device_id",
    async () => {
      const { fake, provider } = await setUp();
      const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
      defer(route.restore);

      const result = await signIn({ provider, providerId: "vk", env, rewrite: route.rewrite });

      expect(result.errors.join("\n")).toMatch(
        /device_id of the callback did not reach the token request.*withVkIdCallback/,
      );
      expect(fake.issued.access).toEqual([]);
      expect(result.adapter.createUser).toEqual([]);
      expect(result.sessionCookie).toBeUndefined();

      // The fake is as strict as the docs: the same exchange without device_id is refused.
      const second = await signIn({ provider, providerId: "vk", env, rewrite: route.rewrite });
      const code = second.callback!.searchParams.get("code")!;
      const refused = await fetch(`${fake.origin}/oauth2/auth`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          client_id: clientId,
          code_verifier: "x".repeat(43),
          redirect_uri: callbackUrlFor("vk"),
          state: second.callback!.searchParams.get("state")!,
        }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: "invalid_request", error_description: "device_id is required" });
    },
    FLOW_TIMEOUT,
  );
});
