/**
 * The auth tables as an ORM schema: Prisma, Drizzle or TypeORM, for one SQL
 * dialect. Every flavour describes the same physical schema as the SQL DDL
 * (src/generators/sql-schema.ts), so an adapter written against one works on
 * tables created from another. One template per artifact; the dialect only
 * switches conditionals inside it.
 */

import type { Dialect, SchemaFlavour } from "../catalog/backends.js";
import type { DependencyName } from "../catalog/dependencies.js";
import { renderTemplate } from "./render.js";
import { authDir, type GeneratedPart } from "./types.js";

export interface SchemaOptions {
  /** Extension written on relative imports in generated TypeScript ("" for bundlers, ".js" for NodeNext). */
  importExtension: "" | ".js";
  /** The folder of the generated auth files (default "auth"). */
  dir?: string;
}

const dialectNames: Record<Dialect, string> = { postgres: "PostgreSQL", mysql: "MySQL", sqlite: "SQLite" };

/** Prisma's datasource reads the connection string (in Prisma's URL forms); Drizzle and TypeORM schemas read nothing. */
const prismaDatabaseUrl = (dialect: Dialect): GeneratedPart["env"][number] => ({
  name: "DATABASE_URL",
  description: `${dialectNames[dialect]} connection string for Prisma`,
  example: {
    postgres: "postgresql://postgres:postgres@localhost:5432/app",
    mysql: "mysql://root:root@localhost:3306/app",
    sqlite: "file:./dev.db",
  }[dialect],
});

/** Flags the template branches on; exactly one is true. */
const dialectFlags = (dialect: Dialect) => ({
  pg: dialect === "postgres",
  mysql: dialect === "mysql",
  sqlite: dialect === "sqlite",
  dialectName: dialectNames[dialect],
});

function part(
  files: GeneratedPart["files"],
  dependencies: DependencyName[],
  devDependencies: DependencyName[] = [],
  extra: Partial<GeneratedPart> = {},
): GeneratedPart {
  return { files, dependencies, devDependencies, env: [], scripts: {}, ...extra };
}

/**
 * Aligns the name, type and attribute columns of each model's fields the way
 * `prisma format` does, so a generated schema is already formatted (the test
 * compares with Prisma's formatter) while the template stays one space wide.
 */
export function alignPrismaFields(schema: string): string {
  return schema.replace(/^(model \w+ \{\n)([\s\S]*?)(^\})/gm, (_, open: string, body: string, close: string) => {
    const field = /^ {2}(?!\/\/|@@)(\w+) (\S+)(?: (.*))?$/;
    const fields = body.split("\n").map((line) => field.exec(line));
    const width = (i: 1 | 2) => Math.max(...fields.map((m) => m?.[i]?.length ?? 0));
    const [nameWidth, typeWidth] = [width(1), width(2)];
    const lines = body.split("\n").map((line, i) => {
      const m = fields[i];
      return m ? `  ${m[1]!.padEnd(nameWidth)} ${m[3] ? `${m[2]!.padEnd(typeWidth)} ${m[3]}` : m[2]}` : line;
    });
    return open + lines.join("\n") + close;
  });
}

async function prisma(dialect: Dialect): Promise<GeneratedPart> {
  const provider = { postgres: "postgresql", mysql: "mysql", sqlite: "sqlite" }[dialect];
  // Native type attributes appended after a field's type. Keys and short values are
  // varchar(255) (MySQL cannot index TEXT; Prisma's MySQL default, varchar(191), is
  // too short for ids of other tools); long values (tokens) must be TEXT in MySQL.
  // SQLite has no native type attributes: its String is TEXT, DateTime milliseconds.
  const rendered = await renderTemplate("schemas/prisma/schema.prisma.hbs", {
    dialectName: dialectNames[dialect],
    provider,
    varchar: dialect === "sqlite" ? "" : " @db.VarChar(255)",
    longText: dialect === "mysql" ? " @db.Text" : "",
    // TIMESTAMPTZ is precision 6 in PostgreSQL; MySQL DATETIME(3) keeps JS milliseconds.
    timestamp: { postgres: " @db.Timestamptz(6)", mysql: " @db.DateTime(3)", sqlite: "" }[dialect],
  });
  const contents = alignPrismaFields(rendered);
  return part([{ path: "prisma/schema.prisma", contents }], ["@prisma/client"], ["prisma"], {
    env: [prismaDatabaseUrl(dialect)],
    // Prisma Client is generated code: it must be generated before the app imports it.
    scripts: { "db:generate": "prisma generate", "db:push": "prisma db push" },
  });
}

/** The drizzle-orm column builders each dialect's file imports. */
const drizzleBuilders: Record<Dialect, string[]> = {
  postgres: ["bigint", "boolean", "jsonb", "pgTable", "primaryKey", "text", "timestamp", "unique", "varchar"],
  mysql: ["bigint", "boolean", "datetime", "json", "mysqlTable", "primaryKey", "text", "unique", "varchar"],
  sqlite: ["integer", "primaryKey", "sqliteTable", "text", "unique"],
};

async function drizzle(dialect: Dialect, options: SchemaOptions): Promise<GeneratedPart> {
  const contents = await renderTemplate("schemas/drizzle/schema.drizzle.ts.hbs", {
    ...dialectFlags(dialect),
    ext: options.importExtension,
    core: { postgres: "pg-core", mysql: "mysql-core", sqlite: "sqlite-core" }[dialect],
    table: { postgres: "pgTable", mysql: "mysqlTable", sqlite: "sqliteTable" }[dialect],
    builders: drizzleBuilders[dialect],
  });
  return part([{ path: `${options.dir ?? authDir}/schema.drizzle.ts`, contents }], ["drizzle-orm"]);
}

async function typeorm(dialect: Dialect, options: SchemaOptions): Promise<GeneratedPart> {
  const contents = await renderTemplate("schemas/typeorm/entities.ts.hbs", {
    ...dialectFlags(dialect),
    ext: options.importExtension,
    dataSourceType: { postgres: "postgres", mysql: "mysql", sqlite: "better-sqlite3" }[dialect],
  });
  return part([{ path: `${options.dir ?? authDir}/entities.ts`, contents }], ["typeorm", "reflect-metadata"]);
}

/**
 * The schema files for `flavour` in `dialect`; "sql" is the DDL generator's,
 * delegated to so `init` has one entry point (loaded only when asked for).
 * TypeORM output needs tsconfig experimentalDecorators + emitDecoratorMetadata.
 */
export async function generateSchema(
  flavour: SchemaFlavour,
  dialect: Dialect,
  options: SchemaOptions,
): Promise<GeneratedPart> {
  switch (flavour) {
    case "prisma":
      return prisma(dialect);
    case "drizzle":
      return drizzle(dialect, options);
    case "typeorm":
      return typeorm(dialect, options);
    case "sql": {
      const { generateSqlSchema } = await import("./sql-schema.js");
      return generateSqlSchema(dialect, options.dir);
    }
  }
}
