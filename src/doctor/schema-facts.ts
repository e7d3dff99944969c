/**
 * Which database the project's auth uses and the tables it needs. The tables
 * and columns come from the schema create-auth generates (the SQL DDL, which
 * the Prisma, Drizzle and TypeORM flavours describe column for column), never
 * from a second copy here.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Dialect, SchemaFlavour } from "../catalog/backends.js";
import { renderSqlSchema } from "../generators/sql-schema.js";
import { dialectOfSchema, findSchemaScripts } from "../workspace/migrate.js";
import { readIfExists } from "../workspace/plan.js";
import type { DatabaseFacts } from "./facts.js";

/** Table -> columns of a CREATE TABLE script (comments, keys and constraints left out). */
export function tablesOf(script: string): Record<string, string[]> {
  const tables: Record<string, string[]> = {};
  const text = script.replace(/--[^\n]*/g, "");
  for (const match of text.matchAll(/CREATE TABLE(?: IF NOT EXISTS)? [`"]?(\w+)[`"]? \(([\s\S]*?)\n\)/g)) {
    tables[match[1]!] = match[2]!
      .split("\n")
      .map((line) => /^\s*[`"]?(\w+)[`"]?\s+\w/.exec(line)?.[1])
      .filter((c): c is string => c !== undefined && !/^(?:UNIQUE|PRIMARY|FOREIGN|CONSTRAINT|CHECK)$/i.test(c));
  }
  return tables;
}

function flavourOf(root: string, dir: string): SchemaFlavour {
  if (existsSync(join(root, "prisma/schema.prisma"))) return "prisma";
  if (existsSync(join(root, dir, "schema.drizzle.ts"))) return "drizzle";
  if (existsSync(join(root, dir, "entities.ts"))) return "typeorm";
  return "sql";
}

const ormCommand: Record<SchemaFlavour, string | undefined> = {
  sql: undefined,
  prisma: "npx prisma db push",
  drizzle: "npx drizzle-kit push",
  typeorm: "your TypeORM migrations",
};

function migrateCommand(flavour: SchemaFlavour, scripts: Record<string, string>, schema?: string): string {
  const own = scripts["db:migrate"] ? "npm run db:migrate" : schema ? `npx create-auth migrate ${schema}` : undefined;
  const orm = flavour === "prisma" && scripts["db:push"] ? "npm run db:push" : ormCommand[flavour];
  return [own, orm].filter(Boolean).join(" (or ") + (own && orm ? ")" : "");
}

/** The dialect the auth's modules connect with: the driver they import, or Prisma's datasource. */
function dialectOf(packages: string[], prismaSchema: string | null): Dialect | undefined {
  if (packages.includes("@prisma/client") && prismaSchema) {
    const provider = /datasource\s+\w+\s*\{[^}]*provider\s*=\s*"(\w+)"/.exec(prismaSchema)?.[1];
    return provider === "postgresql"
      ? "postgres"
      : provider === "mysql"
        ? "mysql"
        : provider === "sqlite"
          ? "sqlite"
          : undefined;
  }
  if (packages.includes("pg") || packages.includes("postgres")) return "postgres";
  if (packages.includes("mysql2")) return "mysql";
  if (packages.includes("better-sqlite3")) return "sqlite";
  return undefined;
}

/**
 * The database the auth's modules use (`packages`: what the config reaches).
 * A schema create-auth generated gives the tables to compare; a hand-written
 * project's connection is checked, its tables are not.
 */
export async function readDatabase(
  root: string,
  scripts: Record<string, string>,
  packages: string[],
): Promise<DatabaseFacts | undefined> {
  const prisma = readIfExists(join(root, "prisma/schema.prisma"));
  const dialect = dialectOf(packages, prisma);
  if (!dialect) return undefined;
  const schema = findSchemaScripts(root).find((s) => dialectOfSchema(s) === dialect);
  const prismaVariable =
    (packages.includes("@prisma/client") && prisma && /url\s*=\s*env\("(\w+)"\)/.exec(prisma)?.[1]) || undefined;
  if (!schema) {
    // A SQLite file of a hand-written adapter could be anywhere: only a server's connection is checked.
    if (dialect === "sqlite") return undefined;
    const flavour: SchemaFlavour = prismaVariable ? "prisma" : "sql";
    return {
      dialect,
      flavour,
      variable: prismaVariable ?? "DATABASE_URL",
      tables: {},
      migrateCommand: ormCommand[flavour] ?? "your migrations",
    };
  }
  const flavour = flavourOf(root, schema.slice(0, schema.lastIndexOf("/")));
  return {
    dialect,
    flavour,
    variable: dialect === "sqlite" ? "AUTH_DATABASE_PATH" : "DATABASE_URL",
    tables: tablesOf(await renderSqlSchema(dialect)),
    migrateCommand: migrateCommand(flavour, scripts, schema),
  };
}
