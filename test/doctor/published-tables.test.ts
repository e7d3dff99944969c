// The tables doctor expects of a published adapter, read from what each package queries.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { prismaTables, publishedAdapter } from "../../src/doctor/published-tables.js";
import { fixture } from "../helpers.js";

describe("published adapters' tables", () => {
  it("Prisma: each model's table and scalar columns, @@map and @map followed, relations left out", () => {
    const schema = readFileSync(fixture("doctor", "db.prisma-column-missing", "prisma", "schema.prisma"), "utf8");
    const tables = prismaTables(schema);
    expect(Object.keys(tables)).toEqual(["users", "accounts", "sessions", "verification_tokens"]);
    expect(tables.users).toEqual(["id", "name", "email", "email_verified", "image", "locale"]);
    expect(tables.accounts).toContain("provider_account_id");
    expect(tables.accounts).not.toContain("user");
    expect(tables.sessions).toEqual(["id", "session_token", "user_id", "expires"]);
  });

  it("Drizzle's default tables only when the config hands it no tables of its own", () => {
    expect(Object.keys(publishedAdapter(["@auth/drizzle-adapter"], null, 1)!.tables)).toEqual([
      "user",
      "account",
      "session",
      "verificationToken",
    ]);
    expect(publishedAdapter(["@auth/drizzle-adapter"], null, 2)).toBeUndefined();
  });

  it("the SQL of @auth/pg-adapter, Sequelize's snake_case plurals and MikroORM's underscore names", () => {
    expect(publishedAdapter(["pg", "@auth/pg-adapter"], null, 1)!.tables.accounts).toContain("providerAccountId");
    const sequelize = publishedAdapter(["@auth/sequelize-adapter"], null, 1)!.tables;
    expect(Object.keys(sequelize)).toEqual(["users", "accounts", "sessions", "verification_tokens"]);
    expect(sequelize.accounts).toContain("provider_account_id");
    expect(publishedAdapter(["@auth/mikro-orm-adapter"], null, 1)!.tables.session).toContain("session_token");
    expect(publishedAdapter(["./auth/adapter"], null, 0)).toBeUndefined();
  });
});
