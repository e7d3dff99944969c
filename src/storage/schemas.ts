/**
 * `--schema`: the auth tables described for a store init does not make the
 * tables of itself (memory, skeleton) or, with TypeORM, beside the SQL
 * adapter. Prisma and Drizzle are the same schema their storage modules
 * write, whichever path reaches them; TypeORM entities describe the SQL
 * adapter's tables column for column.
 */
import type { Dialect } from "../catalog/sql-dialects.js";
import { type GeneratedPart, part } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";
import { sqlDialects } from "./sql/dialects/index.js";

export const schemaFlavours = ["sql", "prisma", "drizzle", "typeorm"] as const;
export type SchemaFlavour = (typeof schemaFlavours)[number];

/** How doctor tells each flavour's files in a project, and the command that makes its tables. */
export const flavourFacts: Record<
  SchemaFlavour,
  { file?(dir: string): string; tablesCommand?: string; pushScript?: string }
> = {
  sql: {},
  prisma: {
    file: () => "prisma/schema.prisma",
    tablesCommand: "npx prisma migrate dev --name auth",
    pushScript: "db:push",
  },
  drizzle: { file: (dir) => `${dir}/schema.drizzle.ts`, tablesCommand: "npx drizzle-kit push" },
  typeorm: { file: (dir) => `${dir}/entities.ts`, tablesCommand: "your TypeORM migrations" },
};

export interface SchemaOptions {
  /** Extension written on relative imports in generated TypeScript ("" for bundlers, ".js" for NodeNext). */
  importExtension: "" | ".js";
  /** The folder of the generated auth files. */
  dir: string;
}

async function prisma(dialect: Dialect): Promise<GeneratedPart> {
  const { newPrismaSchema } = await import("./prisma/schema-text.js");
  return part({
    files: [
      { path: "prisma/schema.prisma", contents: newPrismaSchema(dialect, undefined, 7) },
      {
        path: "prisma.config.ts",
        contents: await renderTemplate("orms/prisma/prisma.config.ts.hbs", {
          schemaPath: "prisma/schema.prisma",
          vite: false,
        }),
      },
    ],
    dependencies: ["@prisma/client"],
    devDependencies: ["prisma"],
    // Prisma Client is generated code: it must be generated before the app imports it.
    scripts: { "db:generate": "prisma generate", "db:push": "prisma db push" },
    env: [
      {
        name: "DATABASE_URL",
        description: `${sqlDialects[dialect].shortTitle} connection string for Prisma`,
        example: sqlDialects[dialect].prisma.example,
      },
    ],
  });
}

async function drizzle(dialect: Dialect, options: SchemaOptions): Promise<GeneratedPart> {
  const { renderDrizzleTables } = await import("./drizzle/index.js");
  return part({
    files: [{ path: `${options.dir}/schema.drizzle.ts`, contents: await renderDrizzleTables(dialect) }],
    dependencies: ["drizzle-orm"],
  });
}

async function typeorm(dialect: Dialect, options: SchemaOptions): Promise<GeneratedPart> {
  const contents = await renderTemplate("schemas/typeorm/entities.ts.hbs", {
    typeormColumns: sqlDialects[dialect].typeormColumns,
    dialectName: sqlDialects[dialect].shortTitle,
    ext: options.importExtension,
    dataSourceType: sqlDialects[dialect].typeormType,
  });
  return part({
    files: [{ path: `${options.dir}/entities.ts`, contents }],
    dependencies: ["typeorm", "reflect-metadata"],
  });
}

/**
 * The schema files for `flavour` in `dialect` (each loaded only when asked
 * for). TypeORM output needs tsconfig experimentalDecorators + emitDecoratorMetadata.
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
      const { generateSqlSchema } = await import("./sql/schema.js");
      return generateSqlSchema(dialect, options.dir);
    }
  }
}
