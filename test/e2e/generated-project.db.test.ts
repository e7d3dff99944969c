/**
 * What `create-auth init` writes signs a user in for real: the built CLI
 * generates a project into a temp dir, the generated auth.ts (config, provider
 * module, SQLite adapter, db module) is loaded with tsx exactly as written,
 * its schema applied by the generated auth/verify-adapter.ts setup(), and
 * @auth/core's Auth() is driven like a browser (browser.ts). What the sign-in
 * stored is then read straight from the SQLite file with better-sqlite3.
 *
 * Only two things are added around the generated config, as a framework
 * integration would: basePath/trustHost, and a logger. The email provider's
 * sendVerificationRequest is wrapped to capture the link (the test mailer);
 * the generated function still runs. Password users are added with the
 * generated auth:add-user script.
 *
 * Needs the built CLI (dist/): `npm test` builds first.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Auth, type AuthConfig } from "@auth/core";
import type { EmailConfig } from "@auth/core/providers";
import Database from "better-sqlite3";
import { execa } from "execa";
import { tsImport } from "tsx/esm/api";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { AFTER_SIGN_IN, APP_ORIGIN, BASE_PATH, SESSION_COOKIE } from "./auth-harness.js";
import { Browser } from "./browser.js";
import { FLOW_TIMEOUT, useCleanup } from "./cleanup.js";
import { withEnv } from "./provider-module.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(projectRoot, "bin/create-auth.js");

/** `create-auth init <args>` with the built CLI into a fresh temp dir, as in CI (no prompts). */
async function generate(args: string[]): Promise<{ dir: string; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), "create-auth-generated-"));
  const result = await execa("node", [bin, "init", ...args], { cwd: dir, env: { CI: "true" }, reject: false });
  if (result.exitCode !== 0)
    throw new Error(`init ${args.join(" ")} exited ${result.exitCode}:\n${result.stdout}\n${result.stderr}`);
  return { dir, stdout: result.stdout };
}

/** A private copy of a generated project (tests edit files and own their database), resolving packages from this repo. */
function copyProject(template: string, defer: (fn: () => unknown) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "create-auth-app-"));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(template, dir, { recursive: true });
  symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** KEY=value lines of a dotenv file (no quoting is generated). */
function readDotenv(path: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) vars[match[1]!] = match[2]!;
  }
  return vars;
}

interface App {
  dir: string;
  dbPath: string;
  secret: string;
  /** The generated `authConfig` as auth.ts exports it. */
  generatedConfig: AuthConfig;
  errors: string[];
  /** Auth() over the generated config, as a framework would mount it at /api/auth. */
  handle(request: Request): Promise<Response>;
  db(): Database.Database;
}

/**
 * The env the generated code reads (AUTH_SECRET from the generated .env.local,
 * AUTH_DATABASE_PATH a temp file), the schema applied by the generated
 * verify module's setup(), then auth.ts loaded with tsx.
 */
async function loadApp(
  dir: string,
  defer: (fn: () => unknown) => void,
  adjust: (config: AuthConfig) => AuthConfig = (c) => c,
): Promise<App> {
  const envLocal = readDotenv(join(dir, ".env.local"));
  const secret = envLocal.AUTH_SECRET ?? "";
  const dbPath = join(dir, "e2e-auth.db");
  defer(withEnv({ AUTH_SECRET: secret, AUTH_DATABASE_PATH: dbPath }));

  const verify = (await tsImport(pathToFileURL(join(dir, "auth/verify-adapter.ts")).href, import.meta.url)) as {
    setup(): Promise<void>;
    teardown(): Promise<void>;
  };
  await verify.setup();
  await verify.teardown();

  const { authConfig } = (await tsImport(pathToFileURL(join(dir, "auth.ts")).href, import.meta.url)) as {
    authConfig: AuthConfig;
  };
  const errors: string[] = [];
  const config: AuthConfig = adjust({
    ...authConfig,
    // What @auth/nextjs & co. add: where Auth() is mounted, and that the host header is trusted.
    basePath: BASE_PATH,
    trustHost: true,
    logger: { error: (error) => void errors.push(`${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
  });
  const opened: Database.Database[] = [];
  defer(() => {
    for (const db of opened) db.close();
  });
  return {
    dir,
    dbPath,
    secret,
    generatedConfig: authConfig,
    errors,
    handle: (request) => Auth(request, config),
    db: () => {
      const db = new Database(dbPath, { readonly: true });
      opened.push(db);
      return db;
    },
  };
}

const newBrowser = (app: App) => new Browser({ origin: APP_ORIGIN, handle: app.handle });

async function csrfToken(browser: Browser): Promise<string> {
  const response = await browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

async function session(browser: Browser): Promise<{ user?: { email?: string; name?: string; id?: string } } | null> {
  const response = await browser.request(`${APP_ORIGIN}${BASE_PATH}/session`);
  expect(response.status).toBe(200);
  return (await response.json()) as { user?: { email?: string; name?: string; id?: string } } | null;
}

const generatedSecret = (secret: string) => {
  // .env.local: 32 random bytes, base64.
  expect(secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  expect(Buffer.from(secret, "base64")).toHaveLength(32);
};

describe("generated project (sqlite, database sessions, email provider) through Auth()", () => {
  const defer = useCleanup();
  let template: string;

  beforeAll(async () => {
    template = (await generate(["--yes", "--no-install", "--providers", "email", "--session", "database"])).dir;
  }, 60_000);
  afterAll(() => rmSync(template, { recursive: true, force: true }));

  test(
    "the emailed link signs the user in once: user with emailVerified, token consumed, session row = cookie",
    async () => {
      const dir = copyProject(template, defer);
      const sent: { identifier: string; url: string }[] = [];
      // The generated sendSignInLink() prints the link outside production; keep the test output clean.
      const info = vi.spyOn(console, "info").mockImplementation(() => {});
      defer(() => info.mockRestore());

      const app = await loadApp(dir, defer, (config) => ({
        ...config,
        providers: config.providers.map((provider) => {
          const email = provider as EmailConfig;
          if (email.type !== "email") return provider;
          // The test mailer: records the link, then lets the generated sendVerificationRequest run.
          return {
            ...email,
            sendVerificationRequest: async (params) => {
              sent.push({ identifier: params.identifier, url: params.url });
              await email.sendVerificationRequest(params);
            },
          } satisfies EmailConfig;
        }),
      }));
      generatedSecret(app.secret);
      expect(app.generatedConfig.secret).toBe(app.secret);
      expect(app.generatedConfig.session?.strategy).toBe("database");

      const address = "ada@example.com";
      const browser = newBrowser(app);
      const signin = await browser.request(`${APP_ORIGIN}${BASE_PATH}/signin/email`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken: await csrfToken(browser), email: address, callbackUrl: AFTER_SIGN_IN }),
      });
      expect(signin.status, `${browser.trace()}\n${app.errors.join("\n")}`).toBe(302);
      expect(new URL(signin.headers.get("location")!).pathname).toBe(`${BASE_PATH}/verify-request`);

      // Exactly one mail, to the address, with a callback link carrying token and email.
      expect(sent).toHaveLength(1);
      expect(sent[0]!.identifier).toBe(address);
      const link = new URL(sent[0]!.url);
      expect(`${link.origin}${link.pathname}`).toBe(`${APP_ORIGIN}${BASE_PATH}/callback/email`);
      expect(link.searchParams.get("email")).toBe(address);
      const token = link.searchParams.get("token")!;
      expect(token).toEqual(expect.any(String));
      // The generated sendSignInLink() ran too (its development fallback prints the link).
      expect(info).toHaveBeenCalledWith(expect.stringContaining(link.href));

      // Pending token in the database: stored hashed with the secret (§5.4), never the raw token; 24 h by default.
      const pending = app.db().prepare("SELECT * FROM verification_tokens").all() as {
        identifier: string;
        token: string;
        expires: number;
      }[];
      expect(pending).toEqual([
        {
          identifier: address,
          token: createHash("sha256").update(`${token}${app.secret}`).digest("hex"),
          expires: expect.any(Number),
        },
      ]);
      expect(Math.abs(pending[0]!.expires - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);

      // Click the link.
      const before = Date.now();
      const callback = await browser.request(link);
      expect(callback.status, `${browser.trace()}\n${app.errors.join("\n")}`).toBe(302);
      expect(callback.headers.get("location")).toBe(AFTER_SIGN_IN);
      const cookie = browser.cookies(APP_ORIGIN)[SESSION_COOKIE];
      expect(cookie, browser.trace()).toEqual(expect.any(String));
      expect(app.errors).toEqual([]);

      // What the generated adapter stored, read from the SQLite file itself.
      const db = app.db();
      const users = db.prepare("SELECT * FROM users").all() as {
        id: string;
        email: string;
        emailVerified: number | null;
      }[];
      expect(users).toHaveLength(1);
      const user = users[0]!;
      expect(user.email).toBe(address);
      // §3: emailVerified set at the first email sign-in, a real date (epoch ms) near now.
      expect(user.emailVerified).toEqual(expect.any(Number));
      expect(user.emailVerified!).toBeGreaterThanOrEqual(before - 5_000);
      expect(user.emailVerified!).toBeLessThanOrEqual(Date.now() + 1_000);
      // §3: the token is consumed.
      expect(db.prepare("SELECT * FROM verification_tokens").all()).toEqual([]);
      // §5.5: the database session is the cookie's random token, for this user, expiring in the future (30 days by default).
      const sessions = db.prepare('SELECT "sessionToken", "userId", expires FROM sessions').all() as {
        sessionToken: string;
        userId: string;
        expires: number;
      }[];
      expect(sessions).toEqual([{ sessionToken: cookie, userId: user.id, expires: expect.any(Number) }]);
      expect(Math.abs(sessions[0]!.expires - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(60_000);

      // The session endpoint reads it back through the adapter.
      expect((await session(browser))?.user?.email).toBe(address);

      // §3: single use — the same link again, from a browser without the session, signs nobody in.
      const again = newBrowser(app);
      const second = await again.request(link);
      expect(second.status).toBe(302);
      expect(second.headers.get("location")).not.toBe(AFTER_SIGN_IN);
      expect(new URL(second.headers.get("location")!).searchParams.get("error")).toBe("Verification");
      expect(again.cookies(APP_ORIGIN)[SESSION_COOKIE]).toBeUndefined();
      expect(await session(again)).toBeNull();
      expect(db.prepare("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM users").get()).toEqual({ n: 1 });
    },
    FLOW_TIMEOUT,
  );
});

describe("generated project (sqlite, jwt sessions, credentials provider) through Auth()", () => {
  const defer = useCleanup();
  let template: string;

  beforeAll(async () => {
    template = (await generate(["--yes", "--no-install"])).dir;
  }, 60_000);
  afterAll(() => rmSync(template, { recursive: true, force: true }));

  const user = { email: "ada@example.com", password: "correct horse battery staple" };

  async function signInWithPassword(app: App, fields: { email: string; password: string }) {
    const browser = newBrowser(app);
    const response = await browser.request(`${APP_ORIGIN}${BASE_PATH}/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: await csrfToken(browser), ...fields, callbackUrl: AFTER_SIGN_IN }),
    });
    return { browser, response, cookie: browser.cookies(APP_ORIGIN)[SESSION_COOKIE] };
  }

  /** The generated `npm run auth:add-user -- <email>`, the password on stdin. */
  async function addUser(app: App, fields: { email: string; password: string }) {
    const result = await execa(join(projectRoot, "node_modules/.bin/tsx"), ["auth/add-user.ts", fields.email], {
      cwd: app.dir,
      env: { AUTH_DATABASE_PATH: app.dbPath },
      input: `${fields.password}\n`,
      reject: false,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  }

  test(
    "nobody signs in before auth:add-user; then the right password gets a JWT session naming the stored user, a wrong one is refused",
    async () => {
      const app = await loadApp(copyProject(template, defer), defer);
      generatedSecret(app.secret);
      expect(app.generatedConfig.session?.strategy).toBe("jwt");

      const early = await signInWithPassword(app, user);
      expect(early.response.status).toBe(302);
      const location = new URL(early.response.headers.get("location")!);
      expect(location.pathname).toBe(`${BASE_PATH}/signin`);
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(early.cookie).toBeUndefined();
      expect(await session(early.browser)).toBeNull();

      await addUser(app, user);
      const stored = app.db().prepare('SELECT id, "passwordHash" FROM users WHERE email = ?').get(user.email) as {
        id: string;
        passwordHash: string;
      };
      // A salted scrypt hash, never the password.
      expect(stored.passwordHash).toMatch(/^scrypt\$/);
      expect(stored.passwordHash).not.toContain(user.password);

      const good = await signInWithPassword(app, user);
      expect(good.response.status, `${good.browser.trace()}\n${app.errors.join("\n")}`).toBe(302);
      expect(good.response.headers.get("location")).toBe(AFTER_SIGN_IN);
      // A JWT session: the cookie is a JWE (five dot-separated parts), nothing stored as a session row.
      expect(good.cookie).toEqual(expect.any(String));
      expect(good.cookie!.split(".")).toHaveLength(5);
      expect((await session(good.browser))?.user).toMatchObject({ email: user.email, id: stored.id });
      expect(app.db().prepare("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });

      const bad = await signInWithPassword(app, { ...user, password: "wrong password" });
      expect(bad.response.status).toBe(302);
      expect(new URL(bad.response.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin");
      expect(bad.cookie).toBeUndefined();
      expect(await session(bad.browser)).toBeNull();
    },
    FLOW_TIMEOUT,
  );
});
