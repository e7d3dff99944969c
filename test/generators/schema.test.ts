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
import { type Dialect, dialects } from "../../src/catalog/backends.js";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { generateSchema } from "../../src/generators/schema.js";
import type { GeneratedPart } from "../../src/generators/types.js";

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
        dialects.map(async (d) => [d, await generateSchema(flavour, d, { importExtension: ".js" })] as const),
      ),
    ) as Record<Dialect, GeneratedPart>;
  parts = { prisma: await generate("prisma"), drizzle: await generate("drizzle"), typeorm: await generate("typeorm") };
});

const only = (part: GeneratedPart) => {
  expect(part.files).toHaveLength(1);
  return part.files[0]!;
};

describe("prisma", () => {
  it("the validator rejects a broken schema (so a pass below means something)", () => {
    const broken = only(parts.prisma.postgres).contents.replace("@@id([identifier, token])", "");
    expect(prismaErrors(broken)).toMatch(/unique criteria/i);
  });

  it.each(dialects)("%s schema passes Prisma's validation", (dialect) => {
    const file = only(parts.prisma[dialect]);
    expect(file.path).toBe("prisma/schema.prisma");
    expect(prismaErrors(file.contents)).toBe("");
  });

  it.each(dialects)("%s schema is already formatted as `prisma format` writes it", (dialect) => {
    const text = only(parts.prisma[dialect]).contents;
    expect(text).toBe(prismaFormat(text));
  });

  it.each(dialects)("%s schema maps every model to the shared tables", (dialect) => {
    const text = only(parts.prisma[dialect]).contents;
    const provider = { postgres: "postgresql", mysql: "mysql", sqlite: "sqlite" }[dialect];
    expect(text).toContain(`provider = "${provider}"`);
    expect(text).toContain('url      = env("DATABASE_URL")');
    for (const table of ["users", "accounts", "sessions", "verification_tokens", "authenticators"])
      expect(text).toContain(`@@map("${table}")`);
    expect(text).toContain("@@unique([provider, providerAccountId])");
    expect(text).toContain("@@id([userId, credentialID])");
    expect(text.match(/onDelete: Cascade/g)).toHaveLength(3);
    expect(text).toMatch(/session_state\s+Json\?/);
  });

  it("uses each dialect's native timestamp and text types", () => {
    expect(only(parts.prisma.postgres).contents).toMatch(/expires\s+DateTime @db\.Timestamptz\(6\)/);
    expect(only(parts.prisma.mysql).contents).toMatch(/expires\s+DateTime @db\.DateTime\(3\)/);
    expect(only(parts.prisma.mysql).contents).toMatch(/id_token\s+String\? @db\.Text/);
    expect(only(parts.prisma.sqlite).contents).not.toContain("@db.");
  });

  it("declares the client and CLI packages", () => {
    expect(parts.prisma.sqlite.dependencies).toEqual(["@prisma/client"]);
    expect(parts.prisma.sqlite.devDependencies).toEqual(["prisma"]);
    expect(parts.prisma.sqlite.env.map((e) => e.name)).toEqual(["DATABASE_URL"]);
  });
});

describe("drizzle", () => {
  it.each(dialects)("%s schema uses the dialect's table builder and column modes", (dialect) => {
    const file = only(parts.drizzle[dialect]);
    expect(file.path).toBe("auth/schema.drizzle.ts");
    const text = file.contents;
    const expected = {
      postgres: [
        'from "drizzle-orm/pg-core"',
        'timestamp("expires", { mode: "date", withTimezone: true })',
        'jsonb("session_state")',
        'boolean("credentialBackedUp")',
      ],
      mysql: [
        'from "drizzle-orm/mysql-core"',
        'datetime("expires", { mode: "date", fsp: 3 })',
        'json("session_state")',
        'bigint("counter", { mode: "number" })',
      ],
      sqlite: [
        'from "drizzle-orm/sqlite-core"',
        'integer("expires", { mode: "timestamp_ms" })',
        'text("session_state", { mode: "json" })',
        'integer("credentialBackedUp", { mode: "boolean" })',
      ],
    }[dialect];
    for (const snippet of expected) expect(text).toContain(snippet);
    expect(text.match(/onDelete: "cascade"/g)).toHaveLength(3);
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
    const { generateSqlSchema } = await import("../../src/generators/sql-schema.js");
    expect(await generateSchema("sql", "postgres", { importExtension: "" })).toEqual(
      await generateSqlSchema("postgres"),
    );
  });
});
