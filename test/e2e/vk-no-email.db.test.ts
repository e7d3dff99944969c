/**
 * VK users who grant no email sign in through the real Auth() with every
 * generated adapter: the SQL one on SQLite, PostgreSQL (127.0.0.1:5432, a
 * schema of its own) and MariaDB/MySQL (127.0.0.1:3306, a database of its
 * own) with the tables from the generated schema, and the in-memory one.
 * Two such users must not collide on the unique email column, and "" must
 * find no user by email.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { vkDomains } from "../../src/families/social.js";
import { tempDir } from "../helpers.js";
import { AFTER_SIGN_IN, explain, routeFetch, signIn } from "./auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "./cleanup.js";
import { startFakeVk, type VkUser } from "./fake-vk.js";
import { databases } from "./generated-adapter.js";
import { generated, withEnv } from "./provider-module.js";

const client = { clientId: "51234567", clientSecret: "vk-app-secret" };
const env = { AUTH_VK_ID: client.clientId, AUTH_VK_SECRET: client.clientSecret };
const dbs = databases("create_auth_noemail");

beforeAll(() => dbs.create(), 60_000);
afterAll(() => dbs.drop());

describe("VK users without an email, with every generated adapter", () => {
  const defer = useCleanup();

  test.each(["sqlite", "postgres", "mysql", "memory"] as const)(
    "%s: two VK users who grant no email both sign in, and neither is found by the empty email",
    async (backend) => {
      const { adapter, close } = await dbs.adapter(backend, tempDir(`create-auth-noemail-${backend}-`));
      defer(close);
      defer(withEnv(env));
      const loaded = await generated("social", {});
      defer(loaded.cleanup);

      const userIds: string[] = [];
      for (const id of [1_000_001, 1_000_002]) {
        const vkUser: VkUser = {
          id,
          first_name: "No",
          last_name: `Email ${id}`,
          photo_100: "https://vk.example/p.jpg",
        };
        const fake = await startFakeVk({ ...client, apiVersion: "5.126", user: vkUser });
        defer(() => fake.close());
        const route = routeFetch(
          { "https://oauth.vk.ru": fake.oauthOrigin, "https://api.vk.ru": fake.apiOrigin },
          { refuse: vkDomains },
        );
        try {
          const result = await signIn({
            provider: loaded.provider,
            providerId: "vk",
            env,
            strategy: "database",
            rewrite: route.rewrite,
            adapter,
          });
          expect(result.finalLocation, explain(result)).toBe(AFTER_SIGN_IN);
          const stored = await adapter.getSessionAndUser!(result.sessionCookie!);
          expect(stored?.user).toMatchObject({ name: `No Email ${id}`, email: "" });
          userIds.push(stored!.user.id);
          expect(await adapter.getUserByAccount!({ provider: "vk", providerAccountId: String(id) })).toMatchObject({
            id: stored!.user.id,
          });
        } finally {
          route.restore();
        }
      }
      expect(new Set(userIds).size).toBe(2);
      expect(await adapter.getUserByEmail!("")).toBeNull();
      for (const id of userIds) expect((await adapter.getUser!(id))?.email).toBe("");
    },
    FLOW_TIMEOUT,
  );
});
