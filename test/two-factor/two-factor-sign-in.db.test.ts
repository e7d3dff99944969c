/**
 * Two-factor sign-in through the real Auth() and the generated SQL store on
 * SQLite, PostgreSQL and MariaDB: enrolment on the generated pages (the QR
 * code read by a decoder that is not ours gives the secret, the first code
 * turns it on), then sign-in with password and code, a replayed code
 * refused, a code of the wrong time refused, a recovery code working once,
 * a ticket that opens only in the browser that typed the password, a
 * wrong password answered alike for an account with two-factor, one without
 * and none at all, and wrong codes throttled (throttle.ts) until the window
 * has passed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databases, type GeneratedBackend } from "../e2e/generated-adapter.js";
import { readQrSvg } from "./qr-reader.js";
import { Browser, type TwoFactorApp, twoFactorApp } from "./two-factor-app.js";

const pgUrl = process.env.CREATE_AUTH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const mysqlUrl = process.env.CREATE_AUTH_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
const dbs = databases("two_factor");
beforeAll(() => dbs.create());
afterAll(() => dbs.drop());

interface Totp {
  totp(key: Uint8Array, ms: number): Promise<string>;
  base32Decode(text: string): Uint8Array;
}

const alice = { email: "alice@example.com", password: "correct horse battery staple" };
const bob = { email: "bob@example.com", password: "another good password" };

/** Auth.js's CSRF token for `browser` (its cookie set too). */
async function csrf(app: TwoFactorApp, browser: Browser): Promise<string> {
  return ((await (await app.fetch(browser, "/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
}

/** The password step as the sign-in page posts it; answers where Auth.js sends the browser. */
async function passwordStep(app: TwoFactorApp, browser: Browser, who: { email: string; password: string }) {
  const response = await app.fetch(browser, "/auth/callback/credentials", {
    form: { csrfToken: await csrf(app, browser), ...who, callbackUrl: "/dashboard" },
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!, "http://localhost:3000");
}

async function sessionEmail(app: TwoFactorApp, browser: Browser): Promise<string | null> {
  const session = (await (await app.fetch(browser, "/auth/session")).json()) as { user?: { email?: string } } | null;
  return session?.user?.email ?? null;
}

/** The second step as the code page posts it. */
async function codeStep(app: TwoFactorApp, browser: Browser, ticket: string, given: Record<string, string>) {
  const page = await app.fetch(browser, `/two-factor/verify?ticket=${encodeURIComponent(ticket)}`);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)![1]!;
  expect(html).toContain('autocomplete="one-time-code"');
  const response = await app.fetch(browser, "/auth/callback/credentials", { form: { csrfToken, ticket, ...given } });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!, "http://localhost:3000");
}

const formToken = (html: string) => /name="form" value="([^"]+)"/.exec(html)![1]!;

const connections = (name: string) => ({
  sqlite: (dir: string) => ({ env: { AUTH_DATABASE_PATH: `${dir}/auth.db` }, open: `${dir}/auth.db` }),
  postgres: () => {
    const url = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${name}`)}`;
    return { env: { DATABASE_URL: url }, open: url };
  },
  mysql: () => ({ env: { DATABASE_URL: `${mysqlUrl}/${name}` }, open: `${mysqlUrl}/${name}` }),
});

for (const backend of ["sqlite", "postgres", "mysql"] as const satisfies GeneratedBackend[]) {
  describe(backend, () => {
    it("enrols, then signs in with password and code once, and with each recovery code once", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-11-28T12:00:05Z"));
      const dir = (await import("./generated.js")).moduleFolder("create-auth-two-factor-db-");
      const name = dbs.name;
      const connection = backend === "sqlite" ? connections(name).sqlite(dir) : connections(name)[backend]();
      const app = await twoFactorApp(backend, connection);
      const { setUserPassword } = await app.module<{ setUserPassword(e: string, p: string): Promise<unknown> }>(
        "auth/passwords.js",
      );
      await setUserPassword(alice.email, alice.password);
      await setUserPassword(bob.email, bob.password);
      const t = await app.module<Totp>("auth/totp.js");

      // Without two-factor the password signs in.
      const browser = new Browser();
      expect((await passwordStep(app, browser, alice)).pathname).toBe("/dashboard");
      expect(await sessionEmail(app, browser)).toBe(alice.email);

      // Enrolment: the status page's form, then the QR code and the key; a wrong first code leaves it off.
      const status = await app.fetch(browser, "/two-factor");
      const statusHtml = await status.text();
      expect(statusHtml).toContain("<strong>off</strong>");
      const setup = await app.fetch(browser, "/two-factor/setup", { form: { form: formToken(statusHtml) } });
      const setupHtml = await setup.text();
      expect(setup.status, setupHtml).toBe(200);
      expect(setup.headers.get("cache-control")).toBe("no-store");
      const uri = new URL((await readQrSvg(/<svg[\s\S]*?<\/svg>/.exec(setupHtml)![0]))!);
      expect(uri.protocol).toBe("otpauth:");
      expect(decodeURIComponent(uri.pathname)).toBe(`/localhost:3000:${alice.email}`);
      const secret = uri.searchParams.get("secret")!;
      // The key shown as text is the one in the QR code.
      expect(/<code id="secret">([^<]+)<\/code>/.exec(setupHtml)![1]!.replace(/ /g, "")).toBe(secret);
      const key = t.base32Decode(secret);
      const wrongFirst = await app.fetch(browser, "/two-factor/confirm", {
        form: {
          form: formToken(setupHtml),
          code: String((Number(await t.totp(key, Date.now())) + 1) % 1e6).padStart(6, "0"),
        },
      });
      expect(wrongFirst.status).toBe(400);
      const confirmed = await app.fetch(browser, "/two-factor/confirm", {
        form: { form: formToken(setupHtml), code: await t.totp(key, Date.now()) },
      });
      const codesHtml = await confirmed.text();
      expect(confirmed.status, codesHtml).toBe(200);
      const recovery = [...codesHtml.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]!);
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);
      // A form's address opened again goes to the status page; signed out, the pages send to sign in.
      expect((await app.fetch(browser, "/two-factor/setup")).headers.get("location")).toBe("/two-factor");
      expect((await app.fetch(new Browser(), "/two-factor")).headers.get("location")).toBe(
        "/auth/signin?callbackUrl=%2Ftwo-factor",
      );
      // Another site's form has no token for this user: refused.
      const forged = await app.fetch(browser, "/two-factor/disable", { form: { form: "1.forged", code: "000000" } });
      expect(forged.status).toBe(400);

      // Signed out, the right password alone goes to the code page and signs nobody in.
      const second = new Browser();
      const toCode = await passwordStep(app, second, alice);
      expect(toCode.pathname).toBe("/two-factor/verify");
      expect(await sessionEmail(app, second)).toBeNull();
      const ticket = toCode.searchParams.get("ticket")!;
      // The code that confirmed the enrolment was used: within the same step it is refused (a replay).
      const replayedConfirm = await codeStep(app, second, ticket, { code: await t.totp(key, Date.now()) });
      expect(replayedConfirm.pathname).toBe("/two-factor/verify");
      expect(replayedConfirm.searchParams.get("retry")).toBe("1");
      expect(await sessionEmail(app, second)).toBeNull();

      // Half a minute on, the next code signs in, once; the same code again is refused.
      vi.setSystemTime(Date.now() + 30_000);
      const code = await t.totp(key, Date.now());
      const signedIn = await codeStep(app, second, ticket, { code });
      expect(signedIn.pathname).toBe("/dashboard");
      expect(await sessionEmail(app, second)).toBe(alice.email);
      const third = new Browser();
      const again = await passwordStep(app, third, alice);
      const replayed = await codeStep(app, third, again.searchParams.get("ticket")!, { code });
      expect(replayed.searchParams.get("retry")).toBe("1");
      expect(await sessionEmail(app, third)).toBeNull();
      // A code two steps ahead (beyond one step of skew) is refused too.
      const ahead = await codeStep(app, third, again.searchParams.get("ticket")!, {
        code: await t.totp(key, Date.now() + 60_000),
      });
      expect(ahead.searchParams.get("retry")).toBe("1");
      // One step ahead (a phone's clock a little fast) is accepted.
      const skewed = await codeStep(app, third, again.searchParams.get("ticket")!, {
        code: await t.totp(key, Date.now() + 30_000),
      });
      expect(skewed.pathname).toBe("/dashboard");
      expect(await sessionEmail(app, third)).toBe(alice.email);

      // A recovery code signs in once, written as people type it; the second time it is refused.
      const lost = new Browser();
      const lostTicket = (await passwordStep(app, lost, alice)).searchParams.get("ticket")!;
      const recovered = await codeStep(app, lost, lostTicket, {
        recoveryCode: recovery[3]!.toUpperCase().replace("-", " "),
      });
      expect(recovered.pathname).toBe("/dashboard");
      expect(await sessionEmail(app, lost)).toBe(alice.email);
      const lostAgain = new Browser();
      const againTicket = (await passwordStep(app, lostAgain, alice)).searchParams.get("ticket")!;
      const reused = await codeStep(app, lostAgain, againTicket, { recoveryCode: recovery[3]! });
      expect(reused.searchParams.get("retry")).toBe("1");
      expect(await sessionEmail(app, lostAgain)).toBeNull();
      // The status page counts what is left.
      expect(await (await app.fetch(browser, "/two-factor")).text()).toContain("You have 9 of 10 recovery codes left");

      // A ticket is good only in the browser that typed the password (its CSRF cookie); another is refused.
      const thief = new Browser();
      const stolen = await app.fetch(thief, "/auth/callback/credentials", {
        form: { csrfToken: await csrf(app, thief), ticket: againTicket, code: await t.totp(key, Date.now() + 30_000) },
      });
      expect(new URL(stolen.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin");
      expect(await sessionEmail(app, thief)).toBeNull();
      // A ticket expires after five minutes.
      vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
      const late = await app.fetch(lostAgain, `/two-factor/verify?ticket=${encodeURIComponent(againTicket)}`);
      expect(late.status).toBe(400);
      expect(await late.text()).toContain("Sign in again");

      // A wrong password answers alike for an account with two-factor, one without, and none.
      const answers = await Promise.all(
        [alice.email, bob.email, "nobody@example.com"].map(
          async (email) => (await passwordStep(app, new Browser(), { email, password: "not the password" })).href,
        ),
      );
      expect(new Set(answers).size, answers.join("\n")).toBe(1);
      expect(answers[0]).toContain("error=CredentialsSignin");

      // A sign-in without Auth.js's CSRF token (SvelteKit turns the check off, a server action's signIn() skips
      // it): a user without two-factor signs in as before; one with it goes on to the code page all the same.
      type Authorize = (
        credentials: Record<string, string>,
        request: Request,
      ) => Promise<{ email?: string; twoFactorPage?: string } | null>;
      const { credentials } = await app.module<{ credentials: { options: { authorize: Authorize } } }>(
        "providers/credentials.js",
      );
      const plain = new Request("http://localhost:3000/auth/callback/credentials", { method: "POST" });
      expect((await credentials.options.authorize({ ...bob }, plain))?.email).toBe(bob.email);
      expect((await credentials.options.authorize({ ...alice }, plain))?.twoFactorPage).toMatch(
        /^\/two-factor\/verify\?ticket=/,
      );

      // Wrong codes are throttled like passwords: after five from one client, the right code is refused too,
      // until the quarter of an hour has passed.
      const guesser = new Browser("198.51.100.9");
      const guessed = (await passwordStep(app, guesser, alice)).searchParams.get("ticket")!;
      const right = await t.totp(key, Date.now());
      for (let i = 0; i < 5; i++) {
        const wrong = String((Number(right) + 1 + i) % 1e6).padStart(6, "0");
        expect((await codeStep(app, guesser, guessed, { code: wrong })).searchParams.get("retry")).toBe("1");
      }
      expect((await codeStep(app, guesser, guessed, { code: right })).searchParams.get("retry")).toBe("1");
      expect(await sessionEmail(app, guesser)).toBeNull();
      vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
      const later = (await passwordStep(app, guesser, alice)).searchParams.get("ticket")!;
      expect((await codeStep(app, guesser, later, { code: await t.totp(key, Date.now()) })).pathname).toBe(
        "/dashboard",
      );
      expect(await sessionEmail(app, guesser)).toBe(alice.email);
      vi.useRealTimers();
    });
  });
}
