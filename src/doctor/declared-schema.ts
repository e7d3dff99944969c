/**
 * The tables a project declares through its ORM, every one of them (the
 * auth's and the app's own, whatever tables later features add), and where
 * the database they describe is: Prisma's schema.prisma (a file or a folder
 * of them) with its datasource, or Drizzle's schema modules with
 * drizzle.config's credentials. doctor compares these with the database it
 * opens, so a column added to the schema and never migrated is found.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { Dialect } from "../catalog/sql-dialects.js";
import { readDrizzleProject } from "../storage/drizzle/detect.js";
import { readPrismaProject } from "../storage/prisma/detect.js";
import { PrismaSchemaError, parsePrismaSchema } from "../storage/prisma/schema-text.js";
import { dialectOfDrizzleKit, dialectOfPrismaProvider } from "../storage/sql/dialects/index.js";
import type { ProjectView } from "../workspace/project-view.js";
import { prismaTables } from "./published-tables.js";

type Tables = Record<string, string[]>;

export interface DeclaredSchema {
  orm: "prisma" | "drizzle";
  /** The schema as messages name it: "prisma/schema.prisma", "src/db/schema.ts". */
  file: string;
  dialect: Dialect;
  tables: Tables;
  /** The variable holding the connection, when the project names one. */
  variable?: string;
  /** A SQLite file: the folder a relative path is taken from, and the path when the variable is unset. */
  sqlite: { base: string; fallback?: string };
  migrateCommand: string;
}

/** `env("X")`, `process.env.X` or `process.env["X"]` in `text`, and a string written after it as its default. */
function connectionIn(text: string, key: string): { variable?: string; literal?: string } {
  const value = new RegExp(`\\b${key}\\s*[:=]\\s*([^,\\n}]+)`).exec(text)?.[1] ?? "";
  const variable = /(?:\benv\(\s*["'](\w+)["']\s*\)|process\.env(?:\.(\w+)|\[\s*["'](\w+)["']\s*\]))/.exec(value);
  const literal = /^\s*["'`]([^"'`]+)["'`]/.exec(value)?.[1] ?? /(?:\?\?|\|\|)\s*["'`]([^"'`]+)["'`]/.exec(value)?.[1];
  return { variable: variable?.[1] ?? variable?.[2] ?? variable?.[3], literal };
}

/** `process.env.X ?? "default"` anywhere in a module: the variable and the default it falls back to. */
function defaultIn(text: string): { variable?: string; literal?: string } {
  const match = /process\.env(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*(?:\?\?|\|\|)\s*["'`]([^"'`]+)["'`]/.exec(text);
  return match ? { variable: match[1] ?? match[2], literal: match[3] } : {};
}

/** The package script that runs one of `commands` (npm run db:migrate), else undefined. */
function scriptRunning(scripts: Record<string, string>, command: RegExp): string | undefined {
  const name = Object.keys(scripts).find((n) => command.test(scripts[n]!));
  return name && `npm run ${name}`;
}

/** schema.prisma, or every .prisma file of the folder the project names, as one text. */
function prismaText(project: ProjectView, schemaPath: string, folder: boolean): string | null {
  if (!folder) return project.isFile(schemaPath) ? project.read(schemaPath) : null;
  const files = readdirSync(join(project.root, schemaPath), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".prisma"))
    .sort();
  return files.map((f) => readFileSync(join(project.root, schemaPath, f), "utf8")).join("\n");
}

/** The models of the project's Prisma schema and its datasource, when it has one Prisma can read. */
export function declaredPrisma(project: ProjectView, scripts: Record<string, string>): DeclaredSchema | undefined {
  const found = readPrismaProject(project);
  const text = prismaText(project, found.schemaPath, found.schemaFolder);
  if (!text) return undefined;
  let facts: ReturnType<typeof parsePrismaSchema>;
  try {
    facts = parsePrismaSchema(text);
  } catch (error) {
    if (error instanceof PrismaSchemaError) return undefined;
    throw error;
  }
  const dialect = dialectOfPrismaProvider(facts.provider);
  if (!dialect) return undefined;
  const models = facts.blocks.filter((b) => b.kind === "model").map((b) => b.name);
  const schemaDir = found.schemaFolder ? found.schemaPath : posix.dirname(found.schemaPath);
  const datasource = facts.blocks.find((b) => b.kind === "datasource")?.body ?? "";
  // Prisma up to 6 reads the url in the schema, a relative SQLite path from the schema's folder; 7 reads prisma.config.
  const inSchema = facts.hasUrl ? connectionIn(datasource, "url") : undefined;
  const inConfig = found.configPath ? connectionIn(project.read(found.configPath) ?? "", "url") : {};
  const connection = inSchema ?? inConfig;
  const migrations = existsSync(join(project.root, schemaDir, "migrations"));
  return {
    orm: "prisma",
    file: found.schemaPath,
    dialect,
    tables: prismaTables(text, models),
    variable: connection.variable,
    sqlite: {
      base: inSchema ? schemaDir : found.configPath ? posix.dirname(found.configPath) : ".",
      fallback: connection.literal,
    },
    migrateCommand:
      scriptRunning(scripts, /\bprisma\s+(?:migrate|db\s+push)\b/) ??
      (migrations ? "npx prisma migrate dev (prisma migrate deploy in production)" : "npx prisma db push"),
  };
}

/** The tables of the project's Drizzle schema modules and drizzle.config's database, when it names a dialect doctor opens. */
export async function declaredDrizzle(
  project: ProjectView,
  scripts: Record<string, string>,
): Promise<DeclaredSchema | undefined> {
  const found = readDrizzleProject(project);
  const dialect = dialectOfDrizzleKit(found.dialect);
  if (!found.configPath || !found.schemaPath || !dialect) return undefined;
  const config = project.read(found.configPath) ?? "";
  const snake = /\bcasing\s*:\s*["']snake_case["']/.test(config);
  const tables: Tables = {};
  for (const [path, text] of Object.entries(withReExports(project, found.schemaTexts ?? {})))
    Object.assign(tables, await drizzleTables(text, path, snake));
  const inConfig = connectionIn(config, "url");
  // The app's own module may say which file it opens when the variable is unset.
  const inModule = found.db ? defaultIn(project.read(found.db.path) ?? "") : {};
  const journal = found.out && existsSync(join(project.root, found.out, "meta", "_journal.json"));
  return {
    orm: "drizzle",
    file: found.schemaPath,
    dialect,
    tables,
    variable: inConfig.variable ?? inModule.variable,
    sqlite: { base: ".", fallback: inConfig.literal ?? inModule.literal },
    migrateCommand:
      scriptRunning(scripts, /\bdrizzle-kit\s+(?:push|migrate)\b/) ??
      (journal ? "npx drizzle-kit generate, then npx drizzle-kit migrate" : "npx drizzle-kit push"),
  };
}

/**
 * The schema modules and the ones they re-export from (`export * from
 * "./auth-schema"`), as drizzle-kit reads them: its tables are what the
 * schema exports, wherever they are written.
 */
function withReExports(project: ProjectView, texts: Record<string, string>): Record<string, string> {
  const all = { ...texts };
  const queue = Object.keys(texts);
  while (queue.length && Object.keys(all).length < 100) {
    const from = queue.shift()!;
    for (const [, specifier] of all[from]!.matchAll(/^\s*export\s+(?:\*|\{[^}]*\})\s+from\s+["'](\.[^"']+)["']/gm)) {
      const base = posix.join(posix.dirname(from), specifier!).replace(/\.[cm]?js$/, "");
      const path = [".ts", ".mts", ".js", ".mjs", "/index.ts", "/index.js"]
        .map((ext) => `${base}${ext}`)
        .find((p) => project.isFile(p));
      if (!path || path in all) continue;
      all[path] = project.read(path) ?? "";
      queue.push(path);
    }
  }
  return all;
}

/**
 * Table → columns of a Drizzle schema module: each `pgTable("name", {...})`
 * (mysqlTable, sqliteTable) whose function comes from drizzle-orm, a column
 * named by its builder's first argument, else by its key (in snake_case when
 * the config sets `casing`). Columns it cannot see (a spread of another
 * object) are left out rather than guessed.
 */
export async function drizzleTables(text: string, fileName: string, snakeCase = false): Promise<Tables> {
  const [{ parse }, { descendants, ofType, propertyName, stringValue, unwrap }, { collectBindings }] =
    await Promise.all([import("../ast/parse.js"), import("../ast/nodes.js"), import("../ast/bindings.js")]);
  const file = parse(text, fileName);
  const tableFunctions = new Set(
    collectBindings(file)
      .filter(
        (b) =>
          /^drizzle-orm\/[\w-]+-core$/.test(b.module) &&
          /^(?:pg|mysql|sqlite|singlestore)Table$/.test(b.imported ?? ""),
      )
      .map((b) => b.local),
  );
  const tables: Tables = {};
  type Node = Parameters<typeof unwrap>[0];
  /** The builder call at the start of a chain: `text("name")` in `text("name").notNull().default("")`. */
  const builderOf = (node: Node): Node | undefined => {
    let current = unwrap(node);
    while (current.type === "CallExpression" && current.callee.type === "MemberExpression")
      current = unwrap(current.callee.object);
    return current.type === "CallExpression" ? current : undefined;
  };
  for (const call of descendants(file.root.program, ofType("CallExpression"))) {
    if (call.callee.type !== "Identifier" || !tableFunctions.has(call.callee.name)) continue;
    const name = stringValue(call.arguments[0]);
    let columns = call.arguments[1] && unwrap(call.arguments[1]);
    // The callback form: (t) => ({ id: t.integer() }).
    if (columns?.type === "ArrowFunctionExpression") columns = unwrap(columns.body as Node);
    if (!name || columns?.type !== "ObjectExpression") continue;
    tables[name] = columns.properties.flatMap((property) => {
      const key = propertyName(property);
      if (!key || property.type !== "ObjectProperty") return [];
      const builder = builderOf(property.value as Node);
      const given = builder?.type === "CallExpression" ? stringValue(builder.arguments[0]) : undefined;
      return [given ?? (snakeCase ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key)];
    });
  }
  return tables;
}
