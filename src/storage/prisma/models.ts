/**
 * The Auth.js models for @auth/prisma-adapter, described once and rendered
 * two ways: as Prisma schema text (what init adds to schema.prisma) and as
 * the SQL a Prisma migration of those models creates (what `create-auth
 * migrate` applies where Prisma's migration engine cannot run). The adapter
 * calls the models by these names (prisma.user, prisma.account...), so only
 * their tables can move (`@@map`).
 */
import type { Dialect } from "../../catalog/sql-dialects.js";
import { sqlDialects } from "../sql/dialects/index.js";

type Scalar = "String" | "DateTime" | "Int" | "Boolean";

interface Field {
  name: string;
  type: Scalar;
  optional?: boolean;
  /** The single-column primary key. */
  id?: boolean;
  unique?: boolean;
  /** Prisma's @default(...) argument; now() is also a database default. */
  default?: "cuid()" | "now()";
  updatedAt?: boolean;
  /** A long value: TEXT on MySQL, where a String is VARCHAR(191). */
  long?: boolean;
  /** An indexed value that may pass 191 characters (an email address): VARCHAR(255) on MySQL. */
  wide?: boolean;
}

interface Model {
  name: string;
  fields: Field[];
  /** Relation fields to other models (list side), in the order they are written. */
  lists?: { name: string; model: string }[];
  /** The `user User @relation(...)` field, on the userId column. */
  belongsToUser?: boolean;
  compoundId?: string[];
  /** Columns with an index of their own (`@@index`). */
  indexes?: string[];
}

export const authModelNames = ["User", "Account", "Session", "VerificationToken", "Authenticator"] as const;

/** The sign-in throttle's counters (throttle.ts), added after the five: a schema of an older init gets it alone. */
export const attemptModelName = "AttemptCounter";

const stamps: Field[] = [
  { name: "createdAt", type: "DateTime", default: "now()" },
  { name: "updatedAt", type: "DateTime", updatedAt: true },
];

/** The field list of Auth.js's documented Prisma schema. */
export const authModels: Model[] = [
  {
    name: "User",
    fields: [
      { name: "id", type: "String", id: true, default: "cuid()" },
      { name: "name", type: "String", optional: true, long: true },
      { name: "email", type: "String", optional: true, unique: true, wide: true },
      { name: "emailVerified", type: "DateTime", optional: true },
      { name: "image", type: "String", optional: true, long: true },
      ...stamps,
    ],
    lists: [
      { name: "accounts", model: "Account" },
      { name: "sessions", model: "Session" },
      { name: "authenticators", model: "Authenticator" },
    ],
  },
  {
    name: "Account",
    fields: [
      { name: "userId", type: "String" },
      { name: "type", type: "String" },
      { name: "provider", type: "String" },
      // An email account's providerAccountId is the address itself: up to 254 characters, past MySQL's VARCHAR(191).
      { name: "providerAccountId", type: "String", wide: true },
      { name: "refresh_token", type: "String", optional: true, long: true },
      { name: "access_token", type: "String", optional: true, long: true },
      { name: "expires_at", type: "Int", optional: true },
      { name: "token_type", type: "String", optional: true },
      { name: "scope", type: "String", optional: true },
      { name: "id_token", type: "String", optional: true, long: true },
      { name: "session_state", type: "String", optional: true, long: true },
      // Access-token rotation: "<expiry ms>:<holder>" while one process refreshes this account's tokens.
      { name: "refresh_lease", type: "String", optional: true },
      ...stamps,
    ],
    belongsToUser: true,
    compoundId: ["provider", "providerAccountId"],
  },
  {
    name: "Session",
    fields: [
      { name: "sessionToken", type: "String", unique: true },
      { name: "userId", type: "String" },
      { name: "expires", type: "DateTime" },
      ...stamps,
    ],
    belongsToUser: true,
  },
  {
    name: "VerificationToken",
    fields: [
      { name: "identifier", type: "String", wide: true },
      { name: "token", type: "String", wide: true },
      { name: "expires", type: "DateTime" },
    ],
    compoundId: ["identifier", "token"],
  },
  {
    name: "Authenticator",
    fields: [
      // Credential IDs are base64 of up to 1023 bytes; the account's providerAccountId holds the same value.
      { name: "credentialID", type: "String", unique: true, wide: true },
      { name: "userId", type: "String" },
      { name: "providerAccountId", type: "String", wide: true },
      { name: "credentialPublicKey", type: "String", long: true },
      { name: "counter", type: "Int" },
      { name: "credentialDeviceType", type: "String" },
      { name: "credentialBackedUp", type: "Boolean" },
      { name: "transports", type: "String", optional: true },
    ],
    belongsToUser: true,
    compoundId: ["userId", "credentialID"],
  },
  {
    name: attemptModelName,
    fields: [
      // "<kind>:<scope>:<sha-256>": never an address or an email in clear.
      { name: "id", type: "String", id: true },
      { name: "attempts", type: "Int" },
      { name: "expires", type: "DateTime" },
    ],
    indexes: ["expires"],
  },
];

/**
 * Two-factor sign-in's state (two-factor-store.ts, with --two-factor totp), as the SQL schema's two tables:
 * the sealed secret, when a code confirmed it and the last time step used; each recovery code's HMAC. No
 * relation to User, so the User model is left as it is: the store deletes a user's rows when two-factor goes off.
 */
export const twoFactorModels: Model[] = [
  {
    name: "TwoFactor",
    fields: [
      { name: "userId", type: "String", id: true },
      { name: "secret", type: "String", long: true },
      { name: "enabledAt", type: "DateTime", optional: true },
      { name: "lastStep", type: "Int", optional: true },
    ],
  },
  {
    name: "TwoFactorRecoveryCode",
    fields: [
      { name: "userId", type: "String" },
      { name: "codeHash", type: "String" },
    ],
    compoundId: ["userId", "codeHash"],
  },
];

export const twoFactorModelNames = twoFactorModels.map((m) => m.name);

/** Model -> table name: the model's own name unless a prefix maps them all. */
export const tableName = (model: string, prefix: string | undefined) => (prefix ? `${prefix}${model}` : model);

function fieldLine(f: Field, dialect: Dialect): [string, string, string] {
  const attributes: string[] = [];
  if (f.id) attributes.push("@id");
  if (f.unique) attributes.push("@unique");
  if (f.default) attributes.push(`@default(${f.default})`);
  if (f.updatedAt) attributes.push("@updatedAt");
  const { long, wide } = sqlDialects[dialect].prisma.nativeTypes;
  if (f.long && long) attributes.push(long);
  if (f.wide && wide) attributes.push(wide);
  return [f.name, `${f.type}${f.optional ? "?" : ""}`, attributes.join(" ")];
}

/** Columns padded the way `prisma format` aligns them, so the added text is already formatted. */
function aligned(rows: [string, string, string][]): string[] {
  const width = (i: 0 | 1) => Math.max(...rows.map((r) => r[i].length));
  return rows.map(([name, type, attrs]) =>
    `  ${name.padEnd(width(0))} ${attrs ? `${type.padEnd(width(1))} ${attrs}` : type}`.trimEnd(),
  );
}

/** The Prisma text of the auth models (or of those named), each model followed by a blank line; `eol` is the file's line ending. */
export function renderPrismaModels(
  dialect: Dialect,
  prefix: string | undefined,
  eol = "\n",
  only: readonly string[] = authModels.map((m) => m.name),
): string {
  const blocks = [...authModels, ...twoFactorModels]
    .filter((model) => only.includes(model.name))
    .map((model) => {
      const rows: [string, string, string][] = model.fields.map((f) => fieldLine(f, dialect));
      for (const list of model.lists ?? []) rows.push([list.name, `${list.model}[]`, ""]);
      if (model.belongsToUser)
        rows.push(["user", "User", "@relation(fields: [userId], references: [id], onDelete: Cascade)"]);
      const tail: string[] = [];
      if (model.compoundId) tail.push(`  @@id([${model.compoundId.join(", ")}])`);
      for (const column of model.indexes ?? []) tail.push(`  @@index([${column}])`);
      if (prefix) tail.push(`  @@map("${tableName(model.name, prefix)}")`);
      return [`model ${model.name} {`, ...aligned(rows), ...(tail.length ? ["", ...tail] : []), "}"].join(eol);
    });
  return blocks.join(eol + eol) + eol;
}

/**
 * The tables, indexes and foreign keys Prisma's migration of the auth
 * models creates, as CREATE ... IF NOT EXISTS so applying it twice changes
 * nothing. Unique constraints keep Prisma's names (`User_email_key`).
 */
export function renderPrismaSql(dialect: Dialect, prefix: string | undefined, twoFactor = false): string {
  const { quote: q, prisma } = sqlDialects[dialect];
  const { types, now, tableOptions, keysInTable } = prisma.sql;
  const statements: string[] = [];
  for (const model of [...authModels, ...(twoFactor ? twoFactorModels : [])]) {
    const table = tableName(model.name, prefix);
    const lines = model.fields.map((f) => {
      const type = f.long ? types.long : f.wide && types.wide ? types.wide : types[f.type];
      const parts = [q(f.name), type];
      if (!f.optional) parts.push("NOT NULL");
      if (f.default === "now()") parts.push(`DEFAULT ${now}`);
      if (f.id) parts.push("PRIMARY KEY");
      return `  ${parts.join(" ")}`;
    });
    if (model.compoundId) lines.push(`  PRIMARY KEY (${model.compoundId.map(q).join(", ")})`);
    const uniques = model.fields.filter((f) => f.unique);
    if (keysInTable) {
      for (const f of uniques) lines.push(`  UNIQUE KEY ${q(`${table}_${f.name}_key`)} (${q(f.name)})`);
      for (const column of model.indexes ?? []) lines.push(`  INDEX ${q(`${table}_${column}_idx`)} (${q(column)})`);
    }
    if (model.belongsToUser)
      lines.push(
        `  CONSTRAINT ${q(`${table}_userId_fkey`)} FOREIGN KEY (${q("userId")}) REFERENCES ${q(tableName("User", prefix))} (${q("id")}) ON DELETE CASCADE ON UPDATE CASCADE`,
      );
    statements.push(`CREATE TABLE IF NOT EXISTS ${q(table)} (\n${lines.join(",\n")}\n)${tableOptions};`);
    if (!keysInTable) {
      for (const f of uniques)
        statements.push(
          `CREATE UNIQUE INDEX IF NOT EXISTS ${q(`${table}_${f.name}_key`)} ON ${q(table)} (${q(f.name)});`,
        );
      for (const column of model.indexes ?? [])
        statements.push(`CREATE INDEX IF NOT EXISTS ${q(`${table}_${column}_idx`)} ON ${q(table)} (${q(column)});`);
    }
  }
  return `${statements.join("\n\n")}\n`;
}
