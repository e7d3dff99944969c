/**
 * The tables and columns a published adapter queries, for projects whose
 * schema create-auth did not write. Read from each package's source:
 * @auth/pg-adapter's SQL, @auth/kysely-adapter's Database type, the default
 * tables @auth/drizzle-adapter builds when given none, the entities of
 * @auth/typeorm-adapter, @auth/sequelize-adapter (its models defined with
 * `underscored: true`, so Sequelize names tables and columns in snake_case
 * and plural) and @auth/mikro-orm-adapter (MikroORM's default underscore
 * naming); Prisma's come from the project's own schema.prisma, whose models
 * the adapter reads whole.
 */

import { PrismaSchemaError, parsePrismaSchema } from "../storage/prisma/schema-text.js";

type Tables = Record<string, string[]>;

const userColumns = ["id", "name", "email", "emailVerified", "image"];
const accountColumns = [
  "userId",
  "type",
  "provider",
  "providerAccountId",
  "refresh_token",
  "access_token",
  "expires_at",
  "token_type",
  "scope",
  "id_token",
  "session_state",
];
const sessionColumns = ["sessionToken", "userId", "expires"];
const tokenColumns = ["identifier", "token", "expires"];

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tables of each package that fixes its own; drizzle's only when it is given no tables of the project's. */
const fixedTables: Record<string, Tables> = {
  "@auth/pg-adapter": {
    users: userColumns,
    accounts: ["id", ...accountColumns],
    sessions: ["id", ...sessionColumns],
    verification_token: tokenColumns,
  },
  "@auth/kysely-adapter": {
    User: userColumns,
    Account: accountColumns,
    Session: sessionColumns,
    VerificationToken: tokenColumns,
  },
  "@auth/typeorm-adapter": {
    users: userColumns,
    accounts: ["id", ...accountColumns],
    sessions: ["id", ...sessionColumns],
    verification_tokens: ["id", ...tokenColumns],
  },
  "@auth/sequelize-adapter": {
    users: userColumns.map(snake),
    accounts: ["id", ...accountColumns].map(snake),
    sessions: ["id", ...sessionColumns].map(snake),
    verification_tokens: tokenColumns,
  },
  "@auth/mikro-orm-adapter": {
    user: userColumns.map(snake),
    account: ["id", ...accountColumns].map(snake),
    session: ["id", ...sessionColumns].map(snake),
    verification_token: tokenColumns,
  },
};

const drizzleDefaults: Tables = {
  user: userColumns,
  account: accountColumns,
  session: sessionColumns,
  verificationToken: tokenColumns,
};

/** The models @auth/prisma-adapter (and v4's @next-auth/prisma-adapter) reads, by their Prisma names. */
const prismaModels = ["User", "Account", "Session", "VerificationToken"];

/**
 * Each model's table (`@@map`, else its name) and its scalar fields' columns
 * (`@map`, else their names). Blocks are found by the schema scanner, which
 * knows Prisma's strings and comments (a `"{}"` default closes no block).
 */
export function prismaTables(schema: string, models: readonly string[] = prismaModels): Tables {
  let blocks: Map<string, string>;
  try {
    blocks = new Map(
      parsePrismaSchema(schema)
        .blocks.filter((b) => b.kind === "model")
        .map((b) => [b.name, b.body.replace(/\/\/[^\n]*/g, "")]),
    );
  } catch (error) {
    if (error instanceof PrismaSchemaError) return {};
    throw error;
  }
  const tables: Tables = {};
  for (const model of models) {
    const body = blocks.get(model);
    if (body === undefined) continue;
    const table = /@@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)/.exec(body)?.[1] ?? model;
    const columns: string[] = [];
    for (const line of body.split("\n")) {
      const field = /^\s*(\w+)\s+(\w+)(\[\])?\??(.*)$/.exec(line);
      if (!field) continue;
      const [, name, type, list, rest] = field;
      // A relation (another model, a list of one, or @relation) has no column of its own.
      if (blocks.has(type!) || list || /@relation\b/.test(rest!)) continue;
      columns.push(/@map\(\s*(?:name:\s*)?"([^"]+)"\s*\)/.exec(rest!)?.[1] ?? name!);
    }
    tables[table] = columns;
  }
  return tables;
}

interface PublishedAdapter {
  /** The package, as the message names it. */
  name: string;
  tables: Tables;
  /** How its tables are made, after "Run" in a finding's fix. */
  tablesCommand: string;
}

/**
 * The published adapter the config reaches and the tables it needs, or
 * undefined for an adapter of the project's own (or drizzle given the
 * project's tables). `adapterArguments`: how many the config passes to the
 * adapter's factory, when it calls it itself.
 */
export function publishedAdapter(
  packages: readonly string[],
  prismaSchema: string | null,
  adapterArguments: number | undefined,
): PublishedAdapter | undefined {
  const prisma = packages.find((p) => p === "@auth/prisma-adapter" || p === "@next-auth/prisma-adapter");
  if (prisma && prismaSchema)
    return {
      name: prisma,
      tables: prismaTables(prismaSchema),
      tablesCommand: "npx prisma migrate dev (prisma migrate deploy in production)",
    };
  if (packages.includes("@auth/drizzle-adapter"))
    return adapterArguments === 1
      ? {
          name: "@auth/drizzle-adapter",
          tables: drizzleDefaults,
          tablesCommand: "npx drizzle-kit push (with the adapter's default tables in your Drizzle schema)",
        }
      : undefined;
  const name = Object.keys(fixedTables).find((p) => packages.includes(p));
  if (!name) return undefined;
  const docs = `https://authjs.dev/getting-started/adapters/${name.slice("@auth/".length).replace(/-adapter$/, "")}`;
  return { name, tables: fixedTables[name]!, tablesCommand: `the adapter's schema from ${docs}` };
}
