/**
 * Access-token rotation of a VK ID account, as add-provider social --flow vkid
 * --refresh-tokens and init generate it, through the real Auth() against the
 * fake VK ID (fake-vkid.ts: a refresh wants the sign-in's device_id and a
 * state, and every refresh token is good once). The config is the one init
 * writes, with the generated VK ID module, the in-memory adapter and
 * token-rotation.ts, which knows no provider by name: it calls the module's
 * own refreshTokens because the provider config carries it. The clock moves
 * past the hour a VK ID access token lives.
 */
import { Auth, type AuthConfig, customFetch, setEnvDefaults } from "@auth/core";
import { describe, expect, test, vi } from "vitest";
import { vkDomains } from "../../src/families/social.js";
import { plainConfig } from "../../src/frameworks/framework.js";
import { generateConfig } from "../../src/planners/auth-config.js";
import { renderTemplate } from "../../src/render/templates.js";
import { AFTER_SIGN_IN, APP_ORIGIN, BASE_PATH, routeFetch } from "../e2e/auth-harness.js";
import { Browser } from "../e2e/browser.js";
import { useCleanup } from "../e2e/cleanup.js";
import { type FakeVkId, startFakeVkId, type VkIdUser } from "../e2e/fake-vkid.js";
import { generated, withEnv, writeModule } from "../e2e/provider-module.js";

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

interface StoredAccount {
  access_token?: string;
  refresh_token?: string;
  expires_at?: number;
  session_state?: unknown;
}

type Handler = (request: Request) => Promise<Response>;

describe("generated token rotation of a VK ID account through Auth()", () => {
  const defer = useCleanup();

  async function app(strategy: "jwt" | "database") {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    defer(() => vi.useRealTimers());
    const fake = await startFakeVkId({ clientId, user });
    defer(() => fake.close());
    const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
    defer(route.restore);
    const env = {
      AUTH_VK_ID: clientId,
      AUTH_SECRET: "e2e-secret-that-is-long-enough-for-jose-0123456789",
      AUTH_TRUST_HOST: "true",
    };
    defer(withEnv(env));
    const loaded = await generated("social", { flow: "vkid" }, { tokens: { refresh: true, federatedLogout: false } });
    defer(loaded.cleanup);
    const files = await generateConfig({
      configPath: "app-auth.ts",
      providers: [loaded.snippet],
      adapterPath: "auth/adapter.ts",
      session: strategy,
      storage: "memory",
      importExtension: ".js",
      verifyCommand: "npm run verify-adapter",
      shape: plainConfig({ options: [`basePath: ${JSON.stringify(BASE_PATH)},`] }),
    });
    writeModule(loaded.dir, "auth/adapter.ts", await renderTemplate("adapters/memory.ts.hbs", {}));
    for (const file of files.filter((f) => !f.path.startsWith("providers/")))
      writeModule(loaded.dir, file.path, file.contents);
    const generatedConfig = await loaded.module<{
      authConfig: AuthConfig;
      getAccessToken(userId: string, provider: string): Promise<string | null>;
    }>("app-auth.ts");
    const vkId = await loaded.module<{
      withVkIdCallback(handler: Handler): Handler;
      vkIdFetch(send?: typeof fetch): typeof fetch;
    }>("providers/vk.ts");
    const adapter = generatedConfig.authConfig.adapter!;
    const errors: string[] = [];
    const config: AuthConfig = {
      ...generatedConfig.authConfig,
      trustHost: true,
      basePath: BASE_PATH,
      logger: { error: (e) => void errors.push(String(e)), warn: () => {}, debug: () => {} },
    };
    setEnvDefaults(env, config);
    // The app's auth route, run inside withVkIdCallback() as the module's header says.
    const handle = vkId.withVkIdCallback((request: Request) => Auth(request, config));
    const browser = new Browser({ origin: APP_ORIGIN, handle }, route.rewrite);

    const stored = async () => (await adapter.getAccount!(String(user.user_id), "vk")) as unknown as StoredAccount;
    const userId = async () =>
      (await adapter.getUserByAccount!({ provider: "vk", providerAccountId: String(user.user_id) }))!.id;

    async function signIn() {
      const csrf = (await (await browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as { csrfToken: string };
      const start = await browser.request(`${APP_ORIGIN}${BASE_PATH}/signin/vk`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: AFTER_SIGN_IN }),
      });
      const leftAuth = (next: URL) => next.origin === APP_ORIGIN && !next.pathname.startsWith(BASE_PATH);
      const { url } = await browser.follow(start, `${APP_ORIGIN}${BASE_PATH}/signin/vk`, leftAuth);
      expect(url.href, `${browser.trace()}\n${errors.join("\n")}`).toBe(AFTER_SIGN_IN);
    }

    async function readSession() {
      return (await (await browser.request(`${APP_ORIGIN}${BASE_PATH}/session`)).json()) as {
        error?: string;
        user?: { email?: string };
      };
    }

    return { fake, route, adapter, config, generatedConfig, vkId, stored, userId, signIn, readSession, loaded };
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
      const rotationUrl = new URL("auth/token-rotation.js", `file://${a.loaded.dir}/`).href;
      const { createTokenRotation } = await import(`${rotationUrl}?second-process`);
      const other = createTokenRotation({ adapter: a.adapter, refresh: [a.config.providers[0]] });
      const id = await a.userId();
      const [mine, theirs] = await Promise.all([
        a.generatedConfig.getAccessToken(id, "vk"),
        other.getAccessToken(id, "vk") as Promise<string | null>,
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
    "a refused refresh sets session.error and leaves the stored tokens for the next sign-in",
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
      expect((await a.stored()).access_token).toBe(before.access_token);
    },
    TIMEOUT,
  );
});
