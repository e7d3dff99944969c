/**
 * Exploration against real adapters on real databases: zero false failures.
 * The published @auth/pg-adapter (PostgreSQL) and @auth/drizzle-adapter
 * (PGlite and PostgreSQL) as fixtures, and the adapters create-auth
 * generates for SQLite, PostgreSQL and MariaDB/MySQL, rendered into a temp
 * project the way a user gets them. Several seeds each; a run that diverges
 * prints its minimal sequence.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Backend = string;

import { type ExploreResult, explore } from "../../src/contract/explore/run.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture, root, tempDir } from "../helpers.js";
import { planStorage } from "../support/storage.js";

const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const suffix = randomBytes(6).toString("hex");
const pgSchema = `create_auth_explore_${suffix}`;
const mysqlDatabase = `create_auth_explore_${suffix}`;
const workspace = tempDir("create-auth-explore-");
const seeds = [1, 2, 3];

interface AdapterModule {
  default: () => unknown;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
}

/** Runs exploration for each seed on one opened module; returns the results for assertions. */
async function exploreModule(mod: AdapterModule, runs: number): Promise<ExploreResult[]> {
  await mod.setup?.();
  const results: ExploreResult[] = [];
  try {
    const adapter = (await mod.default()) as AnyAdapter;
    for (const seed of seeds) {
      results.push(
        await explore({ adapter, seed, runs, callTimeoutMs: 10_000, nonce: `${suffix}-${seed}`, timeLimitMs: 60_000 }),
      );
    }
  } finally {
    await mod.teardown?.();
  }
  return results;
}

function expectPassed(results: ExploreResult[]) {
  for (const result of results) {
    const f = result.failure;
    expect(
      f && `${f.message}\nexpected: ${f.expected}\nreceived: ${f.received}\n${f.steps.join("\n")}\n${f.replay}`,
      `seed ${result.seed}`,
    ).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.steps).toBeGreaterThan(100);
    expect(result.leftovers).toEqual({});
  }
}

const warningsOf = (results: ExploreResult[]) => [...new Set(results.flatMap((r) => r.warnings))].sort();

/** A generated adapter in a small ESM project that resolves packages from this repository. */
async function renderProject(backend: Backend): Promise<string> {
  const part = await planStorage(backend, { importExtension: ".js" });
  const dir = join(workspace, backend);
  for (const file of part.files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return join(dir, "auth", "verify-adapter.ts");
}

let pgAdmin: pg.Pool | undefined;
let mysqlAdmin: mysql.Connection | undefined;

beforeAll(async () => {
  pgAdmin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await pgAdmin.query(`CREATE SCHEMA ${pgSchema}`);
  mysqlAdmin = await mysql.createConnection(mysqlUrl);
  await mysqlAdmin.query(`CREATE DATABASE ${mysqlDatabase}`);
}, 60_000);

afterAll(async () => {
  await pgAdmin?.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`).finally(() => pgAdmin?.end());
  await mysqlAdmin?.query(`DROP DATABASE IF EXISTS ${mysqlDatabase}`).finally(() => mysqlAdmin?.end());
  rmSync(workspace, { recursive: true, force: true });
});

describe("published adapters under exploration", () => {
  it("@auth/pg-adapter on PostgreSQL passes, with its tolerated deviations as warnings", async () => {
    const results = await exploreModule(await import(fixture("published", "pg-adapter.ts")), 40);
    expectPassed(results);
    // It has no WebAuthn methods, so only the ignored return values show.
    expect(warningsOf(results)).toEqual([
      "deleteSession returned nothing; returning the deleted session is preferred",
      "linkAccount returned an account that differs from the one linked (expires_at: Expected number, received nan)",
    ]);
  }, 240_000);

  it("@auth/pg-adapter fails under strict, on the first ignored return value it meets", async () => {
    const mod: AdapterModule = await import(fixture("published", "pg-adapter.ts"));
    await mod.setup?.();
    try {
      const adapter = (await mod.default()) as AnyAdapter;
      const result = await explore({ adapter, seed: 1, runs: 40, callTimeoutMs: 10_000, nonce: suffix, strict: true });
      expect(result.ok).toBe(false);
      expect(result.failure?.message).toMatch(/^(deleteSession|linkAccount) returned .*\(a failure under --strict\)$/);
      expect(result.failure!.steps.length).toBeLessThanOrEqual(4);
    } finally {
      await mod.teardown?.();
    }
  }, 240_000);

  it.each(["kysely-postgres.ts", "kysely-sqlite.ts"])(
    "@auth/kysely-adapter (%s) passes",
    async (module) => {
      const results = await exploreModule(await import(fixture("published", module)), 30);
      expectPassed(results);
      for (const warning of warningsOf(results)) expect(warning).toMatch(/^deleteSession returned nothing/);
    },
    240_000,
  );

  it("@auth/prisma-adapter fails in a few steps: deleteSession throws for a session that is gone", async () => {
    const mod: AdapterModule = await import(fixture("published", "prisma-adapter.ts"));
    await mod.setup?.();
    try {
      const adapter = (await mod.default()) as AnyAdapter;
      const result = await explore({ adapter, seed: 1, runs: 40, callTimeoutMs: 10_000, nonce: suffix });
      expect(result.ok).toBe(false);
      expect(result.failure?.message).toMatch(/^deleteSession threw/);
      expect(result.failure?.received).toMatch(/P2025|No record was found/);
      expect(result.failure!.steps.length).toBeLessThanOrEqual(4);
    } finally {
      await mod.teardown?.();
    }
  }, 240_000);

  it("@auth/drizzle-adapter on PGlite passes", async () => {
    const results = await exploreModule(await import(fixture("published", "drizzle-adapter.ts")), 40);
    expectPassed(results);
  }, 240_000);

  it("@auth/drizzle-adapter on PostgreSQL passes", async () => {
    const results = await exploreModule(await import(fixture("published", "drizzle-adapter-pg.ts")), 40);
    expectPassed(results);
  }, 240_000);
});

describe("generated adapters under exploration", () => {
  const open = async (backend: Backend, env: Record<string, string>) => {
    const path = await renderProject(backend);
    Object.assign(process.env, env);
    return (await import(pathToFileURL(path).href)) as AdapterModule;
  };

  it("sqlite passes, without warnings", async () => {
    const mod = await open("sqlite", { AUTH_DATABASE_PATH: join(workspace, "explore.db") });
    const results = await exploreModule(mod, 60);
    expectPassed(results);
    expect(warningsOf(results)).toEqual([]);
  }, 240_000);

  it("postgres passes, without warnings", async () => {
    const mod = await open("postgres", {
      DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${pgSchema}`)}`,
    });
    const results = await exploreModule(mod, 40);
    expectPassed(results);
    expect(warningsOf(results)).toEqual([]);
  }, 240_000);

  it("mysql passes on MariaDB, without warnings", async () => {
    const mod = await open("mysql", { DATABASE_URL: `${mysqlUrl}/${mysqlDatabase}` });
    const results = await exploreModule(mod, 40);
    expectPassed(results);
    expect(warningsOf(results)).toEqual([]);
  }, 240_000);
});
