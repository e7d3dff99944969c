/**
 * Next.js, as a new user gets it: a fresh App Router app (fixtures/apps/next,
 * pinned versions, the empty template's shape), `create-auth init --yes` and
 * no file written by hand, `next build`, `next start`, then headless Chromium
 * signs in through Auth.js's own pages. Credentials: a user added with the
 * generated `npm run auth:add-user`; email: the link from an SMTP sink with
 * database sessions, the session row read from the embedded SQLite file.
 *
 * Needs the built CLI (dist/: `npm test` builds first), /usr/bin/chromium and
 * the npm registry for the first install (cached in .cache/e2e-apps/).
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
  crossSitePasswordPost,
  freshApp,
  signInWithEmailLink,
  startNext,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";

const bin = join(root, "bin/create-auth.js");
const shared = useBrowserAndMail();

describe("Next.js: init --yes, next build, next start, sign in in Chromium", () => {
  const defer = useCleanup();

  async function init(dir: string, args: string[]) {
    const result = await execa("node", [bin, "init", "--yes", ...args], { cwd: dir, env: appEnv(), reject: false });
    expect(result.stderr).toBe("");
    expect(result.exitCode, result.stdout).toBe(0);
    return result.stdout;
  }

  /** next build with the database moved away: the build must neither create nor open it. */
  async function build(dir: string) {
    const built = await buildNextWithoutDatabase(dir, "auth.db");
    expect(built.exitCode, built.output).toBe(0);
    expect(built.createdDatabase, "next build created auth.db").toBe(false);
  }

  const start = (dir: string, env: Record<string, string> = {}) => startNext(dir, env, defer);

  test("credentials: a user from npm run auth:add-user signs in; the session names the user with its id", async () => {
    const dir = await freshApp("next", defer);
    const out = await init(dir, ["--protect", "/dashboard/:path*"]);
    expect(out).toContain("created app/api/auth/[...nextauth]/route.ts");
    expect(out).toContain("created proxy.ts");
    expect(out).toContain("Auth tables ready in auth.db");
    expect(out).toContain("http://localhost:3000/api/auth/signin");
    expect(out).toContain("/dashboard/:path*");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain("!.env.example");

    const added = await execa("npm", ["run", "--silent", "auth:add-user", "--", "alice@example.com"], {
      cwd: dir,
      env: appEnv(),
      input: "correct horse battery\n",
      reject: false,
    });
    expect(added.stderr).toBe("");
    expect(added.stdout).toBe("Added alice@example.com.");

    await build(dir);
    const server = await start(dir);
    const page = await (await shared.browser.newContext()).newPage();
    defer(() => page.context().close());

    // The proxy sends a visitor without a session to the sign-in page, and back afterwards.
    await page.goto(`${server.origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/api/auth/signin");

    const form = page.locator('form[action$="/api/auth/callback/credentials"]');
    await form.locator('input[name="email"]').fill("alice@example.com");
    await form.locator('input[name="password"]').fill("not the password");
    await form.locator("button").click();
    await page.waitForURL(/error=CredentialsSignin/);
    const refused = await page.request.get(`${server.origin}/api/auth/session`);
    expect(await refused.json()).toBeNull();
    // So is the right one from a form on another site (login CSRF).
    const credentials = { email: "alice@example.com", password: "correct horse battery" };
    expect(await crossSitePasswordPost(`${server.origin}/api/auth`, credentials)).toBeNull();

    await page.goto(`${server.origin}/api/auth/signin`);
    await form.locator('input[name="email"]').fill("alice@example.com");
    await form.locator('input[name="password"]').fill("correct horse battery");
    await form.locator("button").click();
    await page.waitForURL((url) => !url.pathname.startsWith("/api/auth/"));

    const session = (await (await page.request.get(`${server.origin}/api/auth/session`)).json()) as {
      user: { id: string; email: string };
    };
    const db = new Database(join(dir, "auth.db"), { readonly: true });
    defer(() => db.close());
    const stored = db.prepare("SELECT id FROM users WHERE email = ?").get("alice@example.com") as { id: string };
    expect(session.user).toMatchObject({ email: "alice@example.com", id: stored.id });
    // The wrong password and the cross-site post above are logged; nothing else went wrong.
    const errors = server.output().match(/\[auth\]\[error\]\S* \w+/g) ?? [];
    expect(errors.filter((e) => !/(CredentialsSignin|MissingCSRF)$/.test(e))).toEqual([]);
    expect(server.output()).not.toContain("UntrustedHost");
  }, 600_000);

  test("email with database sessions: the link from the SMTP sink signs in, the session row is in SQLite", async () => {
    const dir = await freshApp("next", defer);
    const out = await init(dir, ["--providers", "email", "--session", "database"]);
    expect(out).not.toMatch(/Fill in .*AUTH_EMAIL_FROM/);
    await build(dir);
    const server = await start(dir, { EMAIL_SERVER: shared.mail.url });
    const page = await (await shared.browser.newContext()).newPage();
    defer(() => page.context().close());

    const { session, cookie } = await signInWithEmailLink(
      page,
      `${server.origin}/api/auth`,
      shared.mail,
      "bob@example.com",
    );
    expect(session?.user?.email).toBe("bob@example.com");
    const db = new Database(join(dir, "auth.db"), { readonly: true });
    defer(() => db.close());
    const user = db.prepare("SELECT id FROM users WHERE email = ?").get("bob@example.com") as { id: string };
    expect(session?.user?.id).toBe(user.id);
    const row = db.prepare('SELECT "userId" FROM sessions WHERE "sessionToken" = ?').get(cookie) as
      | { userId: string }
      | undefined;
    expect(row?.userId).toBe(user.id);
  }, 600_000);
});
