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
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
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
import {
  corpClient,
  corpEnv,
  expectFederatedSignOut,
  planFederatedInit,
  signOutOnAuthPage,
  startCorp,
} from "./federated-signout.js";

const bin = join(root, "bin/create-auth.js");
const shared = useBrowserAndMail();

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
    const auth = `${origin}/api/auth`;
    const op = await startCorp(origin, "/api/auth", defer);

    const dir = await freshApp("next", defer);
    const cli = (args: string[]) => execa("node", [bin, ...args], { cwd: dir, env: appEnv(), reject: false });
    const init = await cli(["init", "--yes", "--providers", "credentials,google", "--refresh-tokens"]);
    expect(init.exitCode, `${init.stdout}\n${init.stderr}`).toBe(0);
    const config = await planFederatedInit(dir, "next", { issuer: op.issuer, origin, session: "database" });
    expect(config).toContain("export async function signOut");
    mkdirSync(join(dir, "app/account"), { recursive: true });
    writeFileSync(join(dir, "app/account/page.tsx"), accountPage);

    const built = await buildNextWithoutDatabase(dir, "auth.db");
    expect(built.exitCode, built.output).toBe(0);
    const server = await startServer(["node", nextBin(dir), "start", "-p", String(port)], {
      cwd: dir,
      port,
      env: appEnv(corpEnv(origin)),
    });
    defer(() => server.stop());

    const page = await (await shared.browser.newContext()).newPage();
    defer(() => page.context().close());
    const federated = { origin, basePath: "/api/auth", op, output: () => server.output() };
    // The account page's server action: the config's signOut(), no redirectTo.
    await expectFederatedSignOut(page, {
      ...federated,
      signOut: async (page) => {
        await page.goto(`${origin}/account`);
        await expect(page.locator("#who").textContent()).resolves.toMatch(/@corp\.example$/);
        await page.locator("#sign-out").click();
      },
    });
    expect(op.logins.map((l) => l.scope.split(" ").includes("offline_access"))).toEqual([true]);
    expect(op.logins.map((l) => l.clientId)).toEqual([corpClient.clientId]);
    expect(op.revokedGrants.length).toBeGreaterThan(0);

    // Again, through Auth.js's own sign-out page: its form posts only the CSRF token to /api/auth/signout.
    await expectFederatedSignOut(page, { ...federated, signOut: (page) => signOutOnAuthPage(page, auth) });
    expect(op.endedSessions).toBe(2);
    expect(await sessionOf(page, auth)).toBeNull();
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
  }, 600_000);
});
