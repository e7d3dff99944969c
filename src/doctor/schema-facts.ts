/**
 * Which database the project's auth uses and the tables it needs. The tables
 * and columns come from the schema create-auth generates (the SQL DDL, which
 * the Prisma, Drizzle and TypeORM flavours describe column for column), from
 * the ORM schema the project declares (declared-schema.ts), and from a
 * published adapter's source (published-tables.ts), never from a fixed list.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Dialect } from "../catalog/sql-dialects.js";
import type { DatabaseFacts } from "../doctor-model/facts.js";
import { type PrismaDatasource, prismaDatasource } from "../storage/prisma/schema-text.js";
import { flavourFacts, type SchemaFlavour, schemaFlavours } from "../storage/schemas.js";
import { sqlDialects } from "../storage/sql/dialects/index.js";
import { dialectOfSchema, findSchemaScripts } from "../storage/sql/migrate.js";
import { renderSqlSchema } from "../storage/sql/schema.js";
import { readIfExists } from "../workspace/plan.js";
import { ProjectView } from "../workspace/project-view.js";
import { type DeclaredSchema, declaredDrizzle, declaredPrisma } from "./declared-schema.js";
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
function dialectOf(packages: string[], prisma: PrismaDatasource | undefined): Dialect | undefined {
  if (packages.includes("@prisma/client") && prisma) return prisma.dialect;
  return Object.values(sqlDialects).find((d) => d.clientPackages.some((p) => packages.includes(p)))?.id;
}

type Tables = Record<string, string[]>;

/** Two table lists as one: each table's columns from both, once. */
function merge(...lists: (Tables | undefined)[]): Tables {
  const out: Tables = {};
  for (const list of lists)
    for (const [table, columns] of Object.entries(list ?? {}))
      out[table] = [...new Set([...(out[table] ?? []), ...columns])];
  return out;
}

/** The ORM schema the auth's modules use (Prisma's models, Drizzle's tables), when the project declares one. */
async function declaredSchema(
  root: string,
  scripts: Record<string, string>,
  packages: string[],
  schemaScripts: string[],
): Promise<DeclaredSchema | undefined> {
  const project = new ProjectView(root);
  // init's Prisma wiring reaches a client generated into the project, by path: its schema scripts stand for it.
  const prisma = packages.some((p) => p.startsWith("@prisma/") || /prisma-adapter$/.test(p)) || schemaScripts.length;
  const drizzle = packages.includes("drizzle-orm") || packages.includes("@auth/drizzle-adapter");
  return (
    (prisma ? declaredPrisma(project, scripts) : undefined) ?? (drizzle ? declaredDrizzle(project, scripts) : undefined)
  );
}

/** Who needs each table: the published adapter reads its own, the schema declares the rest. */
function neededBy(tables: Tables, declared?: DeclaredSchema, adapter?: { name: string; tables: Tables }) {
  return Object.fromEntries(
    Object.keys(tables).map((table) => [
      table,
      adapter && table in adapter.tables
        ? { by: adapter.name, reads: true }
        : { by: declared?.file ?? "the schema", reads: false },
    ]),
  );
}

/**
 * The database the auth's modules use (`packages`: what the config reaches)
 * and every table it must have: create-auth's generated schema, the ORM
 * schema the project declares (all of its tables, the app's own included),
 * and a published adapter's fixed tables; a hand-written adapter's
 * connection is checked, its tables are not.
 */
export async function readDatabase(
  root: string,
  scripts: Record<string, string>,
  packages: string[],
  adapterDir?: string,
  adapterArguments?: number,
): Promise<DatabaseFacts | undefined> {
  const prismaText = readIfExists(join(root, "prisma/schema.prisma"));
  const prisma = prismaText === null ? undefined : prismaDatasource(prismaText);
  const schemaScripts = findSchemaScripts(root, adapterDir ? [adapterDir] : []);
  const declared = await declaredSchema(root, scripts, packages, schemaScripts);
  // A Prisma client generated into the project is imported by path, not as @prisma/client: one schema script says which.
  const dialect =
    declared?.dialect ??
    dialectOf(packages, prisma) ??
    (prismaText && schemaScripts.length === 1 ? dialectOfSchema(schemaScripts[0]!) : undefined);
  if (!dialect) return undefined;
  const own = declared?.dialect === dialect ? declared : undefined;
  const schema = schemaScripts.find((s) => dialectOfSchema(s) === dialect);
  if (schema) {
    const flavour = flavourOf(root, schema.slice(0, schema.lastIndexOf("/")));
    // The project's own script when it is readable (init's Prisma wiring writes Prisma's tables there), else the SQL flavour's.
    const text = readIfExists(join(root, schema)) ?? (await renderSqlSchema(dialect));
    const generated = tablesOf(text);
    const variable = /^-- connection: (\w+)/m.exec(text)?.[1] ?? sqlDialects[dialect].variable;
    // The ORM's tables count where they live in the same database: the schema connects through the same variable.
    const same = own?.variable === variable ? own : undefined;
    const tables = merge(generated, same?.tables);
    return {
      dialect,
      flavour,
      variable,
      tables,
      migrateCommand: migrateCommand(flavour, scripts, schema),
      // create-auth's tables need no introduction; the ORM's own are named by their schema.
      ...(same
        ? { neededBy: Object.fromEntries(Object.entries(neededBy(tables, same)).filter(([t]) => !(t in generated))) }
        : {}),
      sqlite: same?.sqlite ?? { base: ".", fallback: "./auth.db" },
    };
  }
  // A published adapter's tables are known from its source; a hand-written adapter's are not.
  const published = publishedAdapter(packages, prismaText, adapterArguments);
  if (own) {
    const tables = merge(published?.tables, own.tables);
    return {
      dialect,
      flavour: own.orm,
      variable: own.variable ?? "DATABASE_URL",
      tables,
      migrateCommand: own.migrateCommand,
      ...(published ? { adapter: published.name } : {}),
      neededBy: neededBy(tables, own, published),
      sqlite: own.sqlite,
    };
  }
  // A SQLite file of a hand-written adapter could be anywhere: only a server's connection is checked.
  if (sqlDialects[dialect].embedded) return undefined;
  const prismaVariable = (packages.includes("@prisma/client") && prisma?.variable) || undefined;
  const flavour: SchemaFlavour = prismaVariable ? "prisma" : "sql";
  return {
    dialect,
    flavour,
    variable: prismaVariable ?? "DATABASE_URL",
    tables: published?.tables ?? {},
    migrateCommand: published?.tablesCommand ?? flavourFacts[flavour].tablesCommand ?? "your migrations",
    ...(published ? { adapter: published.name, neededBy: neededBy(published.tables, undefined, published) } : {}),
  };
}
