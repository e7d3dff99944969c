/**
 * doctor on projects whose tables a published adapter defines (fixtures/doctor
 * with "database": "postgres"): each fixture's fixture.sql builds the database
 * as the project has it, in a schema of its own on the real PostgreSQL, and
 * doctor names exactly the table or column the adapter's queries would miss.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { copyProject, doctorFixtures, doctorJson, problemIds, readMeta } from "./helpers.js";

const schemas: string[] = [];
const server = "postgres://postgres@127.0.0.1:5432/test";

async function query(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const schema of schemas) await query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

describe("doctor against the tables of published adapters", () => {
  const names = doctorFixtures().filter((name) => readMeta(name).database === "postgres");

  it("has the published adapters' fixtures", () => {
    expect(names).toEqual(expect.arrayContaining(["db.published-table-missing", "db.prisma-column-missing"]));
  });

  for (const name of names) {
    it(`finds ${name}`, async () => {
      const meta = readMeta(name);
      const dir = copyProject(name, meta);
      const schema = `doctor_published_${randomBytes(4).toString("hex")}`;
      schemas.push(schema);
      await query(
        `CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${readFileSync(join(dir, "fixture.sql"), "utf8")}`,
      );
      const url = `${server}?options=-c%20search_path%3D${schema}`;
      const { exitCode, report } = await doctorJson(dir, [], { DATABASE_URL: url });
      expect(problemIds(report)).toEqual([...meta.expect].sort());
      expect(exitCode).toBe(1);
      const finding = report.findings.find((f) => f.id === meta.expect[0])!;
      expect(finding.message).not.toContain("postgres@");
    });
  }

  it("names the table @auth/pg-adapter queries and the column schema.prisma has that the database lacks", async () => {
    const messages: Record<string, string> = {};
    for (const name of ["db.published-table-missing", "db.prisma-column-missing"]) {
      const dir = copyProject(name, readMeta(name));
      const schema = `doctor_published_${randomBytes(4).toString("hex")}`;
      schemas.push(schema);
      await query(
        `CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${readFileSync(join(dir, "fixture.sql"), "utf8")}`,
      );
      const { report } = await doctorJson(dir, [], {
        DATABASE_URL: `${server}?options=-c%20search_path%3D${schema}`,
      });
      messages[name] = report.findings.map((f) => `${f.message} ${f.fix}`).join("\n");
    }
    expect(messages["db.published-table-missing"]).toMatch(
      /^The table accounts is missing in PostgreSQL at 127\.0\.0\.1:5432\/test: @auth\/pg-adapter's queries on it fail\. Run the adapter's schema from https:\/\/authjs\.dev\/getting-started\/adapters\/pg\.$/m,
    );
    expect(messages["db.published-table-missing"]).not.toMatch(/table (?:users|sessions|verification_token) /);
    expect(messages["db.prisma-column-missing"]).toMatch(
      /^The table users in PostgreSQL at 127\.0\.0\.1:5432\/test lacks "locale", which @auth\/prisma-adapter reads\. Run npx prisma migrate dev/m,
    );
  });
});
