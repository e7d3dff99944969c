/**
 * The sign-in throttle init generates with password and email sign-in, on
 * each SQL backend's own database (SQLite, PostgreSQL, MariaDB), through the
 * real Auth() with the generated auth.ts, adapter and throttle
 * (throttle-app.ts): wrong passwords refused after the limit without being
 * hashed, the right one refused from that client until the window has passed
 * (the clock moved, not waited for), two app processes on one database
 * counting together, sign-in emails capped per address and per client (a
 * refused one stores no verification token), and no answer that tells an
 * existing account from a missing one.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { inProcess, root } from "../helpers.js";
import { databases } from "./generated-adapter.js";
import { withEnv } from "./provider-module.js";
import {
  type Answer,
  emailSignIn,
  errorOf,
  loadThrottleApp,
  passwordSignIn,
  type ThrottleApp,
} from "./throttle-app.js";

const dbs = databases("create_auth_throttle");
const backends = ["sqlite", "postgres", "mysql"] as const;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** What a client sees of an answer, every part that could differ by account. */
const seen = (a: Answer) => ({ status: a.status, location: a.location, cookies: a.cookieNames, body: a.body });
/** A fresh client address for each call, so tests that share a database never share a count. */
let nextClient = 1;
const newClient = () => `198.51.100.${nextClient++}`;

beforeAll(() => dbs.create(), 60_000);
afterAll(() => dbs.drop());

describe.each(backends)("sign-in throttle on %s", (backend) => {
  let dir: string;
  let app: ThrottleApp;
  let restoreEnv: () => void;
  const user = { email: `ada-${backend}@example.com`, password: "correct horse battery staple" };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `create-auth-throttle-${backend}-`));
    const init = await inProcess(
      ["init", "--yes", "--no-install", "--backend", backend, "--providers", "credentials,email"],
      { cwd: dir },
    );
    expect(init.exitCode, init.stderr).toBe(0);
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const secret = /^AUTH_SECRET=(.+)$/m.exec(readFileSync(join(dir, ".env.local"), "utf8"))![1]!;
    const connection = dbs.url(backend, dir);
    restoreEnv = withEnv({
      AUTH_SECRET: secret,
      ...(backend === "sqlite" ? { AUTH_DATABASE_PATH: connection } : { DATABASE_URL: connection }),
    });
    app = await loadThrottleApp(dir);
    // The tables, as `npm run db:migrate` makes them: the generated schema through the generated connection
    // (SQLite: only the schema scripts may create the file).
    const schema = app.modules.openDb(connection, { create: true });
    await schema.exec(readFileSync(join(dir, `auth/schema.${backend}.sql`), "utf8"));
    await schema.close();
    await app.modules.setUserPassword(user.email, user.password);
  }, 120_000);

  afterAll(() => {
    restoreEnv?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("wrong passwords are refused after the limit without hashing; the right one too, until the window has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    try {
      const { perAccountAndClient } = app.modules.passwordLimits;
      const client = newClient();
      const wrong: Answer[] = [];
      for (let i = 0; i < perAccountAndClient.max + 5; i++)
        wrong.push(await passwordSignIn(app, client, user.email, `wrong ${i}`));
      // Every answer is a wrong password's, refused or not.
      for (const answer of wrong) {
        expect(answer.signedIn).toBe(false);
        expect(seen(answer)).toEqual(seen(wrong[0]!));
        expect(errorOf(answer)).toBe("CredentialsSignin");
      }
      const checked = wrong.slice(0, perAccountAndClient.max);
      const refused = wrong.slice(perAccountAndClient.max);
      const cpu = { checked: median(checked.map((a) => a.cpuMs)), refused: median(refused.map((a) => a.cpuMs)) };
      const wall = { checked: median(checked.map((a) => a.ms)), refused: median(refused.map((a) => a.ms)) };
      console.info(
        `${backend}: median CPU ms checked ${cpu.checked.toFixed(1)}, refused ${cpu.refused.toFixed(1)}; wall ms checked ${wall.checked.toFixed(1)}, refused ${wall.refused.toFixed(1)}`,
      );
      // A check runs scrypt (32 MiB, tens of milliseconds of CPU); a refusal runs nothing of it.
      expect(cpu.checked).toBeGreaterThan(15);
      expect(cpu.refused).toBeLessThan(cpu.checked / 4);
      expect(wall.refused).toBeLessThan(wall.checked / 2);

      // The right password from that client is refused as well within the window...
      const within = await passwordSignIn(app, client, user.email, user.password);
      expect(within.signedIn).toBe(false);
      expect(seen(within)).toEqual(seen(wrong[0]!));
      // ...while the account's owner elsewhere signs in.
      const elsewhere = await passwordSignIn(app, newClient(), user.email, user.password);
      expect(elsewhere.signedIn, app.logged.join("\n")).toBe(true);

      vi.setSystemTime(Date.now() + perAccountAndClient.windowMs - 60_000);
      expect((await passwordSignIn(app, client, user.email, user.password)).signedIn).toBe(false);
      vi.setSystemTime(Date.now() + 61_000);
      const after = await passwordSignIn(app, client, user.email, user.password);
      expect(after.signedIn, app.logged.join("\n")).toBe(true);
      // A success clears what came before it: the full allowance again.
      for (let i = 0; i < perAccountAndClient.max; i++)
        expect((await passwordSignIn(app, client, user.email, `wrong again ${i}`)).cpuMs).toBeGreaterThan(15);
    } finally {
      vi.useRealTimers();
    }
  }, 120_000);

  test("a missing account answers exactly as an existing one with a wrong password, checked or refused", async () => {
    const pairs: { existing: Answer; missing: Answer }[] = [];
    // Alternated, each from a client of its own, so that neither order nor the throttle weighs on the times.
    for (let i = 0; i < 16; i++) {
      const existing = await passwordSignIn(app, newClient(), user.email, `not it ${i}`);
      const missing = await passwordSignIn(app, newClient(), `nobody-${backend}-${i}@example.com`, `not it ${i}`);
      pairs.push({ existing, missing });
    }
    for (const { existing, missing } of pairs) expect(seen(missing)).toEqual(seen(existing));
    const time = (pick: (a: Answer) => number) => ({
      existing: median(pairs.map((p) => pick(p.existing))),
      missing: median(pairs.map((p) => pick(p.missing))),
    });
    const cpu = time((a) => a.cpuMs);
    const wall = time((a) => a.ms);
    console.info(
      `${backend}: median ms, wrong password ${wall.existing.toFixed(1)} (CPU ${cpu.existing.toFixed(1)}), missing account ${wall.missing.toFixed(1)} (CPU ${cpu.missing.toFixed(1)})`,
    );
    // Both run one scrypt check: the same work (CPU time, which other jobs on the machine disturb least), and the
    // same wall time within the machine's noise.
    expect(Math.abs(cpu.existing - cpu.missing)).toBeLessThan(Math.max(0.2 * cpu.existing, 10));
    expect(Math.abs(wall.existing - wall.missing)).toBeLessThan(0.5 * wall.existing);

    // Refused alike once over the limit: from one client, the same number of tries at each.
    const client = newClient();
    const missingEmail = `nobody-${backend}-refused@example.com`;
    const { max } = app.modules.passwordLimits.perAccountAndClient;
    const last = { existing: undefined as Answer | undefined, missing: undefined as Answer | undefined };
    for (let i = 0; i <= max; i++) {
      last.existing = await passwordSignIn(app, client, user.email, `guess ${i}`);
      last.missing = await passwordSignIn(app, client, missingEmail, `guess ${i}`);
    }
    expect(last.existing!.cpuMs).toBeLessThan(15);
    expect(seen(last.missing!)).toEqual(seen(last.existing!));
  }, 120_000);

  test("two app processes on one database count together; no count is lost", async () => {
    const client = newClient();
    // An account of its own: the other tests' guesses at the user are in its account's counter.
    const account = { email: `twice-${backend}@example.com`, password: "one two three four" };
    await app.modules.setUserPassword(account.email, account.password);
    const tsx = join(root, "node_modules/.bin/tsx");
    const worker = join(root, "test/e2e/throttle-worker.ts");
    const perProcess = 8;
    const runs = await Promise.all(
      [1, 2].map(() =>
        execa(tsx, [worker, dir, client, account.email, "not the password", String(perProcess)], {
          env: { ...process.env },
          reject: false,
          timeout: 90_000,
        }),
      ),
    );
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    const answers = runs.flatMap((run) => JSON.parse(run.stdout) as { status: number; location: string }[]);
    expect(answers).toHaveLength(2 * perProcess);
    expect(new Set(answers.map((a) => `${a.status} ${a.location}`)).size).toBe(1);

    // Read the counters the way the throttle keys them.
    const { perAccountAndClient } = app.modules.passwordLimits;
    const request = app.modules.withClientAddress(new Request("http://localhost/"), client);
    const [perClientKey, accountClientKey, accountKey] = (
      await app.modules.countersOf({
        kind: "password",
        account: account.email,
        request,
        limits: app.modules.passwordLimits,
      })
    ).map((c) => c.key);
    const db = app.modules.openDb();
    const count = async (key: string | undefined) =>
      Number(
        (
          await db.query(`SELECT attempts FROM attempt_counters WHERE id = ${backend === "postgres" ? "$1" : "?"}`, [
            key,
          ])
        )[0]?.attempts ?? 0,
      );
    // Every attempt of both processes is in the client's counters, none lost between them.
    expect(await count(perClientKey)).toBe(2 * perProcess);
    expect(await count(accountClientKey)).toBe(2 * perProcess);
    // Only the attempts within the limit reached the account's own counter, and so the password check.
    expect(await count(accountKey)).toBe(perAccountAndClient.max);
    await db.close();

    // And this process, a third instance, sees their count: the right password is refused from that client.
    expect((await passwordSignIn(app, client, account.email, account.password)).signedIn).toBe(false);
    expect((await passwordSignIn(app, newClient(), account.email, account.password)).signedIn).toBe(true);
  }, 120_000);

  test("sign-in emails are capped per address and per client, each refusal answering as a sent link", async () => {
    const tokensFor = async (identifier: string) => {
      const db = app.modules.openDb();
      try {
        const rows = await db.query(
          `SELECT COUNT(*) AS n FROM verification_tokens WHERE identifier = ${backend === "postgres" ? "$1" : "?"}`,
          [identifier],
        );
        return Number(rows[0]?.n ?? 0);
      } finally {
        await db.close();
      }
    };
    const sent: string[] = [];
    const info = vi.spyOn(console, "info").mockImplementation((message: unknown) => void sent.push(String(message)));
    try {
      const { perAccount, perClient } = app.modules.emailLimits;
      const address = `flood-${backend}@example.com`;
      // One address, asked for again and again from clients that change.
      const flood: Answer[] = [];
      for (let i = 0; i < perAccount.max + 4; i++) flood.push(await emailSignIn(app, newClient(), address));
      const toAddress = sent.filter((line) => line.includes(encodeURIComponent(address)) || line.includes(address));
      expect(toAddress).toHaveLength(perAccount.max);
      for (const answer of flood) {
        expect(seen(answer)).toEqual(seen(flood[0]!));
        expect(new URL(answer.location!, "http://localhost").pathname).toMatch(/\/verify-request$/);
      }
      // A refused request stores no token either: a flood does not fill the table.
      expect(await tokensFor(address)).toBe(perAccount.max);

      // One client asking for many addresses.
      sent.length = 0;
      const client = newClient();
      const many: Answer[] = [];
      for (let i = 0; i < perClient.max + 4; i++)
        many.push(await emailSignIn(app, client, `many-${backend}-${i}@example.com`));
      expect(sent).toHaveLength(perClient.max);
      for (const answer of many) expect(seen(answer)).toEqual(seen(many[0]!));
      const stored = await Promise.all(many.map((_, i) => tokensFor(`many-${backend}-${i}@example.com`)));
      expect(stored.reduce((a, b) => a + b, 0)).toBe(perClient.max);
    } finally {
      info.mockRestore();
    }
  }, 120_000);
});
