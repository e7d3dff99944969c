/**
 * Federated sign-out in Next.js, in Chromium: a fresh App Router app, `init
 * --yes --providers credentials,google --refresh-tokens` (installs, creates
 * the tables), then init's plan again with what a terminal would answer:
 * an OpenID provider "corp", its issuer a real OpenID Provider (oidc-provider) on loopback,
 * --refresh-tokens --federated-logout (init takes an issuer only in a
 * terminal); nothing added by hand. A page signs out with a server action calling the
 * config's plain signOut(), no redirectTo. The browser ends the app session,
 * reaches the provider's end_session endpoint with a valid id_token_hint,
 * confirms, and comes back to the post-logout redirect URI; the provider's
 * session and grant are gone. Then the same through Auth.js's own sign-out
 * page (its form POST to /api/auth/signout, only the CSRF token).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { parseResolved, resolveProviderName } from "../../src/families/index.js";
import { chosenFramework } from "../../src/frameworks/registry.js";
import { planInit } from "../../src/planners/init-plan.js";
import { storageModules } from "../../src/storage/registry.js";
import { applyPlan } from "../../src/workspace/plan.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { root } from "../helpers.js";
import {
  appEnv,
  buildNextWithoutDatabase,
  freePort,
  freshApp,
  nextBin,
  sessionOf,
  startServer,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { startOidcServer } from "./oidc-server.js";

const bin = join(root, "bin/create-auth.js");
const shared = useBrowserAndMail();
const client = { clientId: "next-app", clientSecret: "next-app-secret" };
const account = { sub: "u-7", email: "dana@corp.example", name: "Dana", picture: "https://corp.example/d.png" };

/** A page that shows who is signed in and signs out as any app does: signOut(), nothing more. */
const accountPage = `import { auth, signOut } from "@/auth";

export default async function Account() {
  const session = await auth();
  async function signOutEverywhere() {
    "use server";
    await signOut();
  }
  return (
    <main>
      <p id="who">{session?.user?.email ?? "signed out"}</p>
      <form action={signOutEverywhere}>
        <button id="sign-out" type="submit">Sign out</button>
      </form>
    </main>
  );
}
`;

describe("Next.js: federated sign-out in Chromium", () => {
  const defer = useCleanup();

  test("a plain signOut() ends the app session, then the provider's, with a valid id_token_hint", async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const op = await startOidcServer({
      ...client,
      redirectUri: `${origin}/api/auth/callback/corp`,
      account,
      tokens: { accessTokenTtl: 3600, postLogoutRedirectUri: `${origin}/` },
    });
    defer(() => op.close());

    const dir = await freshApp("next", defer);
    const cli = (args: string[]) => execa("node", [bin, ...args], { cwd: dir, env: appEnv(), reject: false });
    const init = await cli(["init", "--yes", "--providers", "credentials,google", "--refresh-tokens"]);
    expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
    const project = new ProjectView(dir);
    const sqlite = storageModules.find((s) => s.id === "sqlite")!;
    const planned = await planInit({
      root: dir,
      project,
      providers: [
        parseResolved(resolveProviderName("credentials"), {}),
        parseResolved(resolveProviderName("oidc"), { id: "corp", issuer: op.issuer }),
      ],
      session: "database",
      force: true,
      framework: chosenFramework(project, "next"),
      storage: { module: sqlite, facts: sqlite.assume(project), dialect: "sqlite", schema: "sql" },
      tokens: { refresh: true, federatedLogout: true },
      postLogoutRedirectUri: `${origin}/`,
    });
    applyPlan(planned.changes);
    const config = readFileSync(join(dir, "auth.ts"), "utf8");
    expect(config).toContain("federatedSignOut: [corp],");
    expect(config).toContain("export async function signOut");
    mkdirSync(join(dir, "app/account"), { recursive: true });
    writeFileSync(join(dir, "app/account/page.tsx"), accountPage);

    const built = await buildNextWithoutDatabase(dir, "auth.db");
    expect(built.exitCode, built.output).toBe(0);
    const server = await startServer(["node", nextBin(dir), "start", "-p", String(port)], {
      cwd: dir,
      port,
      env: appEnv({
        AUTH_CORP_ID: client.clientId,
        AUTH_CORP_SECRET: client.clientSecret,
        AUTH_POST_LOGOUT_REDIRECT_URI: `${origin}/`,
      }),
    });
    defer(() => server.stop());

    const page = await (await shared.browser.newContext()).newPage();
    defer(() => page.context().close());
    await page.goto(`${origin}/api/auth/signin`);
    await page.locator('form[action$="/api/auth/signin/corp"] button').click();
    await page.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/api/auth"));
    expect((await sessionOf(page, `${origin}/api/auth`))?.user?.email).toBe(account.email);
    expect(op.logins.map((l) => l.scope.split(" ").includes("offline_access"))).toEqual([true]);

    await page.goto(`${origin}/account`);
    await expect(page.locator("#who").textContent()).resolves.toBe(account.email);
    await page.locator("#sign-out").click();
    // At the provider: its logout confirmation, which a bad id_token_hint would have replaced by an error.
    await page.waitForURL((url) => url.origin === new URL(op.issuer).origin);
    const atProvider = new URL(page.url());
    expect(
      op.log.some((e) => e.path === "/session/end" && e.query.id_token_hint && e.query.client_id === client.clientId),
    ).toBe(true);
    expect(atProvider.pathname).toMatch(/^\/session\/end/);
    await page.locator('button[name="logout"][value="yes"]').click();
    await page.waitForURL(`${origin}/`);

    expect(op.endedSessions).toBe(1);
    expect(op.revokedGrants.length).toBeGreaterThan(0);
    expect(await sessionOf(page, `${origin}/api/auth`)).toBeNull();
    expect(op.errors).toEqual([]);

    // Again, through Auth.js's own sign-out page: its form posts only the CSRF token to /api/auth/signout.
    await page.goto(`${origin}/api/auth/signin`);
    await page.locator('form[action$="/api/auth/signin/corp"] button').click();
    await page
      .waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/api/auth"))
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nat ${page.url()}:\n${(await page.content()).slice(0, 2000)}`);
      });
    expect((await sessionOf(page, `${origin}/api/auth`))?.user?.email).toBe(account.email);
    await page.goto(`${origin}/api/auth/signout`);
    await page.locator('form[action$="/api/auth/signout"] button').click();
    await page.waitForURL((url) => url.origin === new URL(op.issuer).origin);
    expect(new URL(page.url()).pathname).toMatch(/^\/session\/end/);
    await page.locator('button[name="logout"][value="yes"]').click();
    await page.waitForURL(`${origin}/`);
    expect(op.endedSessions).toBe(2);
    expect(await sessionOf(page, `${origin}/api/auth`)).toBeNull();
    expect(op.errors).toEqual([]);
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 600_000);
});
