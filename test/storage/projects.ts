/**
 * The ORM fixture projects (fixtures/projects/orm/) as a user has them, with
 * their packages: a private copy per test whose node_modules links every
 * package of this repository's, plus what the repository does not carry
 * (drizzle-kit, the Prisma driver adapters for PostgreSQL and MariaDB),
 * installed once into .cache/orm-deps under a lock. That folder sits below
 * the repository's node_modules, so drizzle-kit finds the drivers and
 * drizzle-orm there, as it would in a project of its own.
 */
import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import mysql from "mysql2/promise";
import pg from "pg";
import { expect } from "vitest";
import { userEnv } from "../e2e/user-env.js";
import { inProcess, root } from "../helpers.js";

const extra = ["drizzle-kit@0.31.11", "@prisma/adapter-pg@7.10.0", "@prisma/adapter-mariadb@7.10.0"];

/** The folder holding the extra packages' node_modules, installed on first use. */
export async function ormDeps(): Promise<string> {
  const key = createHash("sha256").update(extra.join(" ")).digest("hex").slice(0, 12);
  const cache = join(root, ".cache");
  const dir = join(cache, `orm-deps-${key}`);
  if (existsSync(join(dir, ".ready"))) return dir;
  mkdirSync(cache, { recursive: true });
  const { lock } = (await import("proper-lockfile")).default;
  const release = await lock(cache, {
    lockfilePath: join(cache, ".orm-deps.lock"),
    realpath: false,
    stale: 60_000,
    retries: { retries: 600, minTimeout: 500, maxTimeout: 1000 },
  });
  try {
    if (!existsSync(join(dir, ".ready"))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "orm-deps", private: true }));
      await execa("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...extra], {
        cwd: dir,
        env: userEnv(),
      });
      writeFileSync(join(dir, ".ready"), new Date().toISOString());
    }
  } finally {
    await release();
  }
  return dir;
}

/** A node_modules of links: this repository's packages, then the extra ones (scoped folders merged). */
function linkModules(target: string, sources: string[]): void {
  mkdirSync(target, { recursive: true });
  for (const source of sources) {
    for (const name of readdirSync(source)) {
      if (name === ".bin" || name.startsWith(".package-lock")) continue;
      if (name.startsWith("@")) {
        mkdirSync(join(target, name), { recursive: true });
        for (const inner of readdirSync(join(source, name)))
          if (!existsSync(join(target, name, inner))) symlinkSync(join(source, name, inner), join(target, name, inner));
      } else if (!existsSync(join(target, name))) symlinkSync(join(source, name), join(target, name));
    }
  }
}

/** A private copy of fixtures/projects/orm/<name> with its packages; removed when `defer` runs. */
export async function ormProject(name: string, defer?: (fn: () => unknown) => void): Promise<string> {
  const deps = await ormDeps();
  const dir = join(tmpdir(), `create-auth-orm-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  cpSync(join(root, "fixtures/projects/orm", name), dir, { recursive: true });
  linkModules(join(dir, "node_modules"), [join(root, "node_modules"), join(deps, "node_modules")]);
  // `npm run verify-adapter` runs create-auth from the project's bin folder: this checkout's.
  mkdirSync(join(dir, "node_modules/.bin"));
  symlinkSync(join(root, "bin/create-auth.js"), join(dir, "node_modules/.bin/create-auth"));
  defer?.(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a package's CLI from the project's node_modules (no npx: nothing is fetched). */
export const bin = (dir: string, pkg: string, file: string) => join(dir, "node_modules", pkg, file);

/** A command in the project that must succeed; its combined output and its stdout. */
export async function runIn(dir: string, command: string, args: string[], env: Record<string, string>) {
  const result = await execa(command, args, { cwd: dir, env: { ...env, NO_COLOR: "1" }, reject: false, all: true });
  expect(result.exitCode, `${command} ${args.join(" ")}:\n${result.all}`).toBe(0);
  return { all: result.all ?? "", stdout: result.stdout };
}

/**
 * What a user runs after init in an ORM project, each step required to succeed: Prisma's validate and
 * generate, the project's own tsc, then the tables (create-auth migrate for Prisma, drizzle-kit for Drizzle).
 */
export async function ormSteps(dir: string, orm: string, env: Record<string, string>) {
  if (orm === "prisma") {
    await runIn(dir, bin(dir, "prisma", "build/index.js"), ["validate"], env);
    await runIn(dir, bin(dir, "prisma", "build/index.js"), ["generate"], env);
  }
  await runIn(dir, process.execPath, [bin(dir, "typescript", "bin/tsc"), "--noEmit", "-p", "."], env);
  if (orm === "prisma") {
    const migrated = await inProcess(["migrate"], { cwd: dir, env });
    expect(migrated.exitCode, migrated.stderr).toBe(0);
  } else {
    await runIn(dir, process.execPath, [bin(dir, "drizzle-kit", "bin.cjs"), "generate"], env);
    await runIn(dir, process.execPath, [bin(dir, "drizzle-kit", "bin.cjs"), "migrate"], env);
  }
}

export type Database = "sqlite" | "postgres" | "mariadb";
const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";

/** A fresh database of `kind` for one test, dropped afterwards; its URL in the form the ORM reads (SQLite: the project's dev.db). */
export async function freshDatabase(kind: Database, orm: string, defer: (fn: () => unknown) => void): Promise<string> {
  const name = `create_auth_orm_${randomBytes(5).toString("hex")}`;
  if (kind === "sqlite") return orm === "prisma" ? "file:./dev.db" : "./dev.db";
  if (kind === "postgres") {
    const admin = new pg.Client({ connectionString: `${pgUrl}/test` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    defer(async () => {
      const c = new pg.Client({ connectionString: `${pgUrl}/test` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    });
    return `${pgUrl}/${name}`;
  }
  const admin = await mysql.createConnection({ uri: mysqlUrl });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  defer(async () => {
    const c = await mysql.createConnection({ uri: mysqlUrl });
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
    await c.end();
  });
  return `${mysqlUrl.replace(/^mariadb:/, "mysql:")}/${name}`;
}
