// Which ORM a project shows, and where its schema, config and client are.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectOrm as detect } from "../../src/storage/registry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { fixture, tempDir } from "../helpers.js";

function project(files: Record<string, string>): string {
  const dir = tempDir("create-auth-detect-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** What detection says of a project folder, in the terms these cases were written in. */
function detectOrm(dir: string) {
  const found = detect(new ProjectView(dir));
  const orm = found.storage?.id ?? "none";
  return { orm, reason: found.reason, prisma: found.facts as never, drizzle: found.facts as never } as {
    orm: string;
    reason: string;
    prisma: Record<string, unknown> & { client?: unknown };
    drizzle: Record<string, unknown> & { schemaTexts?: Record<string, string> };
  };
}

describe("ORM detection", () => {
  it("an empty project has none", () => {
    expect(detectOrm(project({}))).toMatchObject({ orm: "none" });
  });

  it("Prisma from prisma/schema.prisma, with the client module the app exports and the major version", () => {
    const facts = detectOrm(fixture("projects/orm/prisma-postgres"));
    expect(facts).toMatchObject({ orm: "prisma", reason: "prisma/schema.prisma" });
    expect(facts.prisma).toMatchObject({
      schemaPath: "prisma/schema.prisma",
      configPath: "prisma.config.ts",
      client: { path: "lib/db.ts", name: "db" },
      major: 7,
    });
  });

  it("a client module's default export", () => {
    expect(detectOrm(fixture("projects/orm/prisma-mysql")).prisma.client).toEqual({
      path: "src/lib/prisma.ts",
      name: "default",
    });
  });

  it("the schema where package.json's prisma field or prisma.config.ts puts it", () => {
    const byPackage = project({
      "package.json": JSON.stringify({ prisma: { schema: "db/app.prisma" }, devDependencies: { prisma: "^6.19.0" } }),
      "db/app.prisma": 'datasource db {\n  provider = "sqlite"\n  url = env("DATABASE_URL")\n}\n',
    });
    expect(detectOrm(byPackage)).toMatchObject({ orm: "prisma", prisma: { schemaPath: "db/app.prisma", major: 6 } });
    const byConfig = project({ "prisma.config.ts": 'export default { schema: "./schema/main.prisma" };\n' });
    expect(detectOrm(byConfig)).toMatchObject({
      orm: "prisma",
      reason: "prisma.config.ts",
      prisma: { schemaPath: "schema/main.prisma", schemaText: null },
    });
  });

  it("Prisma from @prisma/client alone, Drizzle from drizzle-orm alone", () => {
    const prisma = project({ "package.json": JSON.stringify({ dependencies: { "@prisma/client": "^7.1.0" } }) });
    expect(detectOrm(prisma)).toMatchObject({ orm: "prisma", reason: "@prisma/client in package.json" });
    const drizzle = project({ "package.json": JSON.stringify({ dependencies: { "drizzle-orm": "^0.45.0" } }) });
    expect(detectOrm(drizzle)).toMatchObject({ orm: "drizzle", reason: "drizzle-orm in package.json" });
  });

  it("Drizzle from drizzle.config.ts: the dialect, the schema and its text, the migrations folder, the db module and driver", () => {
    const facts = detectOrm(fixture("projects/orm/drizzle-mysql"));
    expect(facts).toMatchObject({ orm: "drizzle", reason: "drizzle.config.ts" });
    expect(facts.drizzle).toMatchObject({
      dialect: "mysql",
      schemaPath: "src/db/schema.ts",
      out: "drizzle",
      db: { path: "src/db/index.ts", name: "db", driver: "mysql2" },
    });
    expect(Object.keys(facts.drizzle.schemaTexts ?? {})).toEqual(["src/db/schema.ts"]);
  });

  it("a schema folder's modules are all read", () => {
    const dir = project({
      "drizzle.config.ts": 'export default { dialect: "postgresql", schema: "./db/schema" };\n',
      "db/schema/users.ts": 'export const people = pgTable("people", {});\n',
      "db/schema/posts.ts": 'export const posts = pgTable("posts", {});\n',
    });
    expect(Object.keys(detectOrm(dir).drizzle.schemaTexts ?? {}).sort()).toEqual([
      "db/schema/posts.ts",
      "db/schema/users.ts",
    ]);
  });
});
