/**
 * The physical auth schema as plain SQL, one template for every dialect
 * (templates/schemas/sql/schema.sql.hbs). The SQL adapter template reuses
 * the identifier quoting and placeholders from `sqlDialectContext`, so the
 * adapter and the schema cannot disagree on a column name.
 */

import { type Dialect, dialects } from "../../catalog/sql-dialects.js";
import { type GeneratedPart, part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import { sqlDialects } from "./dialects/index.js";

/** The camelCase columns: PostgreSQL folds unquoted names to lowercase, so they are always quoted. */
const camelCaseColumns = [
  "userId",
  "emailVerified",
  "passwordHash",
  "providerAccountId",
  "sessionToken",
  "credentialID",
  "credentialPublicKey",
  "credentialDeviceType",
  "credentialBackedUp",
  "enabledAt",
  "lastStep",
  "codeHash",
] as const;

/** `"name"` in PostgreSQL and SQLite, `` `name` `` in MySQL (double quotes are strings there unless ANSI_QUOTES). */
export const quoteIdentifier = (dialect: Dialect, name: string): string => sqlDialects[dialect].quote(name);

/** Bind placeholder number `n` (1-based): `$n` for pg, `?` for mysql2 and better-sqlite3. */
export const placeholder = (dialect: Dialect, n: number): string => sqlDialects[dialect].placeholder(n);

/**
 * What the SQL templates branch on: one boolean per dialect, quoted camelCase
 * identifiers (`q.userId`) and placeholders `p1`..`p12` (the widest insert,
 * accounts, binds 12 values).
 */
export function sqlDialectContext(dialect: Dialect) {
  const q = Object.fromEntries(camelCaseColumns.map((c) => [c, quoteIdentifier(dialect, c)])) as Record<
    (typeof camelCaseColumns)[number],
    string
  >;
  const placeholders = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`p${i + 1}`, placeholder(dialect, i + 1)]),
  );
  return {
    dialect,
    title: sqlDialects[dialect].schemaTitle,
    variable: sqlDialects[dialect].variable,
    // What the adapter templates print for this dialect (dialects/<id>.ts).
    adapter: sqlDialects[dialect].adapterText,
    // One boolean per dialect, for the templates' {{#if postgres}}.
    ...Object.fromEntries(dialects.map((d) => [d, d === dialect])),
    // The partial db.ts.hbs connects with (templates/adapters/partials/db-<dialect>.hbs).
    dbConnection: `db-${dialect}`,
    q,
    ...placeholders,
  };
}

/** The CREATE TABLE IF NOT EXISTS script for `dialect`. */
export async function renderSqlSchema(dialect: Dialect): Promise<string> {
  const context = sqlDialectContext(dialect);
  return renderTemplate("schemas/sql/schema.sql.hbs", { ...context, ...sqlDialects[dialect].schemaText(context.q) });
}

/** Where the schema of `dialect` is written in the project; the verify module reads it from there. */
export const sqlSchemaPath = (dialect: Dialect, dir: string): string => `${dir}/schema.${dialect}.sql`;

export async function generateSqlSchema(dialect: Dialect, dir: string): Promise<GeneratedPart> {
  return part({ files: [{ path: sqlSchemaPath(dialect, dir), contents: await renderSqlSchema(dialect) }] });
}
