// The tables a project declares through Prisma and Drizzle, and where its database is, as doctor reads them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { declaredDrizzle, declaredPrisma, drizzleTables } from "../../src/doctor/declared-schema.js";
import { prismaTables } from "../../src/doctor/published-tables.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { fixture, tempDir } from "../helpers.js";

describe("Prisma's models", () => {
  it("a brace inside a string (a JSON default) ends no model: the fields after it are read", () => {
    const tables = prismaTables(
      'model User {\n  id    String @id\n  prefs String @default("{}")\n  name  String?\n}\n\nmodel Post {\n  id Int @id\n}\n',
      ["User", "Post"],
    );
    expect(tables).toEqual({ User: ["id", "prefs", "name"], Post: ["id"] });
  });

  it("every model, the app's own included, and the datasource of prisma.config (Prisma 7) or of the schema (6)", () => {
    const seven = declaredPrisma(new ProjectView(fixture("doctor", "db.prisma7-sqlite-table-missing")), {
      "db:migrate": "prisma migrate dev",
    });
    expect(seven).toMatchObject({
      orm: "prisma",
      file: "prisma/schema.prisma",
      dialect: "sqlite",
      variable: "DATABASE_URL",
      sqlite: { base: "." },
      migrateCommand: "npm run db:migrate",
    });
    expect(seven!.tables.notes).toEqual(["id", "title", "author_id", "created_at"]);
    expect(Object.keys(seven!.tables)).toEqual(["User", "Account", "Session", "VerificationToken", "notes"]);
    const six = declaredPrisma(new ProjectView(fixture("doctor", "db.prisma-sqlite-column-missing")), {});
    expect(six).toMatchObject({
      variable: "DATABASE_URL",
      sqlite: { base: "prisma" },
      migrateCommand: "npx prisma migrate dev (prisma migrate deploy in production)",
    });
  });
});

describe("Drizzle's tables", () => {
  it("named columns, unnamed ones by key (snake_case under casing), the callback form, drizzle-orm's functions only", async () => {
    const text = [
      'import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";',
      'import { pgTable } from "./not-drizzle";',
      'export const users = sqliteTable("user", { id: text("id").primaryKey(), emailVerified: integer({ mode: "timestamp_ms" }) });',
      'export const todos = sqliteTable("todos", (t) => ({ id: t.integer().primaryKey(), dueAt: t.integer(), ...extra }));',
      'export const other = pgTable("other", { id: text("id") });',
    ].join("\n");
    expect(await drizzleTables(text, "schema.ts")).toEqual({ user: ["id", "emailVerified"], todos: ["id", "dueAt"] });
    expect(await drizzleTables(text, "schema.ts", true)).toEqual({
      user: ["id", "email_verified"],
      todos: ["id", "due_at"],
    });
  });

  it("the tables a schema module re-exports, as drizzle-kit collects them (init's Drizzle wiring writes one)", async () => {
    const dir = tempDir("create-auth-drizzle-reexport-");
    mkdirSync(join(dir, "db"));
    writeFileSync(
      join(dir, "drizzle.config.ts"),
      'export default { dialect: "sqlite", schema: "db/schema.ts", dbCredentials: { url: process.env.DB_PATH ?? "app.db" } };\n',
    );
    writeFileSync(join(dir, "db/schema.ts"), 'export * from "./auth-schema";\nexport { notes } from "./notes.js";\n');
    writeFileSync(
      join(dir, "db/auth-schema.ts"),
      'import { sqliteTable, text } from "drizzle-orm/sqlite-core";\nexport const users = sqliteTable("user", { id: text("id") });\n',
    );
    writeFileSync(
      join(dir, "db/notes.ts"),
      'import { sqliteTable, text } from "drizzle-orm/sqlite-core";\nexport const notes = sqliteTable("notes", { body: text() });\n',
    );
    const declared = await declaredDrizzle(new ProjectView(dir), {});
    expect(declared).toMatchObject({
      tables: { user: ["id"], notes: ["body"] },
      variable: "DB_PATH",
      sqlite: { fallback: "app.db" },
    });
  });

  it("a schema folder read whole, drizzle.config's variable, and the app's module's default file", async () => {
    const folder = await declaredDrizzle(new ProjectView(fixture("doctor", "db.drizzle-postgres-column-missing")), {});
    expect(folder).toMatchObject({
      orm: "drizzle",
      dialect: "postgres",
      variable: "DATABASE_URL",
      file: "src/db/schema",
    });
    expect(Object.keys(folder!.tables).sort()).toEqual(["account", "projects", "session", "user"]);
    const sqlite = await declaredDrizzle(new ProjectView(fixture("doctor", "db.drizzle-sqlite-column-missing")), {});
    expect(sqlite).toMatchObject({
      variable: "DATABASE_URL",
      sqlite: { base: ".", fallback: "sqlite.db" },
      migrateCommand: "npx drizzle-kit generate, then npx drizzle-kit migrate",
    });
    // drizzle.config sets casing: "snake_case": dueAt, unnamed, is the column due_at.
    expect(sqlite!.tables.todos).toEqual(["id", "title", "owner_id", "due_at"]);
  });
});
