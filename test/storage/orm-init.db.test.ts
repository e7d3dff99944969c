/**
 * init on projects that already use Prisma or Drizzle, end to end on real
 * databases: init adds the auth models or tables and leaves the user's own
 * unchanged, `prisma validate`/`prisma generate` and `tsc` pass, a second
 * init changes nothing; the tables come from the ORM's tool (drizzle-kit
 * generate + migrate) or, for Prisma, from `create-auth migrate` of the
 * models' SQL (Prisma's migration engine cannot be fetched here); then
 * `npm run verify-adapter`'s command passes on what init generated. The
 * wrapped methods are checked against the official adapter unwrapped, which
 * fails the very contract case the wrapper is there for.
 *
 * PostgreSQL 127.0.0.1:5432 (trust) and MariaDB 127.0.0.1:3306 (root, no
 * password): a database of its own per test.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import mysql from "mysql2/promise";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { cli, inProcess, tempDir } from "../helpers.js";
import { limiter } from "../support/limiter.js";
import { bin, type Database, freshDatabase, ormDeps, ormProject, ormSteps, runIn } from "./projects.js";

const prismaEnv = {
  PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

const run = async (dir: string, command: string, args: string[], env: Record<string, string>) =>
  (await runIn(dir, command, args, env)).all;

const initArgs = ["init", "--yes", "--providers", "email", "--session", "database", "--no-install"];

interface Case {
  fixture: string;
  database: Database;
  /** The user's schema file, which keeps every byte it had. */
  schema: string;
}

const cases: Case[] = [
  { fixture: "prisma-sqlite", database: "sqlite", schema: "prisma/schema.prisma" },
  { fixture: "prisma-postgres", database: "postgres", schema: "prisma/schema.prisma" },
  { fixture: "prisma-mysql", database: "mariadb", schema: "prisma/schema.prisma" },
  { fixture: "drizzle-sqlite", database: "sqlite", schema: "src/db/schema.ts" },
  { fixture: "drizzle-postgres", database: "postgres", schema: "src/db/schema.ts" },
  { fixture: "drizzle-mysql", database: "mariadb", schema: "src/db/schema.ts" },
];

async function verify(dir: string, module: string, env: Record<string, string>, extra: string[] = []) {
  const result = await cli(["verify-adapter", module, "--reporter", "json", "--seed", "7", ...extra], {
    cwd: dir,
    env,
    // Beside two other projects' runs on a loaded machine, a whole contract run on a real database takes longer
    // than the default minute.
    timeoutMs: 180_000,
  });
  if (result.timedOut) throw new Error(`verify-adapter ${module} timed out:\n${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as { ok: boolean; cases: { id: string; status: string }[] };
  return { exitCode: result.exitCode, failed: report.cases.filter((c) => c.status === "failed").map((c) => c.id) };
}

/** The official adapter without the wrapper, over the same client and tables. */
function unwrapped(dir: string, orm: string): string {
  const adapter = readFileSync(join(dir, "auth/adapter.ts"), "utf8");
  const verifyModule = readFileSync(join(dir, "auth/verify-adapter.ts"), "utf8");
  const source =
    orm === "prisma"
      ? verifyModule.replace(
          /export default function verifiedAdapter\(\) \{[\s\S]*?\n\}/,
          `import { PrismaAdapter } from "@auth/prisma-adapter";\nexport default () => PrismaAdapter(${/createAdapter\(client: Client = (\w+)\)/.exec(adapter)![1]});`,
        )
      : `${verifyModule.replace(
          /export default function verifiedAdapter\(\) \{[\s\S]*?\n\}/,
          `import { DrizzleAdapter } from "@auth/drizzle-adapter";\nimport * as tables from "${/from "(\.[^"]*auth-schema)"/.exec(adapter)![1]}";\nexport default () => DrizzleAdapter(${/createAdapter\(database = (\w+)\)/.exec(adapter)![1]}, tables);`,
        )}`;
  writeFileSync(join(dir, "auth/unwrapped.ts"), source);
  return "auth/unwrapped.ts";
}

/**
 * The projects side by side, three at a time (the six here and the two with a .env below): each has its own
 * folder and database, and a run is mostly waiting (on the database, on npm and the processes it starts).
 */
const inSlot = limiter(3);

describe.concurrent.each(cases)("init on $fixture ($database)", ({ fixture, database, schema }) => {
  const defer = useCleanup();
  const orm = fixture.split("-")[0]!;

  test(
    "adds the auth models, keeps the user's, compiles, makes the tables, and verify-adapter passes",
    ({ expect }) =>
      inSlot(async () => {
        const dir = await ormProject(fixture, defer);
        const url = await freshDatabase(database, orm, defer);
        const env = { ...prismaEnv, DATABASE_URL: url };
        const before = readFileSync(join(dir, schema), "utf8");

        const first = await inProcess(initArgs, { cwd: dir, env });
        expect(first.stderr).toBe("");
        expect(first.exitCode, first.stdout).toBe(0);
        const after = readFileSync(join(dir, schema), "utf8");
        // The user's schema: every byte kept, the auth part after it.
        expect(after.startsWith(before)).toBe(true);
        expect(after.length).toBeGreaterThan(before.length);
        const second = await inProcess(initArgs, { cwd: dir, env });
        expect(second.exitCode).toBe(0);
        expect(second.stdout).toContain("nothing changed");
        expect(readFileSync(join(dir, schema), "utf8")).toBe(after);

        await ormSteps(dir, orm, env);

        // What init generated, as the user runs it.
        const script = await execa(
          "npm",
          // --require tokens,attempts: the operations token rotation and the sign-in throttle add are checked too.
          [
            "run",
            "--silent",
            "verify-adapter",
            "--",
            "--reporter",
            "json",
            "--seed",
            "7",
            "--require",
            "tokens,attempts",
          ],
          {
            cwd: dir,
            env: { ...env, NO_COLOR: "1" },
            reject: false,
          },
        );
        const report = JSON.parse(script.stdout) as {
          ok: boolean;
          cases: { id: string; status: string; failure?: { message: string } }[];
          exploration?: { failure?: { message: string; steps: string[] } };
        };
        const failed = report.cases.filter((c) => c.status === "failed");
        // Why, not only which: a failure under load is read in CI's log.
        expect(
          failed.map((c) => c.id),
          failed.map((c) => `${c.id}: ${c.failure?.message}`).join("\n"),
        ).toEqual([]);
        expect(report.cases.filter((c) => c.id.startsWith("account.tokens.")).map((c) => c.status)).toEqual(
          Array(4).fill("passed"),
        );
        expect(report.cases.filter((c) => c.id.startsWith("attempts.")).map((c) => c.status)).toEqual(
          Array(4).fill("passed"),
        );
        expect(report.ok, JSON.stringify(report.exploration?.failure)).toBe(true);
        expect(script.exitCode).toBe(0);

        // What the wrapper is for: the official adapter alone fails these cases here.
        const expected = [
          ...(orm === "prisma" ? ["flow.email-sign-in.stale-session-cookie"] : []),
          ...(database === "mariadb" ? ["verification-token.use.simultaneous-single-use"] : []),
        ];
        if (expected.length) {
          const official = await verify(dir, unwrapped(dir, orm), env, ["--explore", "0"]);
          expect(official.failed).toEqual(expect.arrayContaining(expected));
          expect(official.exitCode).toBe(1);
        }
        // Its own four minutes, after up to two others' turns before it.
      }),
    720_000,
  );
});

describe.concurrent.each([
  // A byte-order mark and CRLF, as an editor on Windows writes the file.
  { fixture: "prisma-postgres", database: "postgres" as const, bom: "\uFEFF", eol: "\r\n" },
  { fixture: "drizzle-mysql", database: "mariadb" as const, bom: "", eol: "\n" },
])("$fixture whose .env holds the database ($database)", ({ fixture, database, bom, eol }) => {
  const defer = useCleanup();

  test(
    "init leaves it there and writes nothing for it to .env.local; migrate and verify-adapter use it",
    ({ expect }) =>
      inSlot(async () => {
        const dir = await ormProject(fixture, defer);
        const url = await freshDatabase(database, fixture.split("-")[0]!, defer);
        // The project's own .env, as Prisma and drizzle-kit keep it; DATABASE_URL is in no environment.
        const dotenv = `${bom}# The shop's database${eol}DATABASE_URL="${url}"${eol}`;
        writeFileSync(join(dir, ".env"), dotenv);
        // As from a shell: no DATABASE_URL, no NODE_ENV=test.
        const env = { ...prismaEnv, NODE_ENV: "development" };
        expect(process.env.DATABASE_URL).toBeUndefined();

        const init = await inProcess(initArgs, { cwd: dir, env });
        expect(init.stderr).toBe("");
        expect(init.exitCode, init.stdout).toBe(0);
        expect(init.stdout).toContain("note: DATABASE_URL is set in .env: the auth tables go to that database.");
        expect(init.stdout).toMatch(/Point DATABASE_URL in \.env at your database/);
        expect(readFileSync(join(dir, ".env"), "utf8")).toBe(dotenv);
        const local = readFileSync(join(dir, ".env.local"), "utf8");
        expect(local).not.toMatch(/DATABASE_URL/);
        expect(local).toMatch(/^AUTH_SECRET=.{40,}$/m);

        if (fixture.startsWith("prisma")) {
          await run(dir, bin(dir, "prisma", "build/index.js"), ["generate"], env);
          const migrated = await inProcess(["migrate"], { cwd: dir, env });
          expect(migrated.stderr).toBe("");
          expect(migrated.exitCode).toBe(0);
          expect(migrated.stdout).toContain(`Auth tables ready in 127.0.0.1:5432/${new URL(url).pathname.slice(1)}`);
        } else {
          // drizzle-kit reads .env by itself.
          await run(dir, process.execPath, [bin(dir, "drizzle-kit", "bin.cjs"), "generate"], env);
          await run(dir, process.execPath, [bin(dir, "drizzle-kit", "bin.cjs"), "migrate"], env);
        }
        const script = await execa(
          "npm",
          ["run", "--silent", "verify-adapter", "--", "--reporter", "json", "--seed", "7"],
          {
            cwd: dir,
            env: { ...env, NO_COLOR: "1" },
            reject: false,
          },
        );
        const report = JSON.parse(script.stdout) as { ok: boolean; cases: { id: string; status: string }[] };
        expect(report.cases.filter((c) => c.status === "failed").map((c) => c.id)).toEqual([]);
        expect(report.ok).toBe(true);
        expect(script.exitCode).toBe(0);

        // The tables are in the database of .env, the only one named anywhere.
        const tables =
          database === "postgres"
            ? await (async () => {
                const client = new pg.Client({ connectionString: url });
                await client.connect();
                const result = await client.query(
                  "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
                );
                await client.end();
                return result.rows.map((r: { table_name: string }) => r.table_name);
              })()
            : await (async () => {
                const connection = await mysql.createConnection({ uri: url });
                const [rows] = (await connection.query("SHOW TABLES")) as [Record<string, string>[], unknown];
                await connection.end();
                return rows.map((r) => Object.values(r)[0]!);
              })();
        expect(tables.map((t) => t.toLowerCase())).toEqual(expect.arrayContaining(["user", "account", "session"]));
        // As above: its own four minutes after others' turns.
      }),
    720_000,
  );
});

describe("create-auth migrate on MariaDB without mysql2", () => {
  const defer = useCleanup();

  test("a Prisma 7 project has the mariadb driver (through @prisma/adapter-mariadb): migrate uses it", async () => {
    const dir = tempDir("create-auth-orm-mariadb-");
    const deps = await ormDeps();
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(deps, "node_modules/mariadb"), join(dir, "node_modules/mariadb"));
    writeFileSync(join(dir, "package.json"), "{}");
    mkdirSync(join(dir, "auth"));
    const { renderPrismaSql } = await import("../../src/storage/prisma/models.js");
    writeFileSync(
      join(dir, "auth/schema.mysql.sql"),
      `-- connection: DATABASE_URL\n${renderPrismaSql("mysql", undefined)}`,
    );
    const url = await freshDatabase("mariadb", "prisma", defer);
    for (let run = 0; run < 2; run++) {
      const result = await inProcess(["migrate"], { cwd: dir, env: { DATABASE_URL: url } });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
    }
    const connection = await mysql.createConnection({ uri: url });
    const [rows] = (await connection.query("SHOW TABLES")) as [Record<string, string>[], unknown];
    await connection.end();
    expect(rows.map((r) => Object.values(r)[0]).sort()).toEqual([
      "Account",
      "AttemptCounter",
      "Authenticator",
      "Session",
      "User",
      "VerificationToken",
    ]);
  });
});
