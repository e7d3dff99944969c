// init with an ORM, in-process and without installing: what it plans, what it refuses, and --orm.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

const base = ["init", "--yes", "--providers", "email", "--session", "database", "--no-install"];

function copy(name: string): string {
  const dir = tempDir(`create-auth-${name}-`);
  cpSync(fixture("projects/orm", name), dir, { recursive: true });
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("init in a Prisma project", () => {
  it("wires @auth/prisma-adapter over the user's client, wraps deleteSession, writes no second database layer", async () => {
    const dir = copy("prisma-postgres");
    const result = await inProcess(base, { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^updated prisma\/schema\.prisma$/m);
    expect(result.stdout).not.toMatch(/auth\/db\.ts|auth\/prisma\.ts|prisma\.config\.ts/);
    const adapter = read(dir, "auth/adapter.ts");
    expect(adapter).toContain('import { db } from "../lib/db";');
    expect(adapter).toContain("PrismaAdapter(client)");
    expect(adapter).toMatch(/async deleteSession\(sessionToken\)/);
    expect(adapter).not.toContain("useVerificationToken");
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.dependencies).toHaveProperty("@auth/prisma-adapter");
    expect(pkg.dependencies).not.toHaveProperty("pg");
    expect(pkg.scripts["auth:tables"]).toBe("create-auth migrate auth/schema.postgres.sql");
    expect(result.stdout).toContain("npx prisma migrate dev --name auth");
  });

  it("on MySQL, useVerificationToken is wrapped too; a default-exported client is imported as such", async () => {
    const dir = copy("prisma-mysql");
    expect((await inProcess(base, { cwd: dir })).exitCode).toBe(0);
    const adapter = read(dir, "auth/adapter.ts");
    expect(adapter).toContain('import { default as prisma } from "../src/lib/prisma";');
    expect(adapter).toMatch(/async useVerificationToken\(\{ identifier, token \}\)/);
    expect(adapter).toContain("deleteMany");
  });

  it("a fresh project gets a Prisma 7 schema, prisma.config.ts and a client over the driver adapter", async () => {
    const dir = tempDir("create-auth-fresh-prisma-");
    const result = await inProcess([...base, "--orm", "prisma", "--backend", "postgres"], { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(read(dir, "prisma/schema.prisma")).toContain('provider = "postgresql"');
    expect(read(dir, "prisma.config.ts")).toContain('schema: "prisma/schema.prisma"');
    expect(read(dir, "auth/prisma.ts")).toContain("new PrismaPg({ connectionString: url })");
    expect(JSON.parse(read(dir, "package.json")).dependencies).toHaveProperty("@prisma/adapter-pg");
  });

  it.each([
    ["sqlite", "new PrismaBetterSqlite3({ url })", "@prisma/adapter-better-sqlite3"],
    ["mysql", 'new PrismaMariaDb(url.replace(/^mysql:/, "mariadb:"))', "@prisma/adapter-mariadb"],
  ])("a fresh %s project's client goes through %s", async (backend, line, pkg) => {
    const dir = tempDir("create-auth-fresh-prisma-");
    expect((await inProcess([...base, "--orm", "prisma", "--backend", backend], { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, "auth/prisma.ts")).toContain(line);
    expect(JSON.parse(read(dir, "package.json")).dependencies).toHaveProperty(pkg);
  });

  it("Prisma 6 (a url in the datasource, prisma-client-js): a client from @prisma/client, no driver adapter", async () => {
    const dir = tempDir("create-auth-prisma6-");
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ dependencies: { "@prisma/client": "^6.19.0" }, devDependencies: { prisma: "^6.19.0" } }),
    );
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "prisma"));
    writeFileSync(
      join(dir, "prisma/schema.prisma"),
      'generator client {\n  provider = "prisma-client-js"\n}\n\ndatasource db {\n  provider = "postgresql"\n  url      = env("DATABASE_URL")\n}\n',
    );
    const result = await inProcess(base, { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const client = read(dir, "auth/prisma.ts");
    expect(client).toContain('import { PrismaClient } from "@prisma/client";');
    expect(client).toContain("return new PrismaClient();");
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg.dependencies["@prisma/client"]).toBe("^6.19.0");
    expect(pkg.dependencies).not.toHaveProperty("@prisma/adapter-pg");
    expect(result.stdout).not.toMatch(/prisma\.config\.ts/);
  });

  it("--orm none keeps the generated SQL adapter and leaves schema.prisma alone", async () => {
    const dir = copy("prisma-sqlite");
    const before = read(dir, "prisma/schema.prisma");
    expect((await inProcess([...base, "--orm", "none"], { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, "prisma/schema.prisma")).toBe(before);
    expect(read(dir, "auth/db.ts")).toContain("better-sqlite3");
  });

  it("--table-prefix maps the auth models to tables of their own", async () => {
    const dir = copy("prisma-sqlite");
    expect((await inProcess([...base, "--table-prefix", "auth_"], { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, "prisma/schema.prisma")).toContain('@@map("auth_User")');
    expect(read(dir, "auth/schema.sqlite.sql")).toContain('CREATE TABLE IF NOT EXISTS "auth_User"');
  });
});

describe("init in a Drizzle project", () => {
  it("adds the auth tables as a module exported from the user's schema, DrizzleAdapter over the user's db", async () => {
    const dir = copy("drizzle-postgres");
    const before = read(dir, "src/db/schema.ts");
    const result = await inProcess(base, { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(read(dir, "src/db/schema.ts")).toBe(`${before}export * from "./auth-schema";\n`);
    expect(read(dir, "src/db/auth-schema.ts")).toContain('pgTable("user"');
    const adapter = read(dir, "auth/adapter.ts");
    expect(adapter).toContain('import { db } from "../src/db/index";');
    expect(adapter).toContain("DrizzleAdapter(database, {");
    expect(adapter).not.toContain("useVerificationToken");
    expect(result.stdout).toContain("npx drizzle-kit generate && npx drizzle-kit migrate");
  });

  it("MySQL: useVerificationToken decided by the DELETE's affected rows", async () => {
    const dir = copy("drizzle-mysql");
    expect((await inProcess(base, { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, "auth/adapter.ts")).toContain("header.affectedRows === 1");
    expect(read(dir, "src/db/auth-schema.ts")).toContain("varchar(name, { length: 255 })");
  });
});

describe("what differs per dialect under an ORM", () => {
  it("a Drizzle db on MySQL through a driver other than mysql2 is told to check the adapter; mysql2's is not", async () => {
    const notice = /src\/db\/index\.ts uses drizzle-orm\/planetscale-serverless: .* reads mysql2's affectedRows/;
    const own = copy("drizzle-mysql");
    expect((await inProcess(base, { cwd: own })).stdout).not.toMatch(/reads mysql2's affectedRows/);
    const other = copy("drizzle-mysql");
    writeFileSync(
      join(other, "src/db/index.ts"),
      read(other, "src/db/index.ts").replace("drizzle-orm/mysql2", "drizzle-orm/planetscale-serverless"),
    );
    expect((await inProcess(base, { cwd: other })).stdout).toMatch(notice);
    // PostgreSQL's adapter counts with RETURNING, whatever the driver.
    const postgres = copy("drizzle-postgres");
    writeFileSync(
      join(postgres, "src/db/index.ts"),
      read(postgres, "src/db/index.ts").replace(/drizzle-orm\/[\w-]+"/, 'drizzle-orm/postgres-js"'),
    );
    expect((await inProcess(base, { cwd: postgres })).stdout).not.toMatch(/ uses drizzle-orm\//);
  });

  it.each([
    ["prisma-sqlite", "SQLite", ["dev.db*"]],
    ["prisma-postgres", "PostgreSQL", []],
    ["prisma-mysql", "MySQL or MariaDB", []],
  ])("%s: DATABASE_URL is described as %s's, and .gitignore gets %j", async (name, title, ignored) => {
    const dir = copy(name);
    expect((await inProcess(base, { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, ".env.example")).toContain(`The database of your Prisma client (${title})`);
    const gitignore = read(dir, ".gitignore");
    expect(gitignore.includes("dev.db")).toBe(ignored.length > 0);
    for (const line of ignored) expect(gitignore.split("\n")).toContain(line);
  });
});

describe("init in other Drizzle and Prisma layouts", () => {
  it("a drizzle.config without a migrations folder: the tables are pushed", async () => {
    const dir = copy("drizzle-sqlite");
    writeFileSync(join(dir, "drizzle.config.ts"), read(dir, "drizzle.config.ts").replace('  out: "./drizzle",\n', ""));
    const result = await inProcess(base, { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("create the auth tables: npx drizzle-kit push");
    expect(JSON.parse(read(dir, "package.json")).scripts["db:push"]).toBe("drizzle-kit push");
    expect(read(dir, ".gitignore")).toMatch(/^dev\.db\*$/m);
  });

  it("a schema folder gets auth.ts inside it, which drizzle-kit reads with the rest; no file of the user's is edited", async () => {
    const dir = copy("drizzle-postgres");
    writeFileSync(
      join(dir, "drizzle.config.ts"),
      read(dir, "drizzle.config.ts").replace("./src/db/schema.ts", "./src/db/schema"),
    );
    const { mkdirSync, renameSync } = await import("node:fs");
    mkdirSync(join(dir, "src/db/schema"));
    renameSync(join(dir, "src/db/schema.ts"), join(dir, "src/db/schema/blog.ts"));
    const result = await inProcess(base, { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^created src\/db\/schema\/auth\.ts$/m);
    expect(result.stdout).not.toMatch(/^updated src\/db/m);
    expect(read(dir, "auth/adapter.ts")).toContain('from "../src/db/schema/auth";');
  });

  it("Prisma 7 without an output in the generator and no client module: refused, with what to add", async () => {
    const dir = copy("prisma-sqlite");
    const { rmSync } = await import("node:fs");
    rmSync(join(dir, "lib/prisma.ts"));
    writeFileSync(
      join(dir, "prisma/schema.prisma"),
      read(dir, "prisma/schema.prisma").replace(/ {2}output {3}= .*\n/, ""),
    );
    const result = await inProcess(base, { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/its generator has no output, which Prisma 7 needs/);
  });
});

describe("refusals: one line, exit 2, nothing written", () => {
  async function refused(dir: string, args: string[], message: RegExp) {
    const before = snapshot(dir);
    const result = await inProcess([...base, ...args], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshot(dir)).toEqual(before);
  }

  it("a model name the adapter needs is taken", async () => {
    const dir = copy("prisma-sqlite");
    writeFileSync(
      join(dir, "prisma/schema.prisma"),
      `${read(dir, "prisma/schema.prisma")}\nmodel Session {\n  id Int @id\n}\n`,
    );
    await refused(dir, [], /^error: prisma\/schema\.prisma: it already has model Session \(line \d+\).*--table-prefix/);
  });

  it("a schema.prisma that does not parse", async () => {
    const dir = copy("prisma-sqlite");
    writeFileSync(join(dir, "prisma/schema.prisma"), "model Note {\n  id Int @id\n");
    await refused(
      dir,
      [],
      /^error: prisma\/schema\.prisma: cannot be read \(line 1: model Note has no closing brace\)/,
    );
  });

  it("a Drizzle dialect create-auth writes no tables for", async () => {
    const dir = copy("drizzle-postgres");
    writeFileSync(join(dir, "drizzle.config.ts"), read(dir, "drizzle.config.ts").replace("postgresql", "singlestore"));
    await refused(dir, [], /^error: drizzle\.config\.ts: dialect "singlestore" is not one create-auth writes/);
  });

  it("a Drizzle table name the auth tables would use, then --table-prefix gets past it", async () => {
    const dir = copy("drizzle-sqlite");
    writeFileSync(join(dir, "src/db/schema.ts"), read(dir, "src/db/schema.ts").replace('"todos"', '"session"'));
    await refused(dir, [], /^error: src\/db\/schema\.ts: a table named "session" exists.*--table-prefix/);
    expect((await inProcess([...base, "--table-prefix", "auth_"], { cwd: dir })).exitCode).toBe(0);
    expect(read(dir, "src/db/auth-schema.ts")).toContain('sqliteTable("auth_session"');
  });

  it("a Prisma schema folder (several .prisma files): refused with --orm prisma, no obstacle to --orm none", async () => {
    const dir = copy("prisma-sqlite");
    writeFileSync(
      join(dir, "prisma.config.ts"),
      read(dir, "prisma.config.ts").replace("prisma/schema.prisma", "prisma"),
    );
    await refused(dir, [], /^error: prisma: is a folder of schema files/);
    expect((await inProcess([...base, "--orm", "none"], { cwd: dir })).exitCode).toBe(0);
  });

  it("--orm and --schema that disagree", async () => {
    await refused(
      tempDir("create-auth-orm-"),
      ["--orm", "prisma", "--schema", "typeorm"],
      /--orm prisma conflicts with --schema typeorm/,
    );
  });

  it("an unknown --orm", async () => {
    await refused(tempDir("create-auth-orm-"), ["--orm", "sequelize"], /--orm.*prisma, drizzle, none/);
  });
});
