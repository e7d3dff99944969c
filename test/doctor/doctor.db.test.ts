/**
 * doctor against real databases: PostgreSQL and MariaDB on 127.0.0.1 and
 * SQLite files. A fresh init, migrated, has nothing wrong; a missing table,
 * a missing column, a refused password, a missing database and a server
 * that is down are each one clear finding within a few seconds.
 */
import { randomBytes } from "node:crypto";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/commands/doctor.js";
import { frameworkIds as frameworks } from "../../src/frameworks/registry.js";
import { capturedIo, fixture, inProcess, root, tempDir } from "../helpers.js";
import { copyProject, doctorJson, freshInit } from "./helpers.js";

const tag = randomBytes(4).toString("hex");
const pgSchema = `doctor_${tag}`;
const mysqlDatabase = `doctor_${tag}`;
const postgresUrl = `postgres://postgres@127.0.0.1:5432/test?options=-c%20search_path%3D${pgSchema}`;
const mysqlUrl = `mysql://root@127.0.0.1:3306/${mysqlDatabase}`;

async function postgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function mariadb(sql: string, database = mysqlDatabase): Promise<void> {
  const connection = await mysql.createConnection({ uri: `mysql://root@127.0.0.1:3306/${database}` });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

beforeAll(async () => {
  await postgres(`CREATE SCHEMA IF NOT EXISTS ${pgSchema}`);
  await mariadb(`CREATE DATABASE IF NOT EXISTS ${mysqlDatabase}`, "");
});

afterAll(async () => {
  await postgres(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
  await mariadb(`DROP DATABASE IF EXISTS ${mysqlDatabase}`, "");
});

const urls: Record<string, Record<string, string>> = {
  sqlite: {},
  postgres: { DATABASE_URL: postgresUrl },
  mysql: { DATABASE_URL: mysqlUrl },
};

async function migrated(framework: string, backend: string, ...extra: string[]) {
  const dir = await freshInit(framework, backend, ...extra);
  // The project's driver, as after its install: create-auth's own node_modules has all three.
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const migrate = await inProcess(["migrate", "--dir", dir], { env: urls[backend] });
  expect(migrate.exitCode, migrate.stderr).toBe(0);
  return dir;
}

describe("doctor on a fresh, migrated init", () => {
  for (const backend of ["sqlite", "postgres", "mysql"]) {
    for (const framework of frameworks) {
      it(`${framework} with ${backend}: no errors`, async () => {
        const dir = await migrated(framework, backend);
        const { exitCode, report } = await doctorJson(dir, [], urls[backend]);
        expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
        expect(exitCode).toBe(0);
      });
    }
  }
});

/** doctor's finding ids in `dir` and how long it took. */
async function timed(dir: string, env: Record<string, string>) {
  const started = Date.now();
  const { report, exitCode } = await doctorJson(dir, [], env);
  return { report, exitCode, seconds: (Date.now() - started) / 1000 };
}

describe("doctor's database findings", () => {
  it("names a missing table on PostgreSQL, MariaDB and SQLite, with the migrate command", async () => {
    for (const backend of ["postgres", "mysql", "sqlite"]) {
      const dir = await migrated("next", backend);
      const drop = "DROP TABLE verification_tokens";
      if (backend === "postgres") await postgres(drop);
      else if (backend === "mysql") await mariadb(drop);
      else new Database(join(dir, "auth.db")).exec(drop).close();
      const { report, exitCode, seconds } = await timed(dir, urls[backend]!);
      const finding = report.findings.find((f) => f.id === "db.table-missing");
      expect(finding?.message, backend).toMatch(/The table verification_tokens is missing/);
      expect(finding?.fix).toMatch(/npm run db:migrate/);
      expect(exitCode).toBe(1);
      expect(seconds).toBeLessThan(5);
      // Put it back for the next test's fresh init in the same schema.
      await inProcess(["migrate", "--dir", dir], { env: urls[backend] });
    }
  });

  it("compares the tables of init's Prisma wiring and of the TypeORM flavour too, naming the right commands", async () => {
    const cases = [
      // init wires Prisma: its models' tables, created by auth:tables here (Prisma's own migrate needs its engines).
      { flavour: "prisma", table: "Authenticator", fix: "Run npm run db:migrate (or npm run auth:tables)." },
      { flavour: "typeorm", table: "authenticators", fix: "Run npm run db:migrate (or your TypeORM migrations)." },
    ];
    for (const { flavour, table, fix } of cases) {
      const dir = await migrated("next", "postgres", "--schema", flavour);
      const fresh = (await doctorJson(dir, [], urls.postgres)).report;
      expect(fresh.summary.errors, JSON.stringify(fresh.findings)).toBe(0);
      await postgres(`DROP TABLE "${table}"`);
      const { report } = await timed(dir, urls.postgres!);
      const finding = report.findings.find((f) => f.id === "db.table-missing");
      expect(finding?.message, flavour).toMatch(new RegExp(`The table ${table} is missing`));
      expect(finding?.fix).toBe(fix);
      await inProcess(["migrate", "--dir", dir], { env: urls.postgres });
    }
  });

  it("init's Prisma wiring in an app with models of its own: those models' tables are checked too, in the same file", async () => {
    const { cpSync } = await import("node:fs");
    const dir = tempDir("create-auth-doctor-prisma-app-");
    cpSync(fixture("projects", "orm", "prisma-sqlite"), dir, { recursive: true });
    const init = await inProcess([
      "init",
      "--yes",
      "--no-install",
      "--dir",
      dir,
      "--framework",
      "none",
      "--providers",
      "credentials",
    ]);
    expect(init.exitCode, init.stderr).toBe(0);
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    // In the file init's DATABASE_URL names: the auth tables made, the app's own not yet: Prisma's migration never ran for Note and Tag.
    const migrate = await inProcess(["migrate", "--dir", dir]);
    expect(migrate.exitCode, migrate.stderr).toBe(0);
    const { report } = await doctorJson(dir);
    const missing = report.findings.filter((f) => f.id === "db.table-missing").map((f) => f.message);
    expect(missing).toEqual([
      "The table Note is missing in dev.db, though prisma/schema.prisma declares it.",
      "The table Tag is missing in dev.db, though prisma/schema.prisma declares it.",
    ]);
    new Database(join(dir, "dev.db"))
      .exec(
        'CREATE TABLE "Note" (id INTEGER PRIMARY KEY, title TEXT, body TEXT, createdAt DATETIME); CREATE TABLE "Tag" (id INTEGER PRIMARY KEY, name TEXT)',
      )
      .close();
    expect((await doctorJson(dir)).report.findings.filter((f) => f.id.startsWith("db."))).toEqual([]);
  });

  it("names a missing column on PostgreSQL, MariaDB and SQLite", async () => {
    for (const backend of ["postgres", "mysql", "sqlite"]) {
      const dir = await migrated("sveltekit", backend);
      const drop = "ALTER TABLE users DROP COLUMN image";
      if (backend === "postgres") await postgres(drop);
      else if (backend === "mysql") await mariadb(drop);
      else new Database(join(dir, "auth.db")).exec(drop).close();
      const { report } = await timed(dir, urls[backend]!);
      const finding = report.findings.find((f) => f.id === "db.column-missing");
      expect(finding?.message, backend).toMatch(/The table users .*lacks "image"/);
      if (backend === "postgres") await postgres("ALTER TABLE users ADD COLUMN image TEXT");
      else if (backend === "mysql") await mariadb("ALTER TABLE users ADD COLUMN image TEXT");
    }
  });

  it("reports a refused password on MariaDB and an unknown user on PostgreSQL, hiding both", async () => {
    const dir = await migrated("express", "mysql");
    const wrong = await timed(dir, { DATABASE_URL: `mysql://root:not-the-password@127.0.0.1:3306/${mysqlDatabase}` });
    expect(wrong.report.findings.map((f) => f.id)).toContain("db.auth-failed");
    expect(wrong.seconds).toBeLessThan(5);
    expect(JSON.stringify(wrong.report)).not.toContain("not-the-password");
    const pgDir = await migrated("express", "postgres");
    const unknown = await timed(pgDir, { DATABASE_URL: "postgres://no_such_user:pw-secret@127.0.0.1:5432/test" });
    expect(unknown.report.findings.map((f) => f.id)).toContain("db.auth-failed");
    expect(JSON.stringify(unknown.report)).not.toContain("pw-secret");
  });

  it("reports a server that is down within a few seconds, and a database that does not exist", async () => {
    const dir = await migrated("none", "postgres");
    const mysqlDir = await migrated("none", "mysql");
    for (const [project, url, server] of [
      [dir, "postgres://postgres@127.0.0.1:9/test", "PostgreSQL"],
      [mysqlDir, "mysql://root@127.0.0.1:9/test", "MySQL/MariaDB"],
    ] as const) {
      const down = await timed(project, { DATABASE_URL: url });
      const finding = down.report.findings.find((f) => f.id === "db.unreachable");
      expect(finding?.message).toBe(
        `Cannot reach ${server} at 127.0.0.1:9/test (ECONNREFUSED): sign-in fails wherever it touches the database.`,
      );
      expect(down.seconds).toBeLessThan(5);
    }
    const host = await timed(dir, { DATABASE_URL: "postgres://postgres@db.no-such-host.invalid:5432/test" });
    expect(host.report.findings.find((f) => f.id === "db.unreachable")?.message).toMatch(
      /Cannot reach PostgreSQL at db\.no-such-host\.invalid:5432\/test \((?:ENOTFOUND|EAI_AGAIN)\)/,
    );
    expect(host.seconds).toBeLessThan(6);
    const missing = await timed(dir, { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/no_such_database_here" });
    expect(missing.report.findings.map((f) => f.id)).toContain("db.database-missing");
  });
});

describe("doctor output while it reads the database", () => {
  it("shows progress on a terminal while it reads the database", async () => {
    const dir = copyProject("db.table-missing");
    const { io, stderr } = capturedIo(dir, { AUTH_DATABASE_PATH: "./auth.db" });
    new Database(join(dir, "auth.db")).close();
    Object.assign(io.err, { isTTY: true });
    io.env = { ...io.env, CI: "" };
    await runDoctor({ dir, json: true }, io);
    expect(stderr()).toMatch(/Checking the tables in auth\.db/);
  });
});
