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

/** A hand-written project's database, from its Prisma schema or its driver; its tables are not compared. */
function handWritten(root: string, dependencies: Record<string, string>): DatabaseFacts | undefined {
  const prisma = readIfExists(join(root, "prisma/schema.prisma"));
  const provider = prisma && /datasource\s+\w+\s*\{[^}]*provider\s*=\s*"(\w+)"/.exec(prisma)?.[1];
  const variable = (prisma && /url\s*=\s*env\("(\w+)"\)/.exec(prisma)?.[1]) ?? "DATABASE_URL";
  const dialect: Dialect | undefined =
    provider === "postgresql" || (!provider && "pg" in dependencies)
      ? "postgres"
      : provider === "mysql" || (!provider && "mysql2" in dependencies)
        ? "mysql"
        : undefined;
  if (!dialect) return undefined;
  const flavour: SchemaFlavour = prisma ? "prisma" : "sql";
  return { dialect, flavour, variable, tables: {}, migrateCommand: ormCommand[flavour] ?? "your migrations" };
}

export async function readDatabase(
  root: string,
  scripts: Record<string, string>,
  dependencies: Record<string, string>,
): Promise<DatabaseFacts | undefined> {
  const schema = findSchemaScripts(root)[0];
  const dialect = schema && dialectOfSchema(schema);
  if (!schema || !dialect) return handWritten(root, dependencies);
  const flavour = flavourOf(root, schema.slice(0, schema.lastIndexOf("/")));
  return {
    dialect,
    flavour,
    variable: dialect === "sqlite" ? "AUTH_DATABASE_PATH" : "DATABASE_URL",
    tables: tablesOf(await renderSqlSchema(dialect)),
    migrateCommand: migrateCommand(flavour, scripts, schema),
  };
}
