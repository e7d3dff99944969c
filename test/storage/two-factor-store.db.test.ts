/**
 * init --two-factor totp on projects that use Prisma or Drizzle, on a real
 * database (SQLite, PostgreSQL 127.0.0.1:5432, MariaDB 127.0.0.1:3306): the two-factor models or tables are added after the auth ones,
 * the project compiles (`prisma generate`, then `tsc`), the tables come from
 * the ORM's tool (drizzle-kit) or `create-auth migrate` of the models' SQL,
 * and the generated two-factor-store.ts keeps each promise two-factor.ts
 * relies on: a secret replaced only while unconfirmed, a time step accepted
 * once (also by two requests at the same moment), a recovery code used once,
 * everything gone when it is turned off.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { inProcess, root } from "../helpers.js";
import { limiter } from "../support/limiter.js";
import { freshDatabase, ormProject, ormSteps, runIn } from "./projects.js";

const prismaEnv = {
  PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

const run = async (dir: string, command: string, args: string[], env: Record<string, string>) =>
  (await runIn(dir, command, args, env)).stdout;

/** Drives the generated store as two-factor.ts does; prints what each call answered. */
const exercise = `
import { createAdapter } from "./auth/adapter";
import { createTwoFactorStore } from "./auth/two-factor-store";

const user = await createAdapter().createUser!({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null });
const store = createTwoFactorStore();
const seen: Record<string, unknown> = {};
seen.none = await store.get(user.id);
seen.begin = await store.begin(user.id, "sealed-1");
seen.beginAgain = await store.begin(user.id, "sealed-2");
seen.pending = await store.get(user.id);
seen.enable = await store.enable(user.id, 100, ["hash-a", "hash-b"]);
seen.enableAgain = await store.enable(user.id, 101, ["hash-c"]);
seen.beginWhenOn = await store.begin(user.id, "sealed-3");
seen.on = await store.get(user.id);
seen.sameStep = await store.useStep(user.id, 100);
seen.nextStep = await store.useStep(user.id, 101);
seen.nextStepAgain = await store.useStep(user.id, 101);
seen.earlierStep = await store.useStep(user.id, 99);
seen.atOnce = await Promise.all([store.useStep(user.id, 105), store.useStep(user.id, 105)]);
seen.codes = await store.countRecoveryCodes(user.id);
seen.recovery = await store.useRecoveryCode(user.id, "hash-a");
seen.recoveryAgain = await store.useRecoveryCode(user.id, "hash-a");
seen.unknownCode = await store.useRecoveryCode(user.id, "hash-z");
seen.codesLeft = await store.countRecoveryCodes(user.id);
await store.replaceRecoveryCodes(user.id, ["hash-x", "hash-y", "hash-w"]);
seen.oldCodeAfterReplace = await store.useRecoveryCode(user.id, "hash-b");
seen.replaced = await store.countRecoveryCodes(user.id);
await store.remove(user.id);
seen.removed = await store.get(user.id);
seen.codesRemoved = await store.countRecoveryCodes(user.id);
console.log(JSON.stringify(seen));
process.exit(0);
`;

/** What each call of the exercise answers. */
const promised = {
  none: null,
  begin: true,
  // An unconfirmed secret is replaced by the next one.
  beginAgain: true,
  pending: { secret: "sealed-2", enabled: false, lastStep: null },
  enable: true,
  enableAgain: false,
  beginWhenOn: false,
  on: { secret: "sealed-2", enabled: true, lastStep: 100 },
  // The confirming code's step is used; a later one once; never an earlier one.
  sameStep: false,
  nextStep: true,
  nextStepAgain: false,
  earlierStep: false,
  atOnce: expect.arrayContaining([true, false]),
  codes: 2,
  recovery: true,
  recoveryAgain: false,
  unknownCode: false,
  codesLeft: 1,
  oldCodeAfterReplace: false,
  replaced: 3,
  removed: null,
  codesRemoved: 0,
};

const cases = [
  { fixture: "prisma-sqlite", schema: "prisma/schema.prisma" },
  { fixture: "drizzle-sqlite", schema: "src/db/schema.ts" },
  { fixture: "prisma-postgres", schema: "prisma/schema.prisma" },
  { fixture: "drizzle-postgres", schema: "src/db/schema.ts" },
  { fixture: "prisma-mysql", schema: "prisma/schema.prisma" },
  { fixture: "drizzle-mysql", schema: "src/db/schema.ts" },
];

// The SQL backends' store and the in-memory one keep the same promises (the same exercise, on a new project).
describe.each(["sqlite", "memory"])("init --two-factor totp --backend %s", (backend) => {
  const defer = useCleanup();

  test("the store keeps its promises", async () => {
    const dir = mkdtempSync(join(tmpdir(), `create-auth-2fa-${backend}-`));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
    const env = { AUTH_DATABASE_PATH: join(dir, "auth.db") };
    const init = await inProcess(
      ["init", "--yes", "--no-install", "--backend", backend, "--providers", "credentials", "--two-factor", "totp"],
      { cwd: dir, env },
    );
    expect(init.exitCode, init.stderr).toBe(0);
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    if (backend === "sqlite") {
      const migrated = await inProcess(["migrate", "auth/schema.sqlite.sql"], { cwd: dir, env });
      expect(migrated.exitCode, migrated.stderr).toBe(0);
    }
    writeFileSync(join(dir, "exercise-two-factor.ts"), exercise);
    const out = await run(dir, join(root, "node_modules/.bin/tsx"), ["exercise-two-factor.ts"], env);
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual(promised);
  }, 120_000);
});

/**
 * The six projects side by side, three at a time: each has its own folder and database, and a run is
 * mostly waiting on the processes it starts (Prisma, tsc, drizzle-kit, tsx) and the database.
 */
const inSlot = limiter(3);

describe.concurrent.each(cases)("init --two-factor totp on $fixture", ({ fixture }) => {
  const defer = useCleanup();
  const orm = fixture.split("-")[0]!;

  test(
    "adds the two-factor models, compiles, makes the tables, and the store keeps its promises",
    ({ expect }) =>
      inSlot(async () => {
        const dir = await ormProject(fixture, defer);
        const database = fixture.endsWith("postgres") ? "postgres" : fixture.endsWith("mysql") ? "mariadb" : "sqlite";
        const url = await freshDatabase(database, orm, defer);
        const env = { ...prismaEnv, DATABASE_URL: url };
        const init = await inProcess(
          ["init", "--yes", "--no-install", "--providers", "credentials", "--two-factor", "totp"],
          { cwd: dir, env },
        );
        expect(init.stderr).toBe("");
        expect(init.exitCode, init.stdout).toBe(0);
        const store = readFileSync(join(dir, "auth/two-factor-store.ts"), "utf8");
        expect(store).toContain(
          orm === "prisma" ? "client.twoFactor.updateMany" : "database\n        .update(secrets)",
        );

        if (orm === "prisma")
          expect(readFileSync(join(dir, "prisma/schema.prisma"), "utf8")).toMatch(/model TwoFactorRecoveryCode \{/);
        await ormSteps(dir, orm, env);

        writeFileSync(join(dir, "exercise-two-factor.ts"), exercise);
        const out = await run(dir, join(root, "node_modules/.bin/tsx"), ["exercise-two-factor.ts"], env);
        expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual(promised);
        // Its own four minutes, after up to two others' turns before it.
      }),
    720_000,
  );
});
