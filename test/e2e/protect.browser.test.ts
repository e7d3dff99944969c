/**
 * --protect and federated sign-out where the framework's own Auth.js package
 * does the work (SvelteKit, Express): init --yes --protect "/dashboard/:path*"
 * --refresh-tokens on the fresh app, then init's plan again as a terminal
 * would answer it (an OpenID provider "corp", its issuer a real OpenID
 * Provider on loopback, --federated-logout); built and started as in
 * production. In Chromium a signed-out visit to /dashboard lands on Auth.js's
 * sign-in page with the way back, and after a password sign-in the same visit
 * is let through (to the app's own answer: SvelteKit's app has a dashboard
 * page, Express's none, so a 404 of the app); in SvelteKit the home page's
 * link to the dashboard too, a client-side navigation. Then a sign-in at corp and a plain
 * sign-out, Auth.js's own sign-out page (its form POST to /auth/signout with
 * the CSRF token), which the generated wiring sends on to corp's end_session
 * endpoint; in SvelteKit the generated signOut form action too.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import {
  type AppName,
  addUser,
  appEnv,
  freePort,
  freshApp,
  type RunningServer,
  runBuild,
  signInWithPassword,
  startServer,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { expectClickThrough } from "./client-navigation.js";
import {
  corpEnv,
  expectFederatedSignOut,
  planFederatedInit,
  signOutOnAuthPage,
  startCorp,
} from "./federated-signout.js";
import type { OidcServer } from "./oidc-server.js";

const user = { email: "dora@example.com", password: "a long enough password" };
const protect = ["/dashboard/:path*"];

describe("--protect and federated sign-out with the frameworks' own Auth.js packages", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  /** The app set up as above, its port chosen ahead (the provider knows the app's redirect URIs). */
  async function initProtected(app: AppName) {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const op = await startCorp(origin, "/auth", defer);
    const dir = await freshApp(app, defer);
    const init = await execa(
      "node",
      [
        join(root, "bin/create-auth.js"),
        "init",
        "--yes",
        "--protect",
        protect.join(","),
        "--providers",
        "credentials,google",
        "--refresh-tokens",
      ],
      { cwd: dir, env: appEnv(), reject: false, all: true },
    );
    expect(init.exitCode, init.all).toBe(0);
    const config = await planFederatedInit(dir, app, { issuer: op.issuer, origin, protect });
    await addUser(dir, user.email, user.password);
    return { dir, port, op, config, env: appEnv(corpEnv(origin)) };
  }

  async function newPage() {
    const context = await tools.browser.newContext();
    defer(() => context.close());
    return context.newPage();
  }

  async function expectProtected(server: RunningServer, dashboardStatus: number) {
    const page = await newPage();
    await page.goto(`${server.origin}/dashboard/reports?x=1`);
    const at = new URL(page.url());
    expect(at.pathname, server.output()).toBe("/auth/signin");
    expect(at.searchParams.get("callbackUrl")).toBe("/dashboard/reports?x=1");
    // Pages beside the list stay open.
    await page.goto(`${server.origin}/`);
    expect(new URL(page.url()).pathname).toBe("/");
    await signInWithPassword(page, `${server.origin}/auth`, user);
    const response = await page.goto(`${server.origin}/dashboard`);
    expect(new URL(page.url()).pathname, server.output()).toBe("/dashboard");
    expect(response?.status()).toBe(dashboardStatus);
  }

  /** The home page's link to the dashboard, signed out then signed in: SvelteKit's router renders it in the browser. */
  async function expectClientNavigationProtected(server: RunningServer) {
    const page = await newPage();
    const where = { origin: server.origin, dashboardPath: "/dashboard", basePath: "/auth" };
    const checks = { clientRouter: true, output: server.output };
    await expectClickThrough(page, where, { ...checks, signedIn: false });
    await signInWithPassword(page, where.origin + where.basePath, user);
    await expectClickThrough(page, where, { ...checks, signedIn: true });
  }

  async function expectSignOutOnAuthPage(server: RunningServer, op: OidcServer) {
    const { origin } = server;
    await expectFederatedSignOut(await newPage(), {
      origin,
      basePath: "/auth",
      op,
      signOut: (page) => signOutOnAuthPage(page, `${origin}/auth`),
      output: server.output,
    });
  }

  test("SvelteKit: the hooks' second handle, the handle's and the form action's sign-out; vite build + preview", async () => {
    const started = performance.now();
    const { dir, port, op, config, env } = await initProtected("sveltekit");
    expect(config).toContain("export const handle: Handle");
    // The sign-out page of Auth.js's SvelteKit guide: a form posting to the config's signOut action.
    mkdirSync(join(dir, "src/routes/signout"), { recursive: true });
    writeFileSync(
      join(dir, "src/routes/signout/+page.server.ts"),
      'import { signOut } from "$lib/server/auth";\n\nexport const actions = { default: signOut };\n',
    );
    writeFileSync(
      join(dir, "src/routes/signout/+page.svelte"),
      '<form method="POST"><button id="sign-out" type="submit">Sign out</button></form>\n',
    );
    const vite = join(dir, "node_modules/vite/bin/vite.js");
    const built = await runBuild(dir, ["node", vite, "build"], appEnv());
    expect(built.exitCode, built.all).toBe(0);
    const server = await startServer(["node", vite, "preview", "--port", String(port), "--strictPort"], {
      cwd: dir,
      port,
      env,
    });
    defer(() => server.stop());
    await expectProtected(server, 200);
    await expectClientNavigationProtected(server);
    await expectSignOutOnAuthPage(server, op);
    await expectFederatedSignOut(await newPage(), {
      origin: server.origin,
      basePath: "/auth",
      op,
      signOut: async (page) => {
        await page.goto(`${server.origin}/signout`);
        await page.locator("#sign-out").click();
      },
      output: server.output,
    });
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
    console.log(`[sveltekit --protect --federated-logout] ${Math.round((performance.now() - started) / 100) / 10} s`);
  }, 600_000);

  test("Express: the generated router's middlewares; npm start in production", async () => {
    const started = performance.now();
    const { port, op, config, env, dir } = await initProtected("express");
    expect(config).toContain("export const signOutUrl");
    expect(readFileSync(join(dir, "auth/express.ts"), "utf8")).toContain('authRoutes.post("/auth/signout"');
    const server = await startServer(["npm", "start"], { cwd: dir, port, env: { ...env, NODE_ENV: "production" } });
    defer(() => server.stop());
    await expectProtected(server, 404);
    await expectSignOutOnAuthPage(server, op);
    expect(server.output()).not.toMatch(/\[auth\]\[error\]/);
    console.log(`[express --protect --federated-logout] ${Math.round((performance.now() - started) / 100) / 10} s`);
  }, 600_000);
});
