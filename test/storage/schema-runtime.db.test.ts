/**
 * The generated TypeORM entities run against real databases on the tables
 * the SQL DDL creates (src/storage/sql/schema.ts: the tables of init's own
 * SQL adapter, which the entities describe column for column): TypeORM
 * writes a full set of rows and plain SQL reads them back, rows written in
 * SQL read back through TypeORM's relations, and deleting a user cascades.
 * (The Prisma and Drizzle schemas are their storages' own, checked with
 * their tools and adapters in test/storage/orm-init.db.test.ts.)
 *
 * Generated modules are compiled with tsc's transpiler (decorator metadata
 * included, as in a user's build), not esbuild, and imported natively.
 * PostgreSQL (127.0.0.1:5432, user postgres, db test) and MySQL/MariaDB
 * (127.0.0.1:3306, root) are used when reachable, each in a schema of its own.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../src/catalog/sql-dialects.js";
import { generateSchema } from "../../src/storage/schemas.js";
import { generateSqlSchema } from "../../src/storage/sql/schema.js";
import { root, tempDir } from "../helpers.js";

/** A TypeORM entity class, as TypeORM's DataSource takes it. */
type EntityClass = new (...args: never[]) => unknown;

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: 1000 }, () => {
      socket.end();
      resolve(true);
    });
    socket
      .on("error", () => resolve(false))
      .on("timeout", () => {
        socket.destroy();
        resolve(false);
      });
  });
const servers = { sqlite: true, postgres: await reachable(5432), mysql: await reachable(3306) };

/** The SQL adapter's tables for `dialect`, as init writes them. */
const sqlDdl = async (dialect: Dialect) =>
  (await generateSqlSchema(dialect, "auth")).files.map((f) => f.contents).join("\n");

/** Generates and compiles the entities for `dialect` into a throwaway ESM project; returns them. */
async function load(dialect: Dialect) {
  const dir = tempDir(`create-auth-schema-${dialect}-`);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  mkdirSync(join(dir, "auth"));
  const compilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
  };
  const [file] = (await generateSchema("typeorm", dialect, { importExtension: ".js", dir: "auth" })).files;
  const out = join(dir, file!.path.replace(/\.ts$/, ".js"));
  writeFileSync(out, ts.transpileModule(file!.contents, { compilerOptions }).outputText);
  const module = (await import(pathToFileURL(out).href)) as { entities: EntityClass[] };
  return { dir, entities: module.entities };
}

type Row = Record<string, unknown>;

/** A database of its own per run, the DataSource options for it, and plain SQL on it. */
async function connectTo(dialect: Dialect, dir: string) {
  const name = `auth_schema_${process.pid}_${Date.now()}`;
  if (dialect === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const file = join(dir, "auth.db");
    const client = new Database(file);
    client.pragma("foreign_keys = ON");
    return {
      source: { type: "better-sqlite3", database: file } as const,
      exec: async (sql: string) => void client.exec(sql),
      query: async (sql: string, params: unknown[] = []) => {
        const statement = client.prepare(sql);
        if (statement.reader) return statement.all(...params) as Row[];
        statement.run(...params);
        return [];
      },
      close: async () => void client.close(),
    };
  }
  if (dialect === "postgres") {
    const { default: pg } = await import("pg");
    const base = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" };
    const admin = new pg.Client(base);
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${name}"`);
    // The generated tables are unqualified, so the schema is chosen by search_path.
    const pool = new pg.Pool({ ...base, options: `-c search_path=${name}` });
    return {
      source: {
        type: "postgres",
        host: base.host,
        port: base.port,
        username: base.user,
        database: base.database,
        schema: name,
      } as const,
      exec: async (sql: string) => void (await pool.query(sql)),
      query: async (sql: string, params: unknown[] = []) =>
        (
          await pool.query(
            sql.replace(
              /\?/g,
              (() => {
                let n = 0;
                return () => `$${++n}`;
              })(),
            ),
            params,
          )
        ).rows as Row[],
      close: async () => {
        await pool.end();
        await admin.query(`DROP SCHEMA "${name}" CASCADE`);
        await admin.end();
      },
    };
  }
  const mysql = await import("mysql2/promise");
  const base = { host: "127.0.0.1", port: 3306, user: "root", timezone: "Z" };
  const admin = await mysql.createConnection(base);
  await admin.query(`CREATE DATABASE \`${name}\``);
  const pool = mysql.createPool({ ...base, database: name, multipleStatements: true });
  return {
    source: {
      type: "mysql",
      host: base.host,
      port: base.port,
      username: base.user,
      database: name,
      timezone: "Z",
    } as const,
    exec: async (sql: string) => void (await pool.query(sql)),
    query: async (sql: string, params: unknown[] = []) => (await pool.query(sql, params))[0] as Row[],
    close: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE \`${name}\``);
      await admin.end();
    },
  };
}

/** MariaDB's JSON is LONGTEXT and SQLite's TEXT: both come back as text; PostgreSQL's JSONB parsed. */
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

/** `"name"`, or MySQL's `` `name` ``: the camelCase columns need quoting (PostgreSQL folds them). */
const quoter = (dialect: Dialect) => (name: string) => (dialect === "mysql" ? `\`${name}\`` : `"${name}"`);

/** A date as each driver gives it back: a Date (pg, mysql2) or epoch milliseconds (SQLite's INTEGER). */
const millis = (value: unknown) => (value instanceof Date ? value.getTime() : Number(value));

describe.each((["sqlite", "postgres", "mysql"] as const).filter((d) => servers[d]))("%s", (dialect) => {
  it("TypeORM and plain SQL read each other's rows in the SQL adapter's tables, and deletes cascade", async () => {
    const { dir, entities } = await load(dialect);
    const { DataSource, IsNull } = await import("typeorm");
    const conn = await connectTo(dialect, dir);
    const q = quoter(dialect);
    await conn.exec(await sqlDdl(dialect));
    const source = new DataSource({ ...conn.source, entities, synchronize: false, logging: false });
    await source.initialize();
    try {
      const [User, Account, Session, VerificationToken, Authenticator] = entities as [
        EntityClass,
        EntityClass,
        EntityClass,
        EntityClass,
        EntityClass,
      ];
      const verified = new Date("2025-01-02T03:04:05.678Z");
      const expires = new Date("2030-06-07T08:09:10.123Z");
      const sessionState = { nested: [1, "two", null], ok: true };

      // TypeORM writes; the user's id comes from the entity's BeforeInsert hook.
      const user = (await source
        .getRepository(User)
        .save(source.getRepository(User).create({ email: "a@example.com", name: "A", emailVerified: verified }))) as {
        id: string;
      };
      expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
      await source.getRepository(Account).save(
        source.getRepository(Account).create({
          userId: user.id,
          type: "oauth",
          provider: "vk",
          providerAccountId: "42",
          access_token: "at",
          expires_at: 1_900_000_000,
          token_type: "bearer",
          session_state: sessionState,
        }),
      );
      await source
        .getRepository(Session)
        .save(source.getRepository(Session).create({ userId: user.id, sessionToken: "tok", expires }));
      await source.getRepository(VerificationToken).insert({ identifier: "a@example.com", token: "hashed", expires });
      await source.getRepository(Authenticator).insert({
        userId: user.id,
        credentialID: "cred",
        providerAccountId: "42",
        credentialPublicKey: "pk",
        counter: 3,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: true,
        transports: "usb",
      });

      // Plain SQL, as the SQL adapter reads them.
      const [found] = await conn.query(`SELECT * FROM users WHERE id = ?`, [user.id]);
      expect(found).toMatchObject({ email: "a@example.com", name: "A", image: null });
      expect(millis(found!.emailVerified)).toBe(verified.getTime());
      const [account] = await conn.query(`SELECT * FROM accounts WHERE ${q("userId")} = ?`, [user.id]);
      expect(account).toMatchObject({ provider: "vk", providerAccountId: "42", refresh_token: null });
      expect(Number(account!.expires_at)).toBe(1_900_000_000);
      expect(json(account!.session_state)).toEqual(sessionState);
      const [session] = await conn.query(`SELECT * FROM sessions WHERE ${q("sessionToken")} = ?`, ["tok"]);
      expect(millis(session!.expires)).toBe(expires.getTime());
      const [authenticator] = await conn.query(`SELECT * FROM authenticators WHERE ${q("credentialID")} = ?`, ["cred"]);
      // BIGINT: a string from pg, a number elsewhere.
      expect({ counter: Number(authenticator!.counter), transports: authenticator!.transports }).toEqual({
        counter: 3,
        transports: "usb",
      });
      expect(Boolean(Number(authenticator!.credentialBackedUp) || authenticator!.credentialBackedUp === true)).toBe(
        true,
      );
      const tokens = await conn.query(`SELECT identifier, token FROM verification_tokens`);
      expect(tokens).toEqual([{ identifier: "a@example.com", token: "hashed" }]);

      // Users without an email (a VK user may grant none): stored, any number of them.
      for (let i = 0; i < 2; i++)
        await source.getRepository(User).save(source.getRepository(User).create({ name: `no email ${i}` }));
      expect(await source.getRepository(User).countBy({ email: IsNull() })).toBe(2);

      // Rows written in plain SQL read through TypeORM's relations; BIGINT and booleans through its transformers.
      const id = "00000000-0000-4000-8000-000000000001";
      await conn.query(`INSERT INTO users (id, email) VALUES (?, ?)`, [id, "b@example.com"]);
      await conn.query(`INSERT INTO sessions (id, ${q("sessionToken")}, ${q("userId")}, expires) VALUES (?, ?, ?, ?)`, [
        "00000000-0000-4000-8000-000000000002",
        "tok-b",
        id,
        dialect === "sqlite" ? expires.getTime() : expires,
      ]);
      const viaTypeorm = (await source
        .getRepository(User)
        .findOne({ where: { id }, relations: { sessions: true, accounts: true } })) as {
        sessions: { expires: Date }[];
      };
      expect(viaTypeorm).toMatchObject({ email: "b@example.com", name: null, emailVerified: null, accounts: [] });
      expect(viaTypeorm.sessions[0]!.expires).toEqual(expires);
      expect(await source.getRepository(Account).findOneBy({ userId: user.id })).toMatchObject({
        expires_at: 1_900_000_000,
        session_state: sessionState,
      });
      expect(await source.getRepository(Authenticator).findOneBy({ credentialID: "cred" })).toMatchObject({
        counter: 3,
        credentialBackedUp: true,
      });

      // Deleting a user removes its accounts, sessions and authenticators (ON DELETE CASCADE).
      await conn.query(`DELETE FROM users WHERE id = ?`, [user.id]);
      for (const entity of [Account, Session, Authenticator])
        expect(await source.getRepository(entity).countBy({ userId: user.id })).toBe(0);
    } finally {
      await source.destroy();
      await conn.close();
    }
  });
});
