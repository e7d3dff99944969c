/**
 * Next.js with Prisma on SQLite, as a new user gets it: a fresh App Router
 * app, `create-auth init --yes --orm prisma` (which installs, then runs
 * `prisma generate`), the auth tables from `create-auth migrate` (Prisma's
 * migration engine cannot be fetched here), `next build`, `next start`, and
 * an email sign-in in Chromium with database sessions: the link from an
 * SMTP sink, the session row read from the SQLite file Prisma writes.
 *
 * Needs the built CLI, /usr/bin/chromium and the npm registry for the first
 * install (cached in .cache/e2e-apps/).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import {
  appEnv,
  buildNextWithoutDatabase,
  freshApp,
  signInWithEmailLink,
  startNext,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";

const bin = join(root, "bin/create-auth.js");
// prisma generate needs no engine for the prisma-client generator, but the CLI looks for one and would download it.
const prismaEnv = { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, CHECKPOINT_DISABLE: "1" };
const shared = useBrowserAndMail();
describe("Next.js + Prisma on SQLite: init, build, start, sign in by email in Chromium", () => {
  const defer = useCleanup();

  test("the link from the SMTP sink signs in; the user and the session are Prisma's rows", async () => {
    const dir = await freshApp("next", defer, [
      "prisma",
      "@prisma/client",
      "@prisma/adapter-better-sqlite3",
      "@auth/prisma-adapter",
    ]);
    const init = await execa(
      "node",
      [bin, "init", "--yes", "--orm", "prisma", "--providers", "email", "--session", "database"],
      { cwd: dir, env: appEnv(prismaEnv), reject: false },
    );
    expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
    expect(init.stdout).toContain("created prisma/schema.prisma");
    expect(init.stdout).toContain("Ran prisma generate.");
    expect(init.stdout).toContain("npx prisma migrate dev --name auth");

    // In .env, where Prisma keeps it and where Next.js, the client's loader and migrate read it too.
    expect(readFileSync(join(dir, ".env"), "utf8")).toMatch(/^DATABASE_URL=file:\.\/dev\.db$/m);
    expect(readFileSync(join(dir, ".env.local"), "utf8")).not.toMatch(/DATABASE_URL/);
    const tables = await execa("node", [bin, "migrate"], { cwd: dir, env: appEnv(), reject: false });
    expect(tables.exitCode, tables.stderr).toBe(0);
    expect(tables.stdout).toMatch(/^Auth tables ready in dev\.db/);

    // As from a shell (no NODE_ENV=test, under which Next.js skips .env.local), and without the database file:
    // the build must neither need nor create it.
    const built = await buildNextWithoutDatabase(dir, "dev.db");
    expect(built.createdDatabase, "next build created dev.db").toBe(false);
    expect(built.exitCode, built.output).toBe(0);
    const server = await startNext(dir, { EMAIL_SERVER: shared.mail.url }, defer);
    const page = await (await shared.browser.newContext()).newPage();
    defer(() => page.context().close());

    const { session, cookie } = await signInWithEmailLink(
      page,
      `${server.origin}/api/auth`,
      shared.mail,
      "carol@example.com",
    );
    expect(session?.user?.email).toBe("carol@example.com");
    const db = new Database(join(dir, "dev.db"), { readonly: true });
    defer(() => db.close());
    const user = db.prepare('SELECT id FROM "User" WHERE email = ?').get("carol@example.com") as { id: string };
    expect(session?.user?.id).toBe(user.id);
    const row = db.prepare('SELECT "userId" FROM "Session" WHERE "sessionToken" = ?').get(cookie) as
      | { userId: string }
      | undefined;
    expect(row?.userId).toBe(user.id);
    // The used link is gone: the token row was deleted when it signed in.
    expect(db.prepare('SELECT COUNT(*) AS n FROM "VerificationToken"').get()).toEqual({ n: 0 });
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 900_000);
});
