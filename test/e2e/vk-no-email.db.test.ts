/**
 * VK users who grant no email sign in through the real Auth() with every
 * generated adapter: the SQL one on SQLite, PostgreSQL (127.0.0.1:5432, a
 * schema of its own) and MariaDB/MySQL (127.0.0.1:3306, a database of its
 * own) with the tables from the generated schema, and the in-memory one.
 * Two such users must not collide on the unique email column, and "" must
 * find no user by email.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter } from "@auth/core/adapters";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

type Backend = string;

import { vkDomains } from "../../src/families/social.js";
import { root, tempDir } from "../helpers.js";
import { planStorage } from "../support/storage.js";
import { AFTER_SIGN_IN, explain, routeFetch, signIn } from "./auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "./cleanup.js";
import { startFakeVk, type VkUser } from "./fake-vk.js";
import { generated, withEnv, writeModule } from "./provider-module.js";

const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const name = `create_auth_noemail_${randomBytes(6).toString("hex")}`;
const client = { clientId: "51234567", clientSecret: "vk-app-secret" };
const env = { AUTH_VK_ID: client.clientId, AUTH_VK_SECRET: client.clientSecret };

let pgAdmin: pg.Pool | undefined;
let mysqlAdmin: mysql.Connection | undefined;

beforeAll(async () => {
  pgAdmin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await pgAdmin.query(`CREATE SCHEMA ${name}`);
  mysqlAdmin = await mysql.createConnection(mysqlUrl);
  await mysqlAdmin.query(`CREATE DATABASE ${name}`);
}, 60_000);

afterAll(async () => {
  await pgAdmin?.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`).finally(() => pgAdmin?.end());
  await mysqlAdmin?.query(`DROP DATABASE IF EXISTS ${name}`).finally(() => mysqlAdmin?.end());
});

interface Db {
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

/** The generated adapter for `backend`, on its tables made from the generated schema. */
async function generatedAdapter(backend: Backend, dir: string): Promise<{ adapter: Adapter; close(): Promise<void> }> {
  const part = await planStorage(backend, { importExtension: ".js" });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const file of part.files) {
    if (file.path.endsWith(".ts")) writeModule(dir, file.path, file.contents);
    else writeFileSync(join(dir, file.path), file.contents);
  }
  const load = <T>(path: string) => import(pathToFileURL(join(dir, path)).href) as Promise<T>;
  const { createAdapter } = await load<{ createAdapter(db?: Db): Adapter }>("auth/adapter.js");
  if (backend === "memory") return { adapter: createAdapter(), close: async () => {} };
  const { openDb } = await load<{ openDb(connection: string, options?: { create?: boolean }): Db }>("auth/db.js");
  const connection = {
    sqlite: join(dir, "auth.db"),
    postgres: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${name}`)}`,
    mysql: `${mysqlUrl}/${name}`,
  }[backend as "sqlite" | "postgres" | "mysql"];
  // Like create-auth migrate: the schema scripts may create the SQLite file.
  const db = openDb(connection, { create: true });
  const dialect = backend === "postgres" ? "postgres" : backend;
  await db.exec(readFileSync(join(dir, `auth/schema.${dialect}.sql`), "utf8"));
  return { adapter: createAdapter(db), close: () => db.close() };
}

describe("VK users without an email, with every generated adapter", () => {
  const defer = useCleanup();

  test.each(["sqlite", "postgres", "mysql", "memory"] as const)(
    "%s: two VK users who grant no email both sign in, and neither is found by the empty email",
    async (backend) => {
      const { adapter, close } = await generatedAdapter(backend, tempDir(`create-auth-noemail-${backend}-`));
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
