/**
 * The generated Drizzle schema and TypeORM entities run against real
 * databases and agree with each other on the physical tables: TypeORM writes
 * a full set of rows, Drizzle reads them back (and the reverse), and deleting
 * a user cascades. The tables come from the SQL DDL generator when it exists
 * (src/storage/sql/schema.ts), else from TypeORM's synchronize, so the
 * check covers DDL <-> Drizzle <-> TypeORM whenever all three are present.
 *
 * Generated modules are compiled with tsc's transpiler (decorator metadata
 * included, as in a user's build), not esbuild, and imported natively.
 * PostgreSQL (127.0.0.1:5432, user postgres, db test) and MySQL/MariaDB
 * (127.0.0.1:3306, root) are used when reachable, each in a schema of its own.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../src/catalog/sql-dialects.js";
import type { GeneratedPart } from "../../src/render/parts.js";
import { generateSchema } from "../../src/storage/schemas.js";
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
const sqlGenerator = join(root, "src", "generators", "sql-schema.ts");

/** The DDL generator's statements for `dialect`, or undefined while it does not exist yet. */
async function sqlDdl(dialect: Dialect): Promise<string | undefined> {
  if (!existsSync(sqlGenerator)) return undefined;
  const { generateSqlSchema } = (await import(pathToFileURL(sqlGenerator).href)) as {
    generateSqlSchema(d: Dialect): Promise<GeneratedPart>;
  };
  return (await generateSqlSchema(dialect)).files.map((f) => f.contents).join("\n");
}

/** Generates and compiles both flavours for `dialect` into a throwaway ESM project; returns their modules. */
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
  const modules: Record<string, Record<string, unknown>> = {};
  for (const flavour of ["drizzle", "typeorm"] as const) {
    const [file] = (await generateSchema(flavour, dialect, { importExtension: ".js", dir: "auth" })).files;
    const out = join(dir, file!.path.replace(/\.ts$/, ".js"));
    writeFileSync(out, ts.transpileModule(file!.contents, { compilerOptions }).outputText);
    modules[flavour] = (await import(pathToFileURL(out).href)) as Record<string, unknown>;
  }
  return { dir, drizzleSchema: modules.drizzle!, entities: modules.typeorm!.entities as EntityClass[] };
}

/** A database of its own per run, the DataSource options for it, and a Drizzle client on it. */
async function connectTo(dialect: Dialect, dir: string, schema: Record<string, unknown>) {
  const name = `auth_schema_${process.pid}_${Date.now()}`;
  if (dialect === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const { drizzle } = await import("drizzle-orm/better-sqlite3");
    const file = join(dir, "auth.db");
    const client = new Database(file);
    client.pragma("foreign_keys = ON");
    return {
      source: { type: "better-sqlite3", database: file } as const,
      db: drizzle(client, { schema }),
      exec: async (sql: string) => void client.exec(sql),
      close: async () => void client.close(),
    };
  }
  if (dialect === "postgres") {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
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
      db: drizzle(pool, { schema }),
      exec: async (sql: string) => void (await pool.query(sql)),
      close: async () => {
        await pool.end();
        await admin.query(`DROP SCHEMA "${name}" CASCADE`);
        await admin.end();
      },
    };
  }
  const mysql = await import("mysql2/promise");
  const { drizzle } = await import("drizzle-orm/mysql2");
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
    // "planetscale" mode builds relational queries from subqueries rather than
    // LATERAL joins, which MariaDB (the local "MySQL") lacks; MySQL 8 runs both.
    db: drizzle(pool, { schema, mode: "planetscale" }),
    exec: async (sql: string) => void (await pool.query(sql)),
    close: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE \`${name}\``);
      await admin.end();
    },
  };
}

/** MariaDB's JSON is LONGTEXT, which mysql2 (and so Drizzle) hands back unparsed; MySQL's is parsed. */
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

describe.each((["sqlite", "postgres", "mysql"] as const).filter((d) => servers[d]))("%s", (dialect) => {
  it("TypeORM and Drizzle read each other's rows in the same tables, and deletes cascade", async () => {
    const { dir, drizzleSchema, entities } = await load(dialect);
    const { DataSource, IsNull } = await import("typeorm");
    const { eq, sql } = await import("drizzle-orm");
    const conn = await connectTo(dialect, dir, drizzleSchema);
    const ddl = await sqlDdl(dialect);
    if (ddl) await conn.exec(ddl);
    const source = new DataSource({ ...conn.source, entities, synchronize: !ddl, logging: false });
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

      // Drizzle reads them back, relations included.
      const db = conn.db as any;
      const s = drizzleSchema as any;
      const found = await db.query.users.findFirst({
        where: eq(s.users.id, user.id),
        with: { accounts: true, sessions: true, authenticators: true },
      });
      expect(found).toMatchObject({ email: "a@example.com", name: "A", emailVerified: verified, image: null });
      expect(found.accounts).toHaveLength(1);
      expect(found.accounts[0]).toMatchObject({
        provider: "vk",
        providerAccountId: "42",
        expires_at: 1_900_000_000,
        refresh_token: null,
      });
      expect(json(found.accounts[0].session_state)).toEqual(sessionState);
      expect(found.sessions[0]).toMatchObject({ sessionToken: "tok", expires });
      expect(found.authenticators[0]).toMatchObject({
        credentialID: "cred",
        counter: 3,
        credentialBackedUp: true,
        transports: "usb",
      });
      expect(await db.select().from(s.verificationTokens)).toEqual([
        { identifier: "a@example.com", token: "hashed", expires },
      ]);
      if (dialect === "sqlite") {
        // Drizzle would also parse an ISO string, so check the storage class itself: INTEGER milliseconds, JSON as TEXT.
        const [row] = await db.all(
          sql`select typeof(s.expires) as expires, s.expires as ms, typeof(a.session_state) as state from sessions s, accounts a`,
        );
        expect(row).toEqual({ expires: "integer", ms: expires.getTime(), state: "text" });
      }

      // Users without an email (a VK user may grant none): both flavours store them, any number of them.
      for (let i = 0; i < 2; i++) {
        await db.insert(s.users).values({ name: `no email ${i}` });
        await source.getRepository(User).save(source.getRepository(User).create({ name: `no email either ${i}` }));
      }
      expect(await source.getRepository(User).countBy({ email: IsNull() })).toBe(4);

      // Drizzle writes (id from $defaultFn); TypeORM reads, with its relations.
      const insertUser = db.insert(s.users).values({ email: "b@example.com" });
      // MySQL has no RETURNING; $returningId reports the ids made by $defaultFn.
      const [{ id }] =
        dialect === "mysql" ? await insertUser.$returningId() : await insertUser.returning({ id: s.users.id });
      await db.insert(s.sessions).values({ userId: id, sessionToken: "tok-b", expires });
      const viaTypeorm = (await source
        .getRepository(User)
        .findOne({ where: { id }, relations: { sessions: true, accounts: true } })) as any;
      expect(viaTypeorm).toMatchObject({ email: "b@example.com", name: null, emailVerified: null, accounts: [] });
      expect(viaTypeorm.sessions[0].expires).toEqual(expires);
      // BIGINT columns come back from pg and mysql2 as strings; the entities' transformer makes them numbers again.
      expect(await source.getRepository(Account).findOneBy({ userId: user.id })).toMatchObject({
        expires_at: 1_900_000_000,
        session_state: sessionState,
      });
      expect(await source.getRepository(Authenticator).findOneBy({ credentialID: "cred" })).toMatchObject({
        counter: 3,
        credentialBackedUp: true,
      });

      // Deleting a user removes its accounts, sessions and authenticators (ON DELETE CASCADE).
      await db.delete(s.users).where(eq(s.users.id, user.id));
      for (const entity of [Account, Session, Authenticator])
        expect(await source.getRepository(entity).countBy({ userId: user.id })).toBe(0);
    } finally {
      await source.destroy();
      await conn.close();
    }
  });
});
