/**
 * The ORM schemas are checked by the tools that will read them in a user's
 * project: Prisma's own schema validator (the WebAssembly build the Prisma
 * CLI embeds, pinned to the engines of the prisma version in the catalog, so
 * no engine download is needed) and the TypeScript compiler against the real
 * drizzle-orm and typeorm type definitions (schema.typecheck.test.ts). Shape
 * assertions pin the physical names that the SQL DDL and the adapters rely on.
 */
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { type Dialect, dialects } from "../../src/catalog/sql-dialects.js";
import type { GeneratedPart } from "../../src/render/parts.js";
import { renderDrizzleTables } from "../../src/storage/drizzle/index.js";
import { newPrismaSchema } from "../../src/storage/prisma/schema-text.js";
import { generateSchema } from "../../src/storage/schemas.js";

const require = createRequire(import.meta.url);
const prismaWasm = require("@prisma/prisma-schema-wasm") as {
  validate(params: string): void;
  format(schemas: string, params: string): string;
};

/** The schema as `prisma format` writes it. */
function prismaFormat(schema: string): string {
  const params = { textDocument: { uri: "file:/schema.prisma" }, options: { tabSize: 2, insertSpaces: true } };
  const [[, formatted]] = JSON.parse(
    prismaWasm.format(JSON.stringify([["schema.prisma", schema]]), JSON.stringify(params)),
  ) as [[string, string]];
  return formatted;
}

/** Prisma's validation errors (empty when valid), as `prisma validate` prints them. */
function prismaErrors(schema: string): string {
  try {
    prismaWasm.validate(JSON.stringify({ prismaSchema: [["schema.prisma", schema]], noColor: true }));
    return "";
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    try {
      return (JSON.parse(text) as { message: string }).message;
    } catch {
      return text;
    }
  }
}

type Parts = Record<"prisma" | "drizzle" | "typeorm", Record<Dialect, GeneratedPart>>;
let parts: Parts;

beforeAll(async () => {
  const generate = async (flavour: keyof Parts) =>
    Object.fromEntries(
      await Promise.all(
        dialects.map(
          async (d) => [d, await generateSchema(flavour, d, { importExtension: ".js", dir: "auth" })] as const,
        ),
      ),
    ) as Record<Dialect, GeneratedPart>;
  parts = { prisma: await generate("prisma"), drizzle: await generate("drizzle"), typeorm: await generate("typeorm") };
});

const only = (part: GeneratedPart) => {
  expect(part.files).toHaveLength(1);
  return part.files[0]!;
};

const schemaFile = (part: GeneratedPart) => part.files.find((f) => f.path === "prisma/schema.prisma")!;

describe("prisma", () => {
  it.each(dialects)("%s: the one Prisma schema the Prisma storage writes, with Prisma 7's config", (dialect) => {
    expect(parts.prisma[dialect].files.map((f) => f.path)).toEqual(["prisma/schema.prisma", "prisma.config.ts"]);
    expect(schemaFile(parts.prisma[dialect]).contents).toBe(newPrismaSchema(dialect, undefined, 7));
  });

  it("the validator rejects a broken schema (so a pass below means something)", () => {
    const broken = newPrismaSchema("postgres", undefined, 6).replace("@@id([identifier, token])", "");
    expect(prismaErrors(broken)).toMatch(/unique criteria/i);
  });

  // The validator is Prisma 6's (its WebAssembly build); Prisma 6's form of the schema has the same models.
  it.each(dialects)("%s schema passes Prisma's validation", (dialect) => {
    expect(prismaErrors(newPrismaSchema(dialect, undefined, 6))).toBe("");
  });

  it.each(dialects)("%s schema is already formatted as `prisma format` writes it", (dialect) => {
    const text = schemaFile(parts.prisma[dialect]).contents;
    expect(text).toBe(prismaFormat(text));
  });

  it("declares the client and CLI packages", () => {
    expect(parts.prisma.sqlite.dependencies).toEqual(["@prisma/client"]);
    expect(parts.prisma.sqlite.devDependencies).toEqual(["prisma"]);
    expect(parts.prisma.sqlite.env.map((e) => e.name)).toEqual(["DATABASE_URL"]);
  });
});

describe("drizzle", () => {
  it.each(dialects)("%s: the one Drizzle schema the Drizzle storage writes", async (dialect) => {
    const file = only(parts.drizzle[dialect]);
    expect(file.path).toBe("auth/schema.drizzle.ts");
    expect(file.contents).toBe(await renderDrizzleTables(dialect));
    const expected = {
      postgres: ['from "drizzle-orm/pg-core"', 'timestamp("expires", { mode: "date" })'],
      mysql: ['from "drizzle-orm/mysql-core"', 'timestamp("expires", { mode: "date", fsp: 3 })'],
      sqlite: ['from "drizzle-orm/sqlite-core"', 'integer("expires", { mode: "timestamp_ms" })'],
    }[dialect];
    for (const snippet of expected) expect(file.contents).toContain(snippet);
    expect(parts.drizzle[dialect].dependencies).toEqual(["drizzle-orm"]);
    expect(parts.drizzle[dialect].env).toEqual([]);
  });
});

describe("typeorm", () => {
  it.each(dialects)("%s entities name every table and need reflect-metadata", (dialect) => {
    const file = only(parts.typeorm[dialect]);
    expect(file.path).toBe("auth/entities.ts");
    for (const table of ["users", "accounts", "sessions", "verification_tokens", "authenticators"])
      expect(file.contents).toContain(`@Entity({ name: "${table}" })`);
    expect(file.contents).toContain('import "reflect-metadata";');
    expect(file.contents).toContain("experimentalDecorators");
    expect(parts.typeorm[dialect].dependencies).toEqual(["typeorm", "reflect-metadata"]);
  });

  it("every package a schema needs has a catalog version", () => {
    for (const part of Object.values(parts).flatMap((byDialect) => Object.values(byDialect))) {
      for (const name of [...part.dependencies, ...part.devDependencies]) expect(dependencyVersions[name]).toBeTruthy();
    }
  });
});

describe("sql", () => {
  it("is delegated to the DDL generator", async () => {
    const { generateSqlSchema } = await import("../../src/storage/sql/schema.js");
    expect(await generateSchema("sql", "postgres", { importExtension: "", dir: "auth" })).toEqual(
      await generateSqlSchema("postgres", "auth"),
    );
  });
});
