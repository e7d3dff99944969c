/**
 * `create-auth upgrade` on four of the hand-written next-auth v4 apps of
 * fixtures/upgrade/, end to end: each app is started on v4 (built once per
 * fixture, see upgrade-apps.ts) and a person signs in with Chromium through
 * its own pages; then `create-auth upgrade` (its real install of next-auth
 * 5), `tsc` (under the app's tsconfig, and without its target), `next build`,
 * `next start` on v5, and the same browser, with
 * the cookies it had, is still signed in as the same user; pages the
 * middleware protected stay protected; a new visitor signs in through the
 * same pages; and every file the upgrade had no reason to touch is byte for
 * byte as it was.
 *
 * Needs the built CLI, /usr/bin/chromium and the npm registry the first time
 * (the apps and next-auth 5 are cached in .cache/ and npm's cache).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { execa } from "execa";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import { expectedFiles, filesUnder, readExpected } from "../upgrade/cases.js";
import {
  appEnv,
  buildNext,
  freePort,
  nextBin,
  type RunningServer,
  signInWithEmailLink,
  signInWithPassword,
  startServer,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { freshV4App, prismaEnv } from "./upgrade-apps.js";

const bin = join(root, "bin/create-auth.js");
const shared = useBrowserAndMail();

describe("upgrade: v4 apps signed in, upgraded, still signed in", () => {
  const defer = useCleanup();

  /** Seconds each step of the running test took; printed after it, as the framework tests print theirs. */
  let timings: Record<string, number> = {};
  async function timed<T>(step: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      timings[step] = Math.round((timings[step] ?? 0) * 10 + (performance.now() - started) / 100) / 10;
    }
  }
  afterEach(({ task }) => {
    console.log(`[upgrade] ${task.name.split(":")[0]}: ${JSON.stringify(timings)} s`);
    timings = {};
  });

  /** A case's app, built on v4, on a known port: the env file's NEXTAUTH_URL names it, as the user's would. */
  async function prepare(name: string, envFile: string) {
    const dir = await timed("copy", () => freshV4App(name, defer, { built: true }));
    const port = await freePort();
    const path = join(dir, envFile);
    writeFileSync(path, readFileSync(path, "utf8").replace("http://localhost:3000", `http://localhost:${port}`));
    return { dir, port, origin: `http://localhost:${port}` };
  }

  async function build(dir: string) {
    const built = await timed("v5 build", () => buildNext(dir, prismaEnv));
    expect(built.exitCode, built.all).toBe(0);
  }

  async function start(dir: string, port: number, env: Record<string, string> = {}): Promise<RunningServer> {
    const server = await timed("start", () =>
      startServer(["node", nextBin(dir), "start", "-p", String(port)], { cwd: dir, port, env: appEnv(env) }),
    );
    defer(() => server.stop());
    return server;
  }

  async function newPage(cookies: Awaited<ReturnType<BrowserContext["cookies"]>> = []): Promise<Page> {
    const context = await shared.browser.newContext();
    defer(() => context.close());
    if (cookies.length) await context.addCookies(cookies);
    return context.newPage();
  }

  /**
   * Runs the upgrade as a user does (the built CLI, its own npm install), then checks the files: those the
   * plan-level case expects are as expected, the ones it removes are gone, every other file is unchanged.
   */
  /**
   * tsc's errors under the app's tsconfig without its target (ES5: the setting of test/support/tsconfig-matrix.ts
   * the upgrade once broke; the others are checked on the generated files in the typecheck layer), each as
   * "file: TScode message", lines left out: the app's own code may have errors there already, so what counts
   * is what the upgrade adds.
   */
  async function errorsWithoutTarget(dir: string): Promise<Set<string>> {
    const own = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    const { target: _target, ...compilerOptions } = own.compilerOptions;
    writeFileSync(join(dir, "tsconfig.matrix.json"), JSON.stringify({ ...own, compilerOptions }));
    const tsc = await timed("tsc", () =>
      execa("node", [join(dir, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "tsconfig.matrix.json"], {
        cwd: dir,
        reject: false,
        all: true,
      }),
    );
    rmSync(join(dir, "tsconfig.matrix.json"));
    return new Set(
      String(tsc.all ?? "")
        .split("\n")
        .filter((line) => /^\S.*: error TS\d+/.test(line))
        .map((line) => line.replace(/\(\d+,\d+\): error /, ": ")),
    );
  }

  async function upgrade(name: string, dir: string) {
    const before = new Map(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
    const typescript = existsSync(join(dir, "tsconfig.json"));
    const baseline = typescript ? await errorsWithoutTarget(dir) : new Set<string>();
    const result = await timed("upgrade", () =>
      execa("node", [bin, "upgrade"], { cwd: dir, env: appEnv(), extendEnv: false, reject: false }),
    );
    expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Installed with npm\./);
    const expected = expectedFiles(name);
    const { removed } = readExpected(name);
    const env = /^\.env/;
    for (const file of filesUnder(dir)) {
      if (file === "package-lock.json" || file.endsWith(".tsbuildinfo")) continue;
      const text = readFileSync(join(dir, file), "utf8");
      // The env files hold this run's port: the rest of them is checked against the case.
      if (expected.has(file) && !env.test(file)) expect(text, file).toBe(expected.get(file));
      else if (expected.has(file)) expect(text).toMatch(/^AUTH_URL=http:\/\/localhost:\d+$/m);
      else expect(text, `${file} changed`).toBe(before.get(file));
    }
    for (const file of removed) expect(existsSync(join(dir, file)), file).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "node_modules/next-auth/package.json"), "utf8")).version).toBe(
      "5.0.0-beta.32",
    );
    // tsc on the upgraded code (TypeScript apps), before the v5 build writes its own types.
    rmSync(join(dir, ".next"), { recursive: true, force: true });
    if (typescript) {
      const tsc = await timed("tsc", () =>
        execa("node", [join(dir, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", dir], {
          cwd: dir,
          reject: false,
          all: true,
        }),
      );
      expect(tsc.exitCode, tsc.all).toBe(0);
      // And without a target, as other projects have it: the upgrade brings no error the v4 app did not have.
      const added = [...(await errorsWithoutTarget(dir))].filter((e) => !baseline.has(e));
      expect(added, "tsc without a target").toEqual([]);
    }
    return result.stdout;
  }

  test("Pages Router, GitHub + Credentials, getServerSideProps, withAuth: the JWT session survives, /admin stays protected", async () => {
    const { dir, port, origin } = await prepare("pages-github-credentials", ".env.local");
    let server = await start(dir, port);
    const page = await newPage();
    await signInWithPassword(page, `${origin}/api/auth`, {
      email: "alice@example.com",
      password: "correct horse battery",
    });
    await page.goto(`${origin}/dashboard`);
    await expect(page.locator("#who").textContent()).resolves.toBe("Signed in as alice@example.com (member)");
    const v4Me = await (await page.request.get(`${origin}/api/me`)).json();
    expect(v4Me).toMatchObject({ id: "u-alice", email: "alice@example.com" });
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toContain("next-auth.session-token");
    await server.stop();

    const out = await upgrade("pages-github-credentials", dir);
    expect(out).toMatch(/^removed pages\/api\/auth\/\[\.\.\.nextauth\]\.ts$/m);
    await build(dir);
    server = await start(dir, port);

    // The same browser, with v4's cookie: still Alice, on the page, in the API route and past the middleware.
    const kept = await newPage(cookies);
    await kept.goto(`${origin}/dashboard`);
    await expect(kept.locator("#who").textContent()).resolves.toBe("Signed in as alice@example.com (member)");
    expect(await (await kept.request.get(`${origin}/api/me`)).json()).toEqual(v4Me);
    const admin = await kept.goto(`${origin}/admin`);
    expect(new URL(kept.url()).pathname).toBe("/admin");
    expect(admin?.headers()["cache-control"]).toBe("private, no-store");

    // A visitor without a session is sent to sign in, as withAuth did, and comes back after signing in.
    const visitor = await newPage();
    await visitor.goto(`${origin}/admin`);
    expect(new URL(visitor.url()).pathname).toBe("/api/auth/signin");
    expect(new URL(visitor.url()).searchParams.get("callbackUrl")).toMatch(/\/admin$/);
    await signInWithPassword(visitor, `${origin}/api/auth`, {
      email: "root@admin.example",
      password: "staple battery horse",
    });
    await visitor.goto(`${origin}/dashboard`);
    await expect(visitor.locator("#who").textContent()).resolves.toBe("Signed in as root@admin.example (admin)");
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 900_000);

  test("App Router, Prisma adapter, database sessions: the session row still signs the user in", async () => {
    const { dir, port, origin } = await prepare("app-prisma-database", ".env.local");
    // The Prisma client was generated before the v4 build. The project's own migration, applied as
    // `prisma migrate deploy` would (its engine cannot be fetched here).
    const db = new Database(join(dir, "dev.db"));
    db.exec(readFileSync(join(dir, "prisma/migrations/20250101000000_init/migration.sql"), "utf8"));
    db.close();
    let server = await start(dir, port, { EMAIL_SERVER: shared.mail.url });
    const page = await newPage();
    await signInWithEmailLink(page, `${origin}/api/auth`, shared.mail, "carol@example.com");
    await page.goto(origin);
    await expect(page.locator("#who").textContent()).resolves.toBe("Signed in as carol@example.com");
    const cookies = await page.context().cookies();
    const token = cookies.find((c) => c.name === "next-auth.session-token")?.value;
    expect(token).toBeTruthy();
    await server.stop();

    const out = await upgrade("app-prisma-database", dir);
    expect(out).toMatch(/@next-auth\/prisma-adapter is now @auth\/prisma-adapter/);
    expect(existsSync(join(dir, "node_modules/@auth/prisma-adapter"))).toBe(true);
    expect(existsSync(join(dir, "node_modules/@next-auth/prisma-adapter"))).toBe(false);
    await build(dir);
    server = await start(dir, port, { EMAIL_SERVER: shared.mail.url });

    const kept = await newPage(cookies);
    await kept.goto(origin);
    await expect(kept.locator("#who").textContent()).resolves.toBe("Signed in as carol@example.com");
    const rows = new Database(join(dir, "dev.db"), { readonly: true });
    defer(() => rows.close());
    expect(rows.prepare('SELECT COUNT(*) AS n FROM "Session" WHERE "sessionToken" = ?').get(token)).toEqual({ n: 1 });

    const visitor = await newPage();
    const { session } = await signInWithEmailLink(visitor, `${origin}/api/auth`, shared.mail, "dan@example.com");
    expect(session?.user?.email).toBe("dan@example.com");
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 900_000);

  test("JavaScript, Email provider, custom callbacks and sign-in page: the JWT survives, the custom page still signs in", async () => {
    const { dir, port, origin } = await prepare("js-email-custom-pages", ".env.local");
    let server = await start(dir, port, { EMAIL_SERVER: shared.mail.url });
    const signIn = async (page: Page, email: string) => {
      // Through /api/auth/signin, which sends to the custom page (and sets the CSRF cookie v4 needs there).
      await page.goto(`${origin}/api/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/profile`)}`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.locator('input[name="email"]').fill(email);
      await page.locator("button").click();
      await page.waitForURL(/\/check-email/);
      const { linkIn } = await import("./apps.js");
      await page.goto(linkIn((await shared.mail.next(email)).text, origin));
      await page.waitForURL((url) => url.pathname === "/profile");
    };
    const page = await newPage();
    await signIn(page, "erin@example.com");
    await expect(page.locator("#who").textContent()).resolves.toBe("Signed in as erin@example.com on the free plan");
    // The signIn callback still decides who may sign in.
    const refused = await newPage();
    await refused.goto(`${origin}/api/auth/signin`);
    await refused.locator('input[name="email"]').fill("mallory@other.example");
    await refused.locator("button").click();
    await refused.waitForURL(/error=AccessDenied/);
    const cookies = await page.context().cookies();
    await server.stop();

    await upgrade("js-email-custom-pages", dir);
    await build(dir);
    server = await start(dir, port, { EMAIL_SERVER: shared.mail.url });

    const kept = await newPage(cookies);
    await kept.goto(`${origin}/profile`);
    await expect(kept.locator("#who").textContent()).resolves.toBe("Signed in as erin@example.com on the free plan");
    const visitor = await newPage();
    await signIn(visitor, "frank@example.com");
    await expect(visitor.locator("#who").textContent()).resolves.toBe(
      "Signed in as frank@example.com on the free plan",
    );
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 900_000);

  test("a hand-written adapter object and jwt.secret: tokens made with jwt.secret are read before and after", async () => {
    const { dir, port, origin } = await prepare("custom-adapter-jwt-secret", ".env");
    let server = await start(dir, port);
    const signIn = async (page: Page) => {
      await page.goto(`${origin}/api/auth/signin`);
      const form = page.locator('form[action$="/api/auth/callback/credentials"]');
      await form.locator('input[name="username"]').fill("dana");
      await form.locator('input[name="password"]').fill("open sesame");
      await form.locator("button").click();
      await page.waitForURL((url) => !url.pathname.startsWith("/api/auth"));
      await page.goto(`${origin}/account`);
    };
    const page = await newPage();
    await signIn(page);
    await expect(page.locator("#who").textContent()).resolves.toBe("Signed in as Dana");
    const cookies = await page.context().cookies();
    await server.stop();

    await upgrade("custom-adapter-jwt-secret", dir);
    await build(dir);
    server = await start(dir, port);

    const kept = await newPage(cookies);
    await kept.goto(`${origin}/account`);
    await expect(kept.locator("#who").textContent()).resolves.toBe("Signed in as Dana");
    // v5 re-issued the cookie in its own format, under v4's name, encrypted with jwt.secret: still read.
    const renewed = (await kept.context().cookies()).find((c) => c.name === "next-auth.session-token")?.value;
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(cookies.find((c) => c.name === "next-auth.session-token")?.value);
    await kept.goto(`${origin}/account`);
    await expect(kept.locator("#who").textContent()).resolves.toBe("Signed in as Dana");
    const visitor = await newPage();
    await visitor.goto(`${origin}/account`);
    expect(new URL(visitor.url()).pathname).toBe("/api/auth/signin");
    await signIn(visitor);
    await expect(visitor.locator("#who").textContent()).resolves.toBe("Signed in as Dana");
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 900_000);
});
