/**
 * Adding the Auth.js models to a schema.prisma, one folder per case under
 * fixtures/prisma-schemas/: input.prisma, options.json ({ dialect,
 * tablePrefix?, refused? }) and the expected output.prisma. Every byte of
 * the input stays (line endings too); the added models are formatted as
 * `prisma format` writes them; a refusal changes nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../src/catalog/sql-dialects.js";
import { renderPrismaSql } from "../../src/storage/prisma/models.js";
import {
  dialectOfProvider,
  mergeAuthModels,
  newPrismaSchema,
  PrismaSchemaError,
  parsePrismaSchema,
} from "../../src/storage/prisma/schema-text.js";
import { fixture } from "../helpers.js";

const require = createRequire(import.meta.url);
const prismaWasm = require("@prisma/prisma-schema-wasm") as { format(schemas: string, params: string): string };
const prismaFormat = (schema: string) => {
  const params = { textDocument: { uri: "file:/schema.prisma" }, options: { tabSize: 2, insertSpaces: true } };
  return (
    JSON.parse(prismaWasm.format(JSON.stringify([["schema.prisma", schema]]), JSON.stringify(params))) as [
      [string, string],
    ]
  )[0][1];
};

const base = fixture("prisma-schemas");
const cases = readdirSync(base).map((name) => {
  const read = (file: string) => readFileSync(join(base, name, file), "utf8");
  const options = JSON.parse(read("options.json")) as { dialect: Dialect; tablePrefix?: string; refused?: string };
  return { name, options, input: read("input.prisma"), output: options.refused ? undefined : read("output.prisma") };
});

/** The merge as init uses it: refused merges and unreadable schemas alike give a reason, not a text. */
function merge(input: string, options: { dialect: Dialect; tablePrefix?: string }) {
  try {
    dialectOfProvider(parsePrismaSchema(input).provider);
    return mergeAuthModels(input, options.dialect, options.tablePrefix);
  } catch (error) {
    if (error instanceof PrismaSchemaError) return { status: "refused" as const, reason: error.message };
    throw error;
  }
}

describe("the Auth.js models added to a schema.prisma", () => {
  it.each(cases.filter((c) => !c.options.refused))("$name", ({ input, output, options }) => {
    const result = merge(input, options);
    const text = result.status === "added" ? result.text : input;
    expect(text).toBe(output);
    expect(text.startsWith(input)).toBe(true);
    // The same line ending throughout, the input's own.
    if (input.includes("\r\n")) expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
    // The added part is already formatted: formatting the whole file changes only what the user wrote.
    const added = text
      .slice(input.length)
      .replace(/\r\n/g, "\n")
      .replace(/^\s*\/\/.*\n/, "");
    if (added) expect(prismaFormat(added)).toBe(added);
    // A second run finds the models there and changes nothing.
    expect(merge(text, options)).toEqual({ status: "present" });
  });

  it.each(cases.filter((c) => c.options.refused))("$name: refused in one line", ({ input, options }) => {
    const result = merge(input, options);
    expect(result.status).toBe("refused");
    const reason = (result as { reason: string }).reason;
    expect(reason).toContain(options.refused);
    expect(reason).not.toMatch(/\n/);
  });

  it("every case folder has a readable options.json and an output unless refused", () => {
    expect(cases.length).toBeGreaterThanOrEqual(9);
    for (const c of cases) expect(c.options.refused !== undefined || c.output !== undefined).toBe(true);
  });

  it("a new schema is Prisma 7's (no url, a generator output) or Prisma 6's (url from env)", () => {
    const seven = newPrismaSchema("postgres", undefined, 7);
    expect(parsePrismaSchema(seven)).toMatchObject({
      provider: "postgresql",
      hasUrl: false,
      generator: { provider: "prisma-client", output: "../generated/prisma" },
    });
    expect(prismaFormat(seven)).toBe(seven);
    expect(parsePrismaSchema(newPrismaSchema("mysql", undefined, 6))).toMatchObject({
      provider: "mysql",
      hasUrl: true,
    });
  });
});

describe("the SQL of the Prisma models, for create-auth migrate", () => {
  it.each<Dialect>(["sqlite", "postgres", "mysql"])("%s: every table, IF NOT EXISTS, Prisma's key names", (dialect) => {
    const sql = renderPrismaSql(dialect, undefined);
    const q = (name: string) => (dialect === "mysql" ? `\`${name}\`` : `"${name}"`);
    for (const table of ["User", "Account", "Session", "VerificationToken", "Authenticator"])
      expect(sql).toContain(`CREATE TABLE IF NOT EXISTS ${q(table)} (`);
    expect(sql).toContain(q("User_email_key"));
    expect(sql).toContain(`PRIMARY KEY (${q("provider")}, ${q("providerAccountId")})`);
    expect(sql).toMatch(/ON DELETE CASCADE/);
  });

  it("a table prefix renames every table and the foreign keys' target", () => {
    const sql = renderPrismaSql("postgres", "auth_");
    expect(sql).not.toMatch(/TABLE IF NOT EXISTS "User"/);
    expect(sql).toContain('REFERENCES "auth_User" ("id")');
  });
});
