/**
 * Which database the project's auth uses and the tables it needs. The tables
 * and columns come from the schema create-auth generates (the SQL DDL, which
 * the Prisma, Drizzle and TypeORM flavours describe column for column), never
 * from a second copy here.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Dialect } from "../catalog/sql-dialects.js";
import { flavourFacts, type SchemaFlavour, schemaFlavours } from "../storage/schemas.js";
import { renderSqlSchema } from "../storage/sql/schema.js";
import { dialectOfSchema, findSchemaScripts } from "../workspace/migrate.js";
import { readIfExists } from "../workspace/plan.js";
import type { DatabaseFacts } from "./model/facts.js";
import { publishedAdapter } from "./published-tables.js";

/** Table -> columns of a CREATE TABLE script (comments, keys and constraints left out). */
export function tablesOf(script: string): Record<string, string[]> {
  const tables: Record<string, string[]> = {};
  const text = script.replace(/--[^\n]*/g, "");
  for (const match of text.matchAll(/CREATE TABLE(?: IF NOT EXISTS)? [`"]?(\w+)[`"]? \(([\s\S]*?)\n\)/g)) {
    tables[match[1]!] = match[2]!
      .split("\n")
      .map((line) => /^\s*[`"]?(\w+)[`"]?\s+\w/.exec(line)?.[1])
      .filter(
        (c): c is string => c !== undefined && !/^(?:UNIQUE|PRIMARY|FOREIGN|CONSTRAINT|CHECK|INDEX|KEY)$/i.test(c),
      );
  }
  return tables;
}

function flavourOf(root: string, dir: string): SchemaFlavour {
  const found = schemaFlavours.find((f) => {
    const file = flavourFacts[f].file?.(dir);
    return file !== undefined && existsSync(join(root, file));
  });
  return found ?? "sql";
}

function migrateCommand(flavour: SchemaFlavour, scripts: Record<string, string>, schema?: string): string {
  const own = scripts["db:migrate"] ? "npm run db:migrate" : schema ? `npx create-auth migrate ${schema}` : undefined;
  // init's Prisma wiring: db:migrate is Prisma's own, auth:tables the same tables without its engines.
  const push = flavourFacts[flavour].pushScript;
  const orm = scripts["auth:tables"]
    ? "npm run auth:tables"
    : push && scripts[push]
      ? `npm run ${push}`
      : flavourFacts[flavour].tablesCommand;
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
 * A schema create-auth generated gives the tables to compare, else a
 * published adapter's (published-tables.ts); a hand-written adapter's
 * connection is checked, its tables are not.
 */
export async function readDatabase(
  root: string,
  scripts: Record<string, string>,
  packages: string[],
  adapterDir?: string,
  adapterArguments?: number,
): Promise<DatabaseFacts | undefined> {
  const prisma = readIfExists(join(root, "prisma/schema.prisma"));
  const schemaScripts = findSchemaScripts(root, adapterDir ? [adapterDir] : []);
  // A Prisma client generated into the project is imported by path, not as @prisma/client: one schema script says which.
  const dialect =
    dialectOf(packages, prisma) ??
    (prisma && schemaScripts.length === 1 ? dialectOfSchema(schemaScripts[0]!) : undefined);
  if (!dialect) return undefined;
  const schema = schemaScripts.find((s) => dialectOfSchema(s) === dialect);
  const prismaVariable =
    (packages.includes("@prisma/client") && prisma && /url\s*=\s*env\("(\w+)"\)/.exec(prisma)?.[1]) || undefined;
  if (!schema) {
    // A SQLite file of a hand-written adapter could be anywhere: only a server's connection is checked.
    if (dialect === "sqlite") return undefined;
    const flavour: SchemaFlavour = prismaVariable ? "prisma" : "sql";
    // A published adapter's tables are known from its source; a hand-written adapter's are not.
    const published = publishedAdapter(packages, prisma, adapterArguments);
    return {
      dialect,
      flavour,
      variable: prismaVariable ?? "DATABASE_URL",
      tables: published?.tables ?? {},
      migrateCommand: published?.tablesCommand ?? flavourFacts[flavour].tablesCommand ?? "your migrations",
      ...(published ? { adapter: published.name } : {}),
    };
  }
  const flavour = flavourOf(root, schema.slice(0, schema.lastIndexOf("/")));
  // The project's own script when it is readable (init's Prisma wiring writes Prisma's tables there), else the SQL flavour's.
  const text = readIfExists(join(root, schema)) ?? (await renderSqlSchema(dialect));
  return {
    dialect,
    flavour,
    variable:
      /^-- connection: (\w+)/m.exec(text)?.[1] ?? (dialect === "sqlite" ? "AUTH_DATABASE_PATH" : "DATABASE_URL"),
    tables: tablesOf(text),
    migrateCommand: migrateCommand(flavour, scripts, schema),
  };
}
