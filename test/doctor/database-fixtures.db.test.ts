/**
 * doctor on projects whose tables it learns from what the project declares
 * (fixtures/doctor with "database"): a published adapter's queries, the
 * models of schema.prisma, the tables of a Drizzle schema. Each fixture's
 * fixture.sql builds the database as the project has it, one migration
 * behind: in a schema of its own on the real PostgreSQL, a database of its
 * own on the real MariaDB, or the SQLite file the project's connection
 * names; doctor names exactly the table or column that is missing, and the
 * command that makes it.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { copyProject, doctorFixtures, doctorJson, type FixtureMeta, problemIds, readMeta } from "./helpers.js";

const postgresServer = "postgres://postgres@127.0.0.1:5432/test";
const mysqlServer = "mysql://root@127.0.0.1:3306";
const cleanups: (() => Promise<void>)[] = [];

async function postgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresServer });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function mariadb(sql: string, database = ""): Promise<void> {
  const connection = await mysql.createConnection({ uri: `${mysqlServer}/${database}`, multipleStatements: true });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** The fixture's project with its database built from fixture.sql; the environment doctor runs with. */
async function prepare(name: string, meta: FixtureMeta): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = copyProject(name, meta);
  const sql = readFileSync(join(dir, "fixture.sql"), "utf8");
  const own = `doctor_declared_${randomBytes(4).toString("hex")}`;
  if (meta.database === "postgres") {
    cleanups.push(() => postgres(`DROP SCHEMA IF EXISTS ${own} CASCADE`));
    await postgres(`CREATE SCHEMA ${own}; SET search_path TO ${own}; ${sql}`);
    return { dir, env: { DATABASE_URL: `${postgresServer}?options=-c%20search_path%3D${own}` } };
  }
  if (meta.database === "mysql") {
    cleanups.push(() => mariadb(`DROP DATABASE IF EXISTS ${own}`));
    await mariadb(`CREATE DATABASE ${own}`);
    await mariadb(sql, own);
    return { dir, env: { DATABASE_URL: `${mysqlServer}/${own}` } };
  }
  // SQLite: the file the project's own connection names, found by doctor as the app finds it.
  new Database(join(dir, meta.file!)).exec(sql).close();
  return { dir, env: {} };
}

describe("doctor against the tables a project declares", () => {
  const names = doctorFixtures().filter((name) => readMeta(name).database);

  it("has fixtures for PostgreSQL, MariaDB and SQLite, from published adapters, Prisma and Drizzle", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        "db.published-table-missing",
        "db.prisma-column-missing",
        "db.prisma-sqlite-column-missing",
        "db.prisma7-sqlite-table-missing",
        "db.drizzle-sqlite-column-missing",
        "db.drizzle-mysql-table-missing",
        "db.drizzle-postgres-column-missing",
      ]),
    );
  });

  const messages: Record<string, string> = {};
  for (const name of names) {
    it(`finds ${name}`, async () => {
      const meta = readMeta(name);
      const { dir, env } = await prepare(name, meta);
      const { exitCode, report } = await doctorJson(dir, [], env);
      expect(problemIds(report)).toEqual([...meta.expect].sort());
      expect(exitCode).toBe(1);
      const findings = report.findings.filter((f) => f.id.startsWith("db."));
      for (const finding of findings) expect(finding.message).not.toMatch(/postgres@|root@/);
      messages[name] = findings.map((f) => `${f.message} ${f.fix}`).join("\n");
    });
  }

  it("Prisma's ?schema= names the PostgreSQL schema its tables are in", async () => {
    const name = "db.prisma-column-missing";
    const { dir, env } = await prepare(name, readMeta(name));
    const schema = /search_path%3D(\w+)/.exec(env.DATABASE_URL!)![1];
    const { report } = await doctorJson(dir, [], { DATABASE_URL: `${postgresServer}?schema=${schema}` });
    expect(problemIds(report)).toEqual(["db.column-missing"]);
  });

  it("names the table or column, who needs it, and the command that makes it", () => {
    expect(messages["db.published-table-missing"]).toBe(
      "The table accounts is missing in PostgreSQL at 127.0.0.1:5432/test: @auth/pg-adapter's queries on it fail. Run the adapter's schema from https://authjs.dev/getting-started/adapters/pg.",
    );
    expect(messages["db.prisma-column-missing"]).toBe(
      'The table users in PostgreSQL at 127.0.0.1:5432/test lacks "locale", which @auth/prisma-adapter reads. Run npx prisma db push so the database matches the schema again.',
    );
    // Prisma 6: the SQLite path is relative to schema.prisma; the project has migrations.
    expect(messages["db.prisma-sqlite-column-missing"]).toBe(
      'The table User in prisma/dev.db lacks "locale", which @auth/prisma-adapter reads. Run npx prisma migrate dev (prisma migrate deploy in production) so the database matches the schema again.',
    );
    // Prisma 7: the connection is in prisma.config.ts, the path relative to it; the app's own model counts too.
    expect(messages["db.prisma7-sqlite-table-missing"]).toBe(
      "The table notes is missing in dev.db, though prisma/schema.prisma declares it. Run npm run db:migrate.",
    );
    expect(messages["db.drizzle-sqlite-column-missing"]).toBe(
      'The table todos in sqlite.db lacks "due_at", which src/db/schema.ts declares. Run npx drizzle-kit generate, then npx drizzle-kit migrate so the database matches the schema again.',
    );
    expect(messages["db.drizzle-mysql-table-missing"]).toMatch(
      /^The table audit_log is missing in MySQL\/MariaDB at 127\.0\.0\.1:3306\/doctor_declared_\w+, though src\/db\/schema\.ts declares it\. Run npm run db:push\.$/,
    );
    expect(messages["db.drizzle-postgres-column-missing"]).toBe(
      'The table projects in PostgreSQL at 127.0.0.1:5432/test lacks "archivedAt", which src/db/schema declares. Run npx drizzle-kit push so the database matches the schema again.',
    );
  });
});
