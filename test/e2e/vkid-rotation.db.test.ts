/**
 * A VK ID account's access token rotated on every generated SQL adapter
 * (SQLite, PostgreSQL, MariaDB/MySQL, each on the tables of the generated
 * schema): the sign-in through the real Auth() stores session_state, it comes
 * back from the database in a form the module's refresh reads (the
 * sign-in's device_id), and the generated token rotation refreshes once for
 * two simultaneous callers, storing VK ID's new refresh token and keeping
 * session_state. A refresh token VK ID then refuses for good is dropped from
 * the row, so neither that process nor another one on the same database sends
 * it again. The fake VK ID (fake-vkid.ts) refuses a refresh without the
 * device_id its refresh token was issued with.
 */
import { pathToFileURL } from "node:url";
import type { AdapterAccount } from "@auth/core/adapters";
import type { Provider } from "@auth/core/providers";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { vkDomains } from "../../src/families/social.js";
import { renderTemplate } from "../../src/render/templates.js";
import { tempDir } from "../helpers.js";
import { AFTER_SIGN_IN, explain, routeFetch, signIn } from "./auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "./cleanup.js";
import { startFakeVkId } from "./fake-vkid.js";
import { databases } from "./generated-adapter.js";
import { generated, withEnv, writeModule } from "./provider-module.js";

const clientId = "52345678";
const env = { AUTH_VK_ID: clientId };
const user = { user_id: 3_141_592, first_name: "Anna", last_name: "Ivanova", avatar: "https://vk.example/a.jpg" };
const dbs = databases("create_auth_vkid_rotation");

beforeAll(() => dbs.create(), 60_000);
afterAll(() => dbs.drop());

type Handler = (request: Request) => Promise<Response>;

describe("VK ID token rotation on every generated SQL adapter", () => {
  const defer = useCleanup();

  test.each(["sqlite", "postgres", "mysql"] as const)(
    "%s: the stored device_id refreshes the token once for two callers; the new refresh token is stored, session_state kept; a refused one is dropped for every process",
    async (backend) => {
      vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
      defer(() => vi.useRealTimers());
      const dir = tempDir(`create-auth-vkid-${backend}-`);
      const { adapter, close } = await dbs.adapter(backend, dir);
      defer(close);
      defer(withEnv(env));
      const fake = await startFakeVkId({ clientId, user });
      defer(() => fake.close());
      const route = routeFetch({ "https://id.vk.ru": fake.origin }, { refuse: vkDomains });
      defer(route.restore);
      const loaded = await generated("social", { flow: "vkid" }, { tokens: { refresh: true, federatedLogout: false } });
      defer(loaded.cleanup);
      const { withVkIdCallback } = await loaded.module<{ withVkIdCallback(handler: Handler): Handler }>(
        "providers/vk.ts",
      );

      const result = await signIn({
        provider: loaded.provider,
        providerId: "vk",
        env,
        strategy: "database",
        rewrite: route.rewrite,
        wrap: withVkIdCallback,
        adapter,
      });
      expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);

      const accountId = String(user.user_id);
      const stored = async () => (await adapter.getAccount!(accountId, "vk")) as AdapterAccount;
      const first = await stored();
      // What the database gives back is what was written: the device_id as JSON text.
      expect(first.session_state).toBe(JSON.stringify({ device_id: fake.deviceIds[0] }));
      const userId = (await adapter.getUserByAccount!({ provider: "vk", providerAccountId: accountId }))!.id;

      writeModule(dir, "auth/token-rotation.ts", await renderTemplate("config/token-rotation.ts.hbs", {}));
      type Rotation = { getAccessToken(userId: string, providerId: string): Promise<string | null> };
      /** The generated module as a server process loads it; `process` names another process's own copy. */
      const rotation = async (process = "") => {
        const url = `${pathToFileURL(`${dir}/auth/token-rotation.js`).href}${process && `?${process}`}`;
        const { createTokenRotation } = (await import(url)) as {
          createTokenRotation(options: { adapter: typeof adapter; refresh: Provider[] }): Rotation;
        };
        return createTokenRotation({ adapter, refresh: [loaded.provider] });
      };
      const tokens = await rotation();
      expect(await tokens.getAccessToken(userId, "vk")).toBe(fake.issued.access[0]);

      vi.setSystemTime(Date.now() + 3600 * 1000);
      const [one, two] = await Promise.all([tokens.getAccessToken(userId, "vk"), tokens.getAccessToken(userId, "vk")]);
      expect(one).toBe(fake.issued.access[1]);
      expect(two).toBe(one);
      const refreshes = fake.log.filter((e) => e.form.grant_type === "refresh_token");
      expect(refreshes.map((e) => [e.status, e.form.refresh_token, e.form.device_id])).toEqual([
        [200, fake.issued.refresh[0], fake.deviceIds[0]],
      ]);
      const second = await stored();
      expect(second).toMatchObject({
        access_token: fake.issued.access[1],
        refresh_token: fake.issued.refresh[1],
        session_state: first.session_state,
      });
      expect(second.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000);

      // VK ID no longer knows the stored refresh token (the user revoked the app's access): its refusal
      // (invalid_grant) drops the token from the row, so no process on this database sends it again.
      const ops = adapter as unknown as { updateAccount(a: Partial<AdapterAccount>): Promise<unknown> };
      await ops.updateAccount({ provider: "vk", providerAccountId: accountId, refresh_token: "revoked" });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      defer(() => logged.mockRestore());
      vi.setSystemTime(Date.now() + 3600 * 1000);
      await expect(tokens.getAccessToken(userId, "vk")).rejects.toThrow(/vk refused the refresh/);
      const other = await rotation(`${backend}-second-process`);
      await expect(other.getAccessToken(userId, "vk")).rejects.toThrow(/without a refresh token/);
      vi.setSystemTime(Date.now() + 5 * 60_000);
      await expect(tokens.getAccessToken(userId, "vk")).rejects.toThrow(/without a refresh token/);
      const statuses = fake.log.filter((e) => e.form.grant_type === "refresh_token").map((e) => e.status);
      expect(statuses).toEqual([200, 400]);
      const dropped = await stored();
      expect(dropped.refresh_token ?? undefined).toBeUndefined();
      expect(dropped.access_token).toBe(second.access_token);
    },
    FLOW_TIMEOUT,
  );
});
