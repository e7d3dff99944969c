/**
 * The generated passwords.ts checks an unknown email against a decoy hash, so
 * that it costs what a wrong password costs: one scrypt run, from the very
 * first such check of the process (the decoy itself is made without hashing).
 * Measured in CPU time, which other work on the machine disturbs least.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { renderTemplate } from "../../src/render/templates.js";
import { sqlDialectContext } from "../../src/storage/sql/schema.js";
import { writeModule } from "../e2e/provider-module.js";
import { root, tempDir } from "../helpers.js";

type Verify = (email: string, password: string, db?: unknown) => Promise<unknown>;

/** CPU milliseconds of `work` (every thread of the process: scrypt runs in libuv's pool). */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

it("the first check of an unknown email costs one scrypt run, like a wrong password", async () => {
  const dir = tempDir("create-auth-decoy-");
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const context = { ...sqlDialectContext("sqlite"), ext: ".js", sql: true };
  writeModule(dir, "auth/passwords.ts", await renderTemplate("adapters/passwords.ts.hbs", context));
  // passwords.ts imports openDb from db.ts, which the check given its own `db` never calls.
  writeModule(dir, "auth/db.ts", 'export const openDb = () => { throw new Error("not used here"); };\n');
  const { hashPassword, verifyUserPassword } = (await import(pathToFileURL(join(dir, "auth/passwords.js")).href)) as {
    hashPassword(password: string): Promise<string>;
    verifyUserPassword: Verify;
  };
  // The database as far as the check reads it: one user, with a password.
  const stored = await hashPassword("the password");
  const db = {
    findOne: async (_table: string, where: { email: string }) =>
      where.email === "ada@example.com"
        ? { id: "1", email: "ada@example.com", name: null, passwordHash: stored }
        : null,
  };
  const first = await cpuMs(() => verifyUserPassword("nobody@example.com", "a guess", db));
  const wrong: number[] = [];
  for (let i = 0; i < 3; i++) wrong.push(await cpuMs(() => verifyUserPassword("ada@example.com", `guess ${i}`, db)));
  const typical = [...wrong].sort((a, b) => a - b)[1]!;
  expect(typical).toBeGreaterThan(10);
  expect(first).toBeLessThan(1.5 * typical);
});
