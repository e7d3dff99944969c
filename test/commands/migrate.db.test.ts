/**
 * create-auth migrate through the real CLI, against the real servers:
 * PostgreSQL (127.0.0.1:5432) and MariaDB (127.0.0.1:3306) in a database of
 * their own per run, and the embedded SQLite. The project is one init wrote
 * (--no-install), resolving its driver from this repository.
 */

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcess, root, tempDir } from "../helpers.js";

const pgBase = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlBase = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const name = `create_auth_migrate_${randomBytes(5).toString("hex")}`;
const pgUrl = Object.assign(new URL(pgBase), { pathname: `/${name}` }).href;
const mysqlUrl = `${mysqlBase}/${name}`;
const workspace = tempDir("create-auth-migrate-");

async function project(backend: string, folder = backend): Promise<string> {
  const dir = join(workspace, folder);
  const result = await inProcess(["init", "--yes", "--no-install", "--backend", backend, "--dir", dir], {
    env: { CI: "true" },
  });
  expect(result.exitCode, result.stderr).toBe(0);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

let pgAdmin: pg.Client;
let mysqlAdmin: mysql.Connection;

beforeAll(async () => {
  pgAdmin = new pg.Client({ connectionString: pgBase });
  await pgAdmin.connect();
  await pgAdmin.query(`CREATE DATABASE ${name}`);
  mysqlAdmin = await mysql.createConnection(mysqlBase);
  await mysqlAdmin.query(`CREATE DATABASE ${name}`);
}, 60_000);

afterAll(async () => {
  await pgAdmin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => pgAdmin.end());
  await mysqlAdmin?.query(`DROP DATABASE IF EXISTS ${name}`).finally(() => mysqlAdmin.end());
  rmSync(workspace, { recursive: true, force: true });
});

describe("create-auth migrate", () => {
  it("postgres: creates the auth tables, and again changes nothing; DATABASE_URL from the environment", async () => {
    const dir = await project("postgres");
    // A users table from before password sign-in: migrate adds the column it lacks.
    const before = new pg.Client({ connectionString: pgUrl });
    await before.connect();
    await before.query(
      'CREATE TABLE users (id VARCHAR(255) PRIMARY KEY, name TEXT, email VARCHAR(255) UNIQUE, "emailVerified" TIMESTAMPTZ, image TEXT)',
    );
    await before.end();
    for (let run = 0; run < 2; run++) {
      const result = await inProcess(["migrate"], { cwd: dir, env: { DATABASE_URL: pgUrl } });
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(
        `Auth tables ready in 127.0.0.1:5432/${name} (auth/schema.postgres.sql applied; already there is fine).`,
      );
      expect(result.exitCode).toBe(0);
    }
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    const { rows } = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    await client.end();
    expect(rows.map((r) => r.table_name)).toEqual([
      "accounts",
      "attempt_counters",
      "authenticators",
      "sessions",
      "two_factor",
      "two_factor_recovery_codes",
      "users",
      "verification_tokens",
    ]);
    const check = new pg.Client({ connectionString: pgUrl });
    await check.connect();
    const columns = await check.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'users'");
    await check.end();
    expect(columns.rows.map((r) => r.column_name)).toContain("passwordHash");
  }, 60_000);

  it("mysql: DATABASE_URL from .env.local over .env's (the password never printed), twice", async () => {
    const dir = await project("mysql");
    // The generated .env.local holds an example URL; the user's real one replaces it.
    const withPassword = mysqlUrl.replace("root@", "root:@");
    writeFileSync(join(dir, ".env.local"), `AUTH_SECRET=x\nDATABASE_URL=${withPassword}\n`);
    // .env.local wins over .env, as the app and the generated load-env module read them.
    writeFileSync(join(dir, ".env"), "DATABASE_URL=mysql://root@127.0.0.1:1/nowhere\n");
    await mysqlAdmin.query(
      `CREATE TABLE ${name}.users (id VARCHAR(255) PRIMARY KEY, name TEXT, email VARCHAR(255) UNIQUE) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    for (let run = 0; run < 2; run++) {
      // As from a shell: no NODE_ENV=test, in which Next.js's order skips .env.local.
      const result = await inProcess(["migrate", "auth/schema.mysql.sql"], {
        cwd: dir,
        env: { NODE_ENV: "development" },
      });
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(`Auth tables ready in 127.0.0.1:3306/${name}`);
      expect(result.exitCode).toBe(0);
    }
    const [rows] = await mysqlAdmin.query(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = ?",
      [name],
    );
    expect((rows as { n: number }[])[0]!.n).toBe(8);
    const [columns] = await mysqlAdmin.query(
      "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = ? AND table_name = 'users'",
      [name],
    );
    expect((columns as { c: string }[]).map((r) => r.c)).toContain("passwordHash");
  }, 60_000);

  it("a server that is down: one line naming the server and what to do, exit 1", async () => {
    const dir = await project("postgres", "postgres-down");
    const result = await inProcess(["migrate"], {
      cwd: dir,
      env: { DATABASE_URL: "postgres://u:secret@127.0.0.1:1/app" },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      "error: Cannot reach PostgreSQL at 127.0.0.1:1/app (ECONNREFUSED): start the server, or fix DATABASE_URL in the environment.",
    );
    expect(result.stdout + result.stderr).not.toContain("secret");
    const mysqlDir = join(workspace, "mysql");
    const down = await inProcess(["migrate"], { cwd: mysqlDir, env: { DATABASE_URL: "mysql://root@127.0.0.1:1/app" } });
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/^error: Cannot reach MySQL\/MariaDB at 127\.0\.0\.1:1\/app \(ECONNREFUSED\)/);
  }, 60_000);

  it("sqlite: creates the tables, adds passwordHash to an older users table, idempotently", async () => {
    const dir = await project("sqlite");
    expect(existsSync(join(dir, "auth.db"))).toBe(false);
    const old = new Database(join(dir, "auth.db"));
    old.exec("CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, email TEXT UNIQUE)");
    old.close();
    for (let run = 0; run < 2; run++) {
      const result = await inProcess(["migrate"], { cwd: dir, env: {} });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
    }
    const db = new Database(join(dir, "auth.db"), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    const columns = db.prepare("PRAGMA table_info(users)").all() as { name: string }[];
    expect(columns.map((c) => c.name)).toContain("passwordHash");
    db.close();
    expect(tables).toEqual(
      [
        "accounts",
        "attempt_counters",
        "authenticators",
        "sessions",
        "two_factor",
        "two_factor_recovery_codes",
        "users",
        "verification_tokens",
      ].map((n) => ({ name: n })),
    );
  }, 60_000);

  it("usage errors: no schema here, not a schema, no DATABASE_URL; exit 2", async () => {
    const empty = tempDir("create-auth-migrate-empty-");
    const none = await inProcess(["migrate"], { cwd: empty });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^error: No auth schema in .*run create-auth init first/);
    const wrong = await inProcess(["migrate", "package.json"], { cwd: join(workspace, "sqlite") });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/not a generated auth schema/);
    const dir = join(workspace, "postgres");
    writeFileSync(join(dir, ".env.local"), "AUTH_SECRET=x\n");
    const unset = await inProcess(["migrate"], { cwd: dir, env: { NODE_ENV: "development" } });
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toBe(
      "error: DATABASE_URL is not set (in the environment or .env.development.local, .env.local, .env.development, .env); set it to your database's connection string.",
    );
    // Set empty in the file that wins, it is what the app would get: named, not passed over for .env's.
    writeFileSync(join(dir, ".env.local"), "AUTH_SECRET=x\nDATABASE_URL=\n");
    writeFileSync(join(dir, ".env"), `DATABASE_URL=${pgUrl}\n`);
    const setEmpty = await inProcess(["migrate"], { cwd: dir, env: { NODE_ENV: "development" } });
    expect(setEmpty.exitCode).toBe(2);
    expect(setEmpty.stderr).toBe(
      "error: DATABASE_URL is set empty in .env.local, which wins over the other env files; set it to your database's connection string.",
    );
    rmSync(join(dir, ".env"));
    rmSync(empty, { recursive: true, force: true });
  }, 60_000);

  it("a schema that is a folder, a pipe or not text is refused before any database file exists", async () => {
    for (const [what, make, message] of [
      ["folder", (path: string) => mkdirSync(path), /is a folder, where a file belongs/],
      ["pipe", (path: string) => execFileSync("mkfifo", [path]), /is a special file \(a pipe or a device\)/],
      ["binary", (path: string) => writeFileSync(path, Buffer.from([0x53, 0x51, 0x00, 0xff])), /is not a text file/],
    ] as const) {
      const dir = await project("sqlite", `sqlite-${what}`);
      const schema = join(dir, "auth/schema.sqlite.sql");
      rmSync(schema);
      make(schema);
      const result = await inProcess(["migrate"], { cwd: dir, env: {} });
      expect(result.exitCode, what).toBe(2);
      expect(result.stderr, what).toMatch(message);
      expect(existsSync(join(dir, "auth.db")), what).toBe(false);
    }
  }, 60_000);

  it("a schema SQLite refuses leaves no database file behind; a folder it cannot write is one line, exit 2", async () => {
    const dir = await project("sqlite", "sqlite-refused");
    writeFileSync(join(dir, "auth/schema.sqlite.sql"), "CREATE TABLE users (id TEXT PRIMARY KEY);\nNOT SQL AT ALL;\n");
    const refused = await inProcess(["migrate"], { cwd: dir, env: {} });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^error: SQLite refused the auth schema at .*auth\.db/);
    expect(readdirSync(dir).filter((name) => name.startsWith("auth.db"))).toEqual([]);

    const missing = await inProcess(["migrate"], { cwd: dir, env: { AUTH_DATABASE_PATH: "./no/such/folder/auth.db" } });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(
      /^error: Cannot write the SQLite file .*no\/such\/folder\/auth\.db: its folder does not exist\.\nCreate the folder/,
    );
    expect(existsSync(join(dir, "no"))).toBe(false);

    mkdirSync(join(dir, "taken.db"));
    const folder = await inProcess(["migrate"], { cwd: dir, env: { AUTH_DATABASE_PATH: "./taken.db" } });
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toMatch(/^error: Cannot write the SQLite file .*taken\.db: unable to open database file\.\n/);
  }, 60_000);
});
