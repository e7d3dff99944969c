/**
 * The adapter init generates for a backend, on its own tables made from the
 * generated schema: SQLite in the given directory, PostgreSQL
 * (127.0.0.1:5432, a schema of its own) and MariaDB/MySQL (127.0.0.1:3306, a
 * database of its own), or the in-memory one. For *.db.test.ts files.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter } from "@auth/core/adapters";
import mysql from "mysql2/promise";
import pg from "pg";
import { root } from "../helpers.js";
import { planStorage } from "../support/storage.js";
import { writeModule } from "./provider-module.js";

const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";

export type GeneratedBackend = "sqlite" | "postgres" | "mysql" | "memory";

interface Db {
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

/** A PostgreSQL schema and a MySQL database named `<prefix>_<random>`, for one test file. */
export function databases(prefix: string) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  let pgAdmin: pg.Pool | undefined;
  let mysqlAdmin: mysql.Connection | undefined;
  return {
    name,
    async create() {
      pgAdmin = new pg.Pool({ connectionString: pgUrl, max: 1 });
      await pgAdmin.query(`CREATE SCHEMA ${name}`);
      mysqlAdmin = await mysql.createConnection(mysqlUrl);
      await mysqlAdmin.query(`CREATE DATABASE ${name}`);
    },
    async drop() {
      await pgAdmin?.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`).finally(() => pgAdmin?.end());
      await mysqlAdmin?.query(`DROP DATABASE IF EXISTS ${name}`).finally(() => mysqlAdmin?.end());
    },
    /** The connection string of `backend`'s database for this file (a SQLite file in `dir`), as DATABASE_URL or AUTH_DATABASE_PATH. */
    url(backend: Exclude<GeneratedBackend, "memory">, dir: string): string {
      return {
        sqlite: join(dir, "auth.db"),
        postgres: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${name}`)}`,
        mysql: `${mysqlUrl}/${name}`,
      }[backend];
    },
    /** The generated adapter for `backend`, its files in `dir` (which can then hold more modules). */
    async adapter(backend: GeneratedBackend, dir: string): Promise<{ adapter: Adapter; close(): Promise<void> }> {
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
      const connection = this.url(backend, dir);
      // Like create-auth migrate: the schema scripts may create the SQLite file.
      const db = openDb(connection, { create: true });
      await db.exec(readFileSync(join(dir, `auth/schema.${backend}.sql`), "utf8"));
      return { adapter: createAdapter(db), close: () => db.close() };
    },
  };
}
