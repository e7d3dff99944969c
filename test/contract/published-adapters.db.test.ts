// Real published adapters on real databases, through the built CLI as a user runs it.
import { describe, expect, it } from "vitest";
import { cli, fixture } from "../helpers.js";

const json = async (module: string, extra: string[] = []) => {
  const result = await cli([
    "verify-adapter",
    fixture("published", module),
    "--reporter",
    "json",
    "--seed",
    "11",
    ...extra,
  ]);
  return {
    exitCode: result.exitCode,
    stderr: result.stderr,
    report: result.stdout ? JSON.parse(result.stdout) : undefined,
  };
};
const failingIds = (report: { cases: { id: string; status: string }[] }) =>
  report.cases.filter((c) => c.status === "failed").map((c) => c.id);

describe("@auth/drizzle-adapter on PGlite", () => {
  // PGlite starts a WebAssembly PostgreSQL in setup(): seconds of CPU, many more on a loaded machine.
  it("passes the whole contract with every capability", { timeout: 180_000 }, async () => {
    const { exitCode, report, stderr } = await json("drizzle-adapter.ts", [
      "--require",
      "all",
      "--setup-timeout",
      "120000",
    ]);
    expect(stderr).toBe("");
    expect(failingIds(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, skipped: 0 });
    expect(exitCode).toBe(0);
  });
});

describe("@auth/pg-adapter on PostgreSQL", () => {
  it("passes with warnings only (return values the service ignores), and has no WebAuthn", async () => {
    const { exitCode, report } = await json("pg-adapter.ts");
    // linkAccount of an account without expires_at returns expires_at: NaN (parseInt(undefined)).
    // The service ignores linkAccount's return value, so no sign-in sees it: a warning.
    expect(failingIds(report)).toEqual([]);
    const warned = report.cases.filter((c: { warnings: string[] }) => c.warnings.length > 0);
    expect(warned.map((c: { id: string }) => c.id)).toEqual([
      "account.link.email-account-without-tokens",
      "session.delete.returns-deleted-session",
    ]);
    expect(warned[0].warnings).toEqual([
      expect.stringMatching(/^tolerated: linkAccount result\.expires_at: .*nan.*ignores what linkAccount returns/i),
    ]);
    expect(report.capabilities.find((c: { name: string }) => c.name === "webauthn")).toMatchObject({
      supported: false,
    });
    expect(report.notes).toEqual([expect.stringMatching(/ids come back as numbers/)]);
    expect(report.leftovers).toEqual({});
    expect(exitCode).toBe(0);
  });

  it("--strict fails it on that warning", async () => {
    const { exitCode, report } = await json("pg-adapter.ts", ["--strict", "--only", "account.*"]);
    expect(failingIds(report)).toEqual(["account.link.email-account-without-tokens"]);
    expect(exitCode).toBe(1);
  });

  it("two runs at the same time with the same seed share no records", async () => {
    const runs = await Promise.all([json("pg-adapter.ts"), json("pg-adapter.ts")]);
    for (const { exitCode, report } of runs) {
      expect(failingIds(report)).toEqual([]);
      expect(exitCode).toBe(0);
    }
  });
});

describe("@auth/sequelize-adapter on PostgreSQL: results are Sequelize model instances", () => {
  it("passes the whole contract, exploration included: fields read as the service reads them (getters)", async () => {
    // createUser, updateUser, createSession and updateSession return model instances whose fields are
    // prototype getters over dataValues; copying own fields only would see every field missing.
    const { exitCode, report, stderr } = await json("sequelize-adapter.ts", ["--require", "users,sessions,email"]);
    expect(stderr).toBe("");
    expect(failingIds(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, warnings: 0, exploration: { ok: true } });
    expect(report.leftovers).toEqual({});
    expect(exitCode).toBe(0);
  });
});

const warnedIds = (report: { cases: { id: string; warnings: string[] }[] }) =>
  report.cases.filter((c) => c.warnings.length > 0).map((c) => c.id);

describe.each([
  ["kysely-postgres.ts", "PostgreSQL"],
  ["kysely-sqlite.ts", "SQLite (better-sqlite3)"],
])("@auth/kysely-adapter: %s on %s", (module) => {
  it("passes: updateSession throwing for a deleted user's session is only a warning", async () => {
    const { exitCode, report, stderr } = await json(module, ["--require", "users,sessions,email"]);
    expect(stderr).toBe("");
    expect(failingIds(report)).toEqual([]);
    expect(warnedIds(report)).toEqual([
      "user.delete.removes-sessions-and-accounts",
      "session.delete.returns-deleted-session",
    ]);
    expect(report.leftovers).toEqual({});
    expect(exitCode).toBe(0);
  });
});

describe("@auth/kysely-adapter on MariaDB, with the server's default collation (no case, no accents)", () => {
  it("fails the simultaneous-use case, a real race (one sign-in link used twice); exploration tolerates the collation and finds the race too", async () => {
    // Without RETURNING, the adapter reads the token, then deletes it: two
    // simultaneous uses of one link both get it, so the link signs in twice.
    const { exitCode, report, stderr } = await json("kysely-mariadb.ts", ["--require", "users,sessions,email"]);
    expect(stderr).toBe("");
    expect(failingIds(report)).toEqual(["verification-token.use.simultaneous-single-use"]);
    expect(report.exploration.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^tolerated: the store treats email addresses that differ only in case or accents as one/,
        ),
        expect.stringMatching(/^tolerated: the store treats session tokens that differ only in case or accents as one/),
      ]),
    );
    expect(report.exploration.failure.message).toMatch(
      /^useVerificationToken returned token\d+ to both of two simultaneous uses \(one sign-in link signed in twice\)$/,
    );
    expect(report.exploration.failure.steps.length).toBeLessThanOrEqual(3);
    expect(report.leftovers).toEqual({});
    expect(exitCode).toBe(1);
  });
});

describe("@auth/prisma-adapter: Prisma 7 on SQLite with the better-sqlite3 driver adapter", () => {
  it("passes every case but the stale-cookie email sign-in, a real bug: deleteSession throws P2025 for a gone session", async () => {
    // Auth.js deletes the session a stale cookie names when someone signs in by
    // email (outside any try), and prisma.session.delete throws for a missing row:
    // the sign-in errors (next-auth issue #4495). updateSession's P2025 for a
    // deleted user's session is a path the service never takes: a warning.
    const { exitCode, report, stderr } = await json("prisma-adapter.ts", ["--require", "all"]);
    expect(stderr).toBe("");
    expect(failingIds(report)).toEqual(["flow.email-sign-in.stale-session-cookie"]);
    const failure = report.cases.find(
      (c: { id: string }) => c.id === "flow.email-sign-in.stale-session-cookie",
    ).failure;
    expect(failure.message).toMatch(/^deleteSession threw for a session that no longer exists: .*stale session cookie/);
    expect(failure.received).toMatch(/PrismaClientKnownRequestError/);
    expect(report.passed).toBe(report.cases.length - 1);
    expect(report.leftovers).toEqual({});
    expect(exitCode).toBe(1);
  });
});
