/**
 * Access-token rotation of a VK ID account, as add-provider social --flow vkid
 * --refresh-tokens and init generate it, through the real Auth() against the
 * fake VK ID (fake-vkid.ts: a refresh wants the sign-in's device_id and a
 * state, and every refresh token is good once). The app is the one init
 * writes (rotation-app.ts) with the generated VK ID module; token-rotation.ts
 * knows no provider by name: it calls the module's own refreshTokens because
 * the provider config carries it. The clock moves past the hour a VK ID
 * access token lives.
 */
import { customFetch } from "@auth/core";
import { describe, expect, test, vi } from "vitest";
import { vkDomains } from "../../src/families/social.js";
import { routeFetch } from "../e2e/auth-harness.js";
import { useCleanup } from "../e2e/cleanup.js";
import { type FakeVkId, startFakeVkId, type VkIdUser } from "../e2e/fake-vkid.js";
import { type Handler, rotationApp } from "./rotation-app.js";

const clientId = "52345678";
const user: VkIdUser = {
  user_id: 7_654_321,
  first_name: "Olga",
  last_name: "Smirnova",
  avatar: "https://sun9-1.userapi.com/olga.jpg",
  email: "olga@example.com",
};
const TIMEOUT = 60_000;
/** VK ID's access tokens live an hour; the rotation refreshes 10 s early. */
const untilExpired = () => vi.setSystemTime(Date.now() + 3600 * 1000);

describe("generated token rotation of a VK ID account through Auth()", () => {
  const defer = useCleanup();

  async function app(strategy: "jwt" | "database") {
    const fake = await startFakeVkId({ clientId, user });
    defer(() => fake.close());
    const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
    defer(route.restore);
    let vkId: { withVkIdCallback(handler: Handler): Handler; vkIdFetch(send?: typeof fetch): typeof fetch };
    const a = await rotationApp({
      defer,
      provider: ["social", { flow: "vkid" }, { tokens: { refresh: true, federatedLogout: false } }],
      env: {
        AUTH_VK_ID: clientId,
        AUTH_SECRET: "e2e-secret-that-is-long-enough-for-jose-0123456789",
        AUTH_TRUST_HOST: "true",
      },
      strategy,
      account: { provider: "vk", providerAccountId: String(user.user_id) },
      rewrite: route.rewrite,
      // The app's auth route, run inside withVkIdCallback() as the module's header says.
      handler: async (auth, loaded) => {
        vkId = await loaded.module<typeof vkId>("providers/vk.ts");
        return vkId.withVkIdCallback(auth);
      },
    });
    return { ...a, fake, route, vkId: vkId! };
  }

  const refreshesOf = (fake: FakeVkId) => fake.log.filter((e) => e.form.grant_type === "refresh_token");
  const deviceIdIn = (state: unknown) => (JSON.parse(String(state)) as { device_id?: string }).device_id;

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    test(
      "a read after expiry refreshes with the sign-in's device_id, stores the new refresh token and keeps session_state; two simultaneous reads refresh once",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const first = await a.stored();
        expect(first.refresh_token).toBe(a.fake.issued.refresh[0]);
        // JSON text, which every generated adapter keeps as it is (a text column as well as a JSON one).
        expect(deviceIdIn(first.session_state)).toBe(a.fake.deviceIds[0]);

        // Not expired: a read leaves the tokens alone.
        expect(await a.readSession()).toMatchObject({ user: { email: user.email } });
        expect(refreshesOf(a.fake)).toEqual([]);

        untilExpired();
        const [one, two] = await Promise.all([a.readSession(), a.readSession()]);
        expect(one).not.toHaveProperty("error");
        expect(two).not.toHaveProperty("error");
        const refreshes = refreshesOf(a.fake);
        expect(refreshes).toHaveLength(1);
        expect(refreshes[0]).toMatchObject({ status: 200, path: "/oauth2/auth" });
        expect(refreshes[0]!.form).toMatchObject({
          refresh_token: a.fake.issued.refresh[0],
          device_id: a.fake.deviceIds[0],
          client_id: clientId,
        });
        expect(refreshes[0]!.form.state).toMatch(/^[\w-]{32}$/);

        const second = await a.stored();
        expect(second.access_token).toBe(a.fake.issued.access[1]);
        expect(second.refresh_token).toBe(a.fake.issued.refresh[1]);
        expect(second.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);
        expect(second.session_state).toEqual(first.session_state);
        expect(await a.generatedConfig.getAccessToken(await a.userId(), "vk")).toBe(a.fake.issued.access[1]);

        // The next hour: the rotated refresh token (the first is spent at VK ID) with the same device_id.
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshesOf(a.fake).map((e) => [e.status, e.form.refresh_token, e.form.device_id])).toEqual([
          [200, a.fake.issued.refresh[0], a.fake.deviceIds[0]],
          [200, a.fake.issued.refresh[1], a.fake.deviceIds[0]],
        ]);
        expect((await a.stored()).refresh_token).toBe(a.fake.issued.refresh[2]);
      },
      TIMEOUT,
    );
  });

  test(
    "two processes sharing the stored account present the refresh token once (the lease)",
    async () => {
      const a = await app("database");
      await a.signIn();
      untilExpired();
      const other = await a.secondProcess();
      const id = await a.userId();
      const [mine, theirs] = await Promise.all([
        a.generatedConfig.getAccessToken(id, "vk"),
        other.getAccessToken(id, "vk"),
      ]);
      expect(mine).toBe(a.fake.issued.access[1]);
      expect(theirs).toBe(mine);
      expect(refreshesOf(a.fake).map((e) => e.status)).toEqual([200]);
    },
    TIMEOUT,
  );

  test(
    "the refresh goes through the provider's customFetch, never the global fetch",
    async () => {
      const a = await app("database");
      await a.signIn();
      a.route.restore();
      const network = globalThis.fetch;
      const leaked: string[] = [];
      globalThis.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        if (url.hostname.endsWith("vk.ru")) {
          leaked.push(url.pathname);
          return Promise.reject(new Error(`global fetch to ${url.href}`));
        }
        return network(input, init);
      };
      defer(() => {
        globalThis.fetch = network;
      });
      const sent: string[] = [];
      const provider = a.config.providers[0] as unknown as Record<symbol, typeof fetch>;
      provider[customFetch] = a.vkId.vkIdFetch(async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        sent.push(`${init?.method ?? "GET"} ${url.host}${url.pathname}`);
        return network(a.route.rewrite(url).href, init);
      });
      untilExpired();
      expect(await a.readSession()).not.toHaveProperty("error");
      expect(leaked).toEqual([]);
      expect(sent).toEqual(["POST id.vk.ru/oauth2/auth"]);
      expect((await a.stored()).refresh_token).toBe(a.fake.issued.refresh[1]);
    },
    TIMEOUT,
  );

  test(
    "a later sign-in's device_id replaces the stored one, so the next refresh sends the device_id its refresh token belongs to",
    async () => {
      const a = await app("database");
      await a.signIn();
      await a.signIn();
      expect(a.fake.deviceIds).toHaveLength(2);
      const stored = await a.stored();
      expect(stored.refresh_token).toBe(a.fake.issued.refresh[1]);
      expect(deviceIdIn(stored.session_state)).toBe(a.fake.deviceIds[1]);
      untilExpired();
      expect(await a.readSession()).not.toHaveProperty("error");
      expect(refreshesOf(a.fake).map((e) => [e.status, e.form.device_id])).toEqual([[200, a.fake.deviceIds[1]]]);
    },
    TIMEOUT,
  );

  test(
    "a refresh VK ID refuses for good (invalid_grant) sets session.error, is sent once, and the next sign-in refreshes again",
    async () => {
      const a = await app("database");
      await a.signIn();
      const before = await a.stored();
      // VK ID no longer knows the refresh token (the user revoked the app's access, say).
      const tokens = a.adapter as unknown as { updateAccount(account: Record<string, string>): Promise<unknown> };
      await tokens.updateAccount({ provider: "vk", providerAccountId: String(user.user_id), refresh_token: "gone" });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      defer(() => logged.mockRestore());
      untilExpired();
      expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
      expect(logged.mock.calls.join("\n")).toMatch(/vk refused the refresh \(VK ID refresh failed: .*invalid/);
      // The refused refresh token is dropped (its own refresh's error code said invalid_grant): later reads,
      // however much later, do not send it again; the access token stays as it was.
      untilExpired();
      expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
      expect(refreshesOf(a.fake).map((e) => e.status)).toEqual([400]);
      const dropped = await a.stored();
      expect(dropped.refresh_token ?? undefined).toBeUndefined();
      expect(dropped.access_token).toBe(before.access_token);

      await a.signIn();
      untilExpired();
      expect(await a.readSession()).not.toHaveProperty("error");
      expect(refreshesOf(a.fake).map((e) => e.status)).toEqual([400, 200]);
    },
    TIMEOUT,
  );
});
