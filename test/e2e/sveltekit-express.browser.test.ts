/**
 * SvelteKit and Express, as new users get them: a fresh app of
 * fixtures/apps/, `create-auth init --yes` and no file written by hand, the
 * app built and started as in production (SvelteKit: vite build + vite
 * preview; Express: the generated server.ts with `npm start`), then headless
 * Chromium signs in with a password added by the generated
 * `npm run auth:add-user`. The PostgreSQL case runs Express against a
 * database of its own: init, `npm run db:migrate` twice, sign-in.
 *
 * Needs the built CLI (dist/), /usr/bin/chromium, PostgreSQL on
 * 127.0.0.1:5432 and the npm registry for the first install (cached).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { execa } from "execa";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import {
  addUser,
  appEnv,
  crossSitePasswordPost,
  freePort,
  freshApp,
  launchChromium,
  runBuild,
  sessionOf,
  signInWithPassword,
  startServer,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";

const bin = join(root, "bin/create-auth.js");
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function init(dir: string, args: string[] = [], env: Record<string, string> = {}) {
  const result = await execa("node", [bin, "init", "--yes", ...args], { cwd: dir, env: appEnv(env), reject: false });
  expect(result.stderr).toBe("");
  expect(result.exitCode, result.stdout).toBe(0);
  return result.stdout;
}

const user = { email: "carol@example.com", password: "a long enough password" };

/** Every .ts file of the app, generated ones included, type-checks with the app's own tsconfig and TypeScript. */
async function typecheck(dir: string) {
  const result = await execa("node", [join(dir, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", dir], {
    cwd: dir,
    reject: false,
    all: true,
  });
  expect(result.all).toBe("");
  expect(result.exitCode).toBe(0);
}

describe("framework apps: init --yes, build, start, sign in in Chromium", () => {
  const defer = useCleanup();

  async function newPage() {
    const context = await browser.newContext();
    defer(() => context.close());
    return context.newPage();
  }

  /** `output`: the server's, which shows whether the sign-ins reached the throttle with the client's address. */
  async function expectSignedIn(
    page: Awaited<ReturnType<typeof newPage>>,
    auth: string,
    id: string,
    output: () => string,
  ) {
    const wrong = await newPage();
    await signInWithPassword(wrong, auth, { ...user, password: "not it at all" });
    expect(await sessionOf(wrong, auth)).toBeNull();
    // A form on another site posting the right password signs nobody in (login CSRF).
    expect(await crossSitePasswordPost(auth, user)).toBeNull();
    await signInWithPassword(page, auth, user);
    expect((await sessionOf(page, auth))?.user).toMatchObject({ email: user.email, id });
    expect(output()).not.toContain("sign-in throttle: a request reached Auth.js without the client's address");
  }

  const sqliteUserId = (dir: string) => {
    const db = new Database(join(dir, "auth.db"), { readonly: true });
    try {
      return (db.prepare("SELECT id FROM users WHERE email = ?").get(user.email) as { id: string }).id;
    } finally {
      db.close();
    }
  };

  test("SvelteKit: hooks and the auth module under src/lib/server; vite build + preview; credentials sign-in", async () => {
    const dir = await freshApp("sveltekit", defer);
    const out = await init(dir);
    expect(out).toContain("created src/hooks.server.ts");
    expect(out).toContain("created src/lib/server/auth.ts");
    expect(out).toContain("created src/lib/server/auth/adapter.ts");
    expect(out).toContain("http://localhost:5173/auth/signin");
    await addUser(dir, user.email, user.password);

    const vite = join(dir, "node_modules/vite/bin/vite.js");
    const built = await runBuild(dir, ["node", vite, "build"], appEnv());
    expect(built.exitCode, built.all).toBe(0);
    // The build wrote .svelte-kit/tsconfig.json ($lib, $env types), which the app's tsconfig extends.
    await typecheck(dir);
    const port = await freePort();
    const server = await startServer(["node", vite, "preview", "--port", String(port), "--strictPort"], {
      cwd: dir,
      port,
      env: appEnv(),
    });
    defer(() => server.stop());
    await expectSignedIn(await newPage(), `${server.origin}/auth`, sqliteUserId(dir), server.output);
  }, 600_000);

  test("Express: a runnable server.ts with Auth.js at /auth, .env.local loaded; credentials sign-in", async () => {
    const dir = await freshApp("express", defer);
    const out = await init(dir);
    expect(out).toContain("created server.ts");
    expect(out).toContain("http://localhost:3000/auth/signin");
    expect(readFileSync(join(dir, "server.ts"), "utf8")).toContain("app.use(authRoutes);");
    expect(readFileSync(join(dir, "auth/express.ts"), "utf8")).toContain(
      'authRoutes.use("/auth", ExpressAuth(authConfig));',
    );
    await typecheck(dir);
    await addUser(dir, user.email, user.password);

    const port = await freePort();
    // Production mode: trusting the host then comes from AUTH_TRUST_HOST in .env.local, as on a real server.
    const server = await startServer(["npm", "start"], { cwd: dir, port, env: appEnv({ NODE_ENV: "production" }) });
    defer(() => server.stop());
    await expectSignedIn(await newPage(), `${server.origin}/auth`, sqliteUserId(dir), server.output);
    const page = await newPage();
    await signInWithPassword(page, `${server.origin}/auth`, user);
    await page.goto(server.origin);
    expect(await page.textContent("body")).toContain(`Signed in as ${user.email}`);
  }, 600_000);

  test("PostgreSQL: init --backend postgres, npm run db:migrate twice, sign-in (Express)", async () => {
    const base = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
    const name = `create_auth_e2e_${randomBytes(5).toString("hex")}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    defer(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const env = { DATABASE_URL: Object.assign(new URL(base), { pathname: `/${name}` }).href };

    const dir = await freshApp("express", defer);
    const out = await init(dir, ["--backend", "postgres"], env);
    expect(out).toContain("then create the auth tables (safe to repeat): npm run db:migrate");
    expect(existsSync(join(dir, "auth.db"))).toBe(false);
    for (let run = 0; run < 2; run++) {
      const migrated = await execa("npm", ["run", "--silent", "db:migrate"], {
        cwd: dir,
        env: appEnv(env),
        reject: false,
      });
      expect(migrated.stderr).toBe("");
      expect(migrated.stdout).toContain(`Auth tables ready in 127.0.0.1:5432/${name}`);
    }
    await addUser(dir, user.email, user.password, env);
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query("SELECT id FROM users WHERE email = $1", [user.email]);
    await client.end();

    const port = await freePort();
    const server = await startServer(["npm", "start"], { cwd: dir, port, env: appEnv(env) });
    defer(() => server.stop());
    await expectSignedIn(await newPage(), `${server.origin}/auth`, rows[0].id, server.output);
  }, 600_000);
});
