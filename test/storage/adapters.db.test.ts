/**
 * The generated adapters, proven the way a user would: rendered into a temp
 * project and run through the real `create-auth verify-adapter` against a
 * SQLite file, PostgreSQL (127.0.0.1:5432, a schema per run) and MariaDB /
 * MySQL (127.0.0.1:3306, a database per run), twice on the same database so
 * setup() is shown to be re-runnable. Then one strict tsc run over all five.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../../src/storage/registry.js";

type Backend = string;

import { cli, root, tempDir } from "../helpers.js";
import { planStorage } from "../support/storage.js";

const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const suffix = randomBytes(6).toString("hex");
const pgSchema = `create_auth_${suffix}`;
const mysqlDatabase = `create_auth_${suffix}`;

const workspace = tempDir("create-auth-adapters-");
const projectOf = (backend: Backend) => join(workspace, backend);

/** Writes a generated part into a small ESM project that resolves packages from this repository. */
async function renderProject(backend: Backend, importExtension: "" | ".js" = ".js") {
  const part = await planStorage(backend, { importExtension, passwords: true });
  const dir = projectOf(backend);
  for (const file of part.files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", scripts: part.scripts }));
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return part;
}

interface JsonReport {
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
  unmetRequirements: unknown[];
  cases: { id: string; status: string; failure?: { message: string; received?: string } }[];
}

/**
 * `require` "all,tokens,attempts": the opt-in groups of what token rotation and the sign-in throttle add run
 * too, on the same database.
 */
async function verify(backend: Backend, env: Record<string, string> = {}, require = "all,tokens,attempts") {
  const result = await cli(["verify-adapter", "auth/verify-adapter.ts", "--require", require, "--reporter", "json"], {
    cwd: projectOf(backend),
    env,
  });
  let report: JsonReport;
  try {
    report = JSON.parse(result.stdout) as JsonReport;
  } catch {
    throw new Error(
      `verify-adapter printed no JSON report (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { exitCode: result.exitCode, report };
}

/** Every case passed: no failure, no skip, nothing required missing. */
function expectAllPassed({ exitCode, report }: Awaited<ReturnType<typeof verify>>) {
  const failures = report.cases
    .filter((c) => c.status !== "passed")
    .map((c) => `${c.id}: ${c.status} ${c.failure?.message ?? ""} ${c.failure?.received ?? ""}`);
  expect(failures).toEqual([]);
  expect(report).toMatchObject({ ok: true, failed: 0, skipped: 0, unmetRequirements: [] });
  expect(report.passed).toBe(report.cases.length);
  expect(report.passed).toBeGreaterThan(40);
  // --require tokens ran the opt-in group of what token rotation adds (the lease on the real database among them).
  expect(report.cases.filter((c) => c.id.startsWith("account.tokens.")).map((c) => c.status)).toEqual([
    "passed",
    "passed",
    "passed",
    "passed",
  ]);
  // --require attempts: the throttle's counters, twenty at once among them.
  expect(report.cases.filter((c) => c.id.startsWith("attempts.")).map((c) => c.status)).toEqual([
    "passed",
    "passed",
    "passed",
    "passed",
  ]);
  expect(exitCode).toBe(0);
}

let pgAdmin: pg.Pool | undefined;
let mysqlAdmin: mysql.Connection | undefined;

beforeAll(async () => {
  for (const backend of backends) await renderProject(backend);
  pgAdmin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await pgAdmin.query(`CREATE SCHEMA ${pgSchema}`);
  mysqlAdmin = await mysql.createConnection(mysqlUrl);
  await mysqlAdmin.query(`CREATE DATABASE ${mysqlDatabase}`);
}, 120_000);

afterAll(async () => {
  await pgAdmin?.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`).finally(() => pgAdmin?.end());
  await mysqlAdmin?.query(`DROP DATABASE IF EXISTS ${mysqlDatabase}`).finally(() => mysqlAdmin?.end());
  rmSync(workspace, { recursive: true, force: true });
});

describe("the SQL, memory and skeleton storages: the plan", () => {
  it("sqlite: adapter, connection, verify module with its env loader, and schema; driver, env and the verify script", async () => {
    const part = await planStorage("sqlite", { importExtension: ".js" });
    expect(part.files.map((f) => f.path).sort()).toEqual([
      "auth/adapter.ts",
      "auth/db.ts",
      "auth/load-env.ts",
      "auth/schema.sqlite.sql",
      "auth/verify-adapter.ts",
    ]);
    // npm run verify-adapter reads AUTH_DATABASE_PATH from the env files as the app does.
    expect(part.files.find((f) => f.path === "auth/verify-adapter.ts")?.contents).toContain('import "./load-env.js";');
    expect(part.dependencies).toEqual(expect.arrayContaining(["better-sqlite3", "@auth/core"]));
    expect(part.devDependencies).toEqual(expect.arrayContaining(["@types/better-sqlite3", "create-auth"]));
    expect(part.env).toEqual([expect.objectContaining({ name: "AUTH_DATABASE_PATH", example: "./auth.db" })]);
    expect(part.scripts).toEqual({
      "verify-adapter": "create-auth verify-adapter auth/verify-adapter.ts --require all",
      "db:migrate": "create-auth migrate auth/schema.sqlite.sql",
    });
  });

  it("postgres and mysql read DATABASE_URL and depend on their drivers", async () => {
    const postgres = await planStorage("postgres", { importExtension: ".js" });
    expect(postgres.dependencies).toContain("pg");
    expect(postgres.devDependencies).toContain("@types/pg");
    expect(postgres.env).toEqual([
      expect.objectContaining({ name: "DATABASE_URL", example: "postgres://postgres@127.0.0.1:5432/app" }),
    ]);
    const my = await planStorage("mysql", { importExtension: ".js" });
    expect(my.dependencies).toContain("mysql2");
    expect(my.env[0]?.example).toMatch(/^mysql:\/\//);
  });

  it("memory and skeleton have no database: two files, no driver, no env", async () => {
    for (const backend of ["memory", "skeleton"] as const) {
      const part = await planStorage(backend, { importExtension: "" });
      expect(part.files.map((f) => f.path).sort()).toEqual(["auth/adapter.ts", "auth/verify-adapter.ts"]);
      expect(part.env).toEqual([]);
      expect(part.dependencies).toEqual(["@auth/core"]);
    }
  });

  it("every file says create-auth generated it; imports follow importExtension", async () => {
    for (const backend of backends) {
      for (const importExtension of ["", ".js"] as const) {
        const part = await planStorage(backend, { importExtension });
        for (const file of part.files) expect(file.contents, file.path).toMatch(/generated by create-auth/i);
        const verifyModule = part.files.find((f) => f.path === "auth/verify-adapter.ts")!.contents;
        expect(verifyModule).toContain(`from "./adapter${importExtension}"`);
      }
    }
  });
});

describe("generated adapters under create-auth verify-adapter", () => {
  it("sqlite passes every case, twice on the same database file", async () => {
    const env = { AUTH_DATABASE_PATH: join(workspace, "auth.db") };
    expectAllPassed(await verify("sqlite", env));
    expectAllPassed(await verify("sqlite", env));
  }, 60_000);

  it("postgres passes every case, twice on the same schema", async () => {
    const env = { DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${pgSchema}`)}` };
    expectAllPassed(await verify("postgres", env));
    expectAllPassed(await verify("postgres", env));
    const { rows } = await pgAdmin!.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1",
      [pgSchema],
    );
    // users, accounts, sessions, verification_tokens, authenticators, attempt_counters, two_factor and its codes.
    expect(rows[0].n).toBe(8);
  }, 60_000);

  it("mysql passes every case on MariaDB/MySQL, twice on the same database", async () => {
    const env = { DATABASE_URL: `${mysqlUrl}/${mysqlDatabase}` };
    expectAllPassed(await verify("mysql", env));
    expectAllPassed(await verify("mysql", env));
    const [rows] = await mysqlAdmin!.query(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = ?",
      [mysqlDatabase],
    );
    expect((rows as { n: number }[])[0]!.n).toBe(8);
  }, 60_000);

  it("memory passes every case", async () => {
    expectAllPassed(await verify("memory"));
  }, 30_000);

  it("skeleton fails with 'not implemented: <method>' wherever a method is called for a result", async () => {
    const { exitCode, report } = await verify("skeleton", {}, "all");
    expect(exitCode).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.skipped).toBe(0);
    const failed = report.cases.filter((c) => c.status === "failed");
    // The one case that wants a throw (an unknown credential) is satisfied by "not implemented" too.
    expect(report.cases.filter((c) => c.status === "passed").map((c) => c.id)).toEqual([
      "authenticator.update-counter.unknown-throws",
    ]);
    for (const c of failed) expect(c.failure?.received, c.id).toMatch(/not implemented: \w+/);
    const received = (id: string) => report.cases.find((c) => c.id === id)?.failure?.received;
    expect(received("user.create.returns-user")).toContain("not implemented: createUser");
    expect(received("user.get.unknown-id-is-null")).toContain("not implemented: getUser");
    expect(received("session.get.unknown-token-is-null")).toContain("not implemented: getSessionAndUser");
    expect(received("verification-token.use.unknown-is-null")).toContain("not implemented: useVerificationToken");
    expect(received("authenticator.get.unknown-is-null")).toContain("not implemented: getAuthenticator");
  }, 30_000);
});

/** Runs a TypeScript snippet in a rendered project with tsx, as the project's own scripts run. */
function runTs(backend: Backend, code: string, env: Record<string, string>, input?: string) {
  writeFileSync(join(projectOf(backend), "snippet.ts"), code);
  return execa(join(root, "node_modules/.bin/tsx"), ["snippet.ts"], {
    cwd: projectOf(backend),
    env,
    input,
    reject: false,
  });
}

describe("connections open lazily; a missing table names the command", () => {
  it("sqlite: importing and creating the adapter touches no file; a query says to run db:migrate", async () => {
    const path = join(workspace, "never-created.db");
    const env = { AUTH_DATABASE_PATH: path };
    const result = await runTs(
      "sqlite",
      `import { createAdapter } from "./auth/adapter.js";
import { existsSync } from "node:fs";
const adapter = createAdapter();
console.log("exists after create:", existsSync(process.env.AUTH_DATABASE_PATH!));
await adapter.getUser!("x").catch((e: Error) => console.log("error:", e.message));
console.log("exists after query:", existsSync(process.env.AUTH_DATABASE_PATH!));`,
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("exists after create: false");
    expect(result.stdout).toMatch(
      /error: The auth tables do not exist in the SQLite database .*never-created\.db yet: run `npm run db:migrate`/,
    );
    expect(result.stdout).toContain("exists after query: false");
  }, 30_000);

  it("postgres and mysql: an empty database gives the same error, naming db:migrate", async () => {
    const pgEmpty = `create_auth_empty_${suffix}`;
    await pgAdmin!.query(`CREATE SCHEMA ${pgEmpty}`);
    try {
      for (const [backend, url] of [
        ["postgres", `${pgUrl}?options=${encodeURIComponent(`-c search_path=${pgEmpty}`)}`],
        ["mysql", `${mysqlUrl}/mysql`],
      ] as const) {
        const result = await runTs(
          backend,
          `import { createAdapter } from "./auth/adapter.js";
import { openDb } from "./auth/db.js";
const db = openDb();
await createAdapter(db).getSessionAndUser!("x").catch((e: Error) => console.log("error:", e.message));
await db.close();`,
          { DATABASE_URL: url },
        );
        expect(result.stdout, backend).toMatch(
          /error: The auth tables do not exist in the database of DATABASE_URL yet: run `npm run db:migrate`/,
        );
      }
    } finally {
      await pgAdmin!.query(`DROP SCHEMA ${pgEmpty} CASCADE`);
    }
  }, 30_000);
});

describe("passwords: auth:add-user stores a salted scrypt hash the credentials check accepts", () => {
  const check = `import { verifyUserPassword } from "./auth/passwords.js";
import { openDb } from "./auth/db.js";
const db = openDb();
for (const [email, password] of [["Alice@Example.com", "correct horse"], ["alice@example.com", "wrong horse"], ["bob@example.com", "correct horse"]]) {
  console.log(email, password, JSON.stringify(await verifyUserPassword(email!, password!, db)));
}
const [row] = await db.query("SELECT * FROM users WHERE email = 'alice@example.com'");
console.log("stored:", String(row?.passwordHash));
await db.close();`;

  for (const backend of ["sqlite", "postgres", "mysql"] as const) {
    it(`${backend}: add, sign in, a wrong password and an unknown user refused, the hash never the password`, async () => {
      const env: Record<string, string> =
        backend === "sqlite"
          ? { AUTH_DATABASE_PATH: join(workspace, "auth.db") }
          : backend === "postgres"
            ? { DATABASE_URL: `${pgUrl}?options=${encodeURIComponent(`-c search_path=${pgSchema}`)}` }
            : { DATABASE_URL: `${mysqlUrl}/${mysqlDatabase}` };
      // The tables exist: the verify-adapter runs above applied the schema to these databases.
      await verify(backend, env);
      const tsx = join(root, "node_modules/.bin/tsx");
      const short = await execa(tsx, ["auth/add-user.ts", "alice@example.com"], {
        cwd: projectOf(backend),
        env,
        input: "short\n",
        reject: false,
      });
      expect(short.exitCode).toBe(2);
      expect(short.stderr).toMatch(/at least 8 characters/);
      const added = await execa(tsx, ["auth/add-user.ts", "Alice@Example.com"], {
        cwd: projectOf(backend),
        env,
        input: "correct horse\n",
        reject: false,
      });
      expect(added.stderr).toBe("");
      expect(added.stdout).toBe("Added alice@example.com.");
      const result = await runTs(backend, check, env);
      expect(result.stderr).toBe("");
      const lines = result.stdout.split("\n");
      expect(lines[0]).toMatch(
        /^Alice@Example.com correct horse \{"id":"[0-9a-f-]{36}","name":null,"email":"alice@example.com"\}$/,
      );
      expect(lines[1]).toBe("alice@example.com wrong horse null");
      expect(lines[2]).toBe("bob@example.com correct horse null");
      expect(lines[3]).toMatch(/^stored: scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
      expect(result.stdout).not.toContain("stored: correct horse");
      const again = await execa(tsx, ["auth/add-user.ts", "alice@example.com"], {
        cwd: projectOf(backend),
        env,
        input: "battery staple",
        reject: false,
      });
      expect(again.stdout).toBe("Updated the password of alice@example.com.");
    }, 60_000);
  }
});

describe("generated adapters type-check", () => {
  it("all five backends, in one strict tsc run against the real @auth/core, pg, mysql2 and better-sqlite3 types", async () => {
    writeFileSync(join(workspace, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(workspace, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")],
          noUnusedLocals: true,
          noUnusedParameters: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          // @auth/core's own .d.ts files reference internal names and optional peers
          // (nodemailer, @simplewebauthn) they do not ship; pg, mysql2 and
          // better-sqlite3 check cleanly either way.
          skipLibCheck: true,
        },
        include: backends.map((b) => `${b}/auth/*.ts`),
      }),
    );
    const result = await execa(join(root, "node_modules/.bin/tsc"), ["-p", join(workspace, "tsconfig.json")], {
      cwd: workspace,
      reject: false,
    });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  }, 120_000);
});
