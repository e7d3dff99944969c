/**
 * The sign-in every framework gets, driven the same way: a fresh app of
 * fixtures/apps/ as its users have it (a home page and /dashboard), or
 * turned into another shape users give it (a variant of test/variants/),
 * `create-auth init --yes --providers credentials,email --protect
 * "/dashboard/:path*"` on the app's Node with no file written by hand, a
 * user added with `npm run auth:add-user`, the app built and started as in
 * production, its home page still open to all, then in Chromium: a
 * signed-out visit to the dashboard sent to sign in, a wrong and a right
 * password, the dashboard served (the session read on the server),
 * sign-out, and an email-link sign-in; with `federatedSignOut`, a sign-in at
 * an OpenID provider and a sign-out that reaches its end_session endpoint;
 * and for an app whose row in test/support/framework-apps.ts has `twoFactor`
 * (a variant excepted), init with --two-factor totp: the steps above run for a
 * user who has not turned it on (the password alone signs in), then
 * two-factor-flow.ts on the same build (enrol, password and code, a replayed
 * code refused, a recovery code once), so one production build serves both.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { root } from "../helpers.js";
import { type FrameworkApp, frameworkApps } from "../support/framework-apps.js";
import type { Variant } from "../variants/index.js";
import {
  type AppName,
  appProduction,
  appRuntime,
  buildApp,
  crossSitePasswordPost,
  freePort,
  freshApp,
  type SmtpSink,
  sessionOf,
  signInWithEmailLink,
  signInWithPassword,
  startApp,
} from "./apps.js";
import { expectClickThrough } from "./client-navigation.js";
import {
  corpEnv,
  expectFederatedSignOut,
  planFederatedInit,
  signOutOnAuthPage,
  startCorp,
} from "./federated-signout.js";
import { twoFactorFlow } from "./two-factor-flow.js";

export interface FlowOptions {
  app: AppName;
  /** The shape of the user's project (test/variants/) the fresh app is turned into before init. */
  variant?: Variant;
  /** How the variant builds and starts in production, where it differs from the app's (appProduction). */
  production?: { build?: string; start: string; dashboard: string };
  /** Where Auth.js answers in this framework. */
  basePath: string;
  /** More flags for init. */
  initArgs?: string[];
  /** What the user writes after init (a page reading the session), before the build. */
  afterInit?: (dir: string) => void;
  /** The app's own npm script that type-checks it, generated files included (its build does not). */
  typecheckScript?: string;
  /** Checks of the build's output, before the server starts. */
  afterBuild?: (dir: string) => void;
  /** The dashboard names the signed-in user: the page read the session on the server. */
  dashboardShowsUser?: boolean;
  /**
   * Federated sign-out as well: init with --refresh-tokens, then init's plan again with an OpenID provider
   * "corp" on loopback and --federated-logout (federated-signout.ts); at the end a sign-in at corp and a
   * plain sign-out through Auth.js's sign-out page, which must reach corp's end_session endpoint.
   */
  federatedSignOut?: boolean;
  /** The home page's link navigates on the client: its click must not load the dashboard from the server. */
  clientRouter?: boolean;
  /**
   * The framework hands its routes no client address (React Router's react-router-serve): the sign-in
   * throttle counts per account and warns once. Every other wiring passes the connection's address.
   */
  noClientAddress?: boolean;
}

const user = { email: "carol@example.com", password: "a long enough password" };

/** create-auth as the user runs it: the built CLI on the app's Node. */
export async function initApp(name: AppName, dir: string, args: string[]) {
  const runtime = appRuntime(name);
  const result = await execa(runtime.node, [join(root, "bin/create-auth.js"), "init", "--yes", ...args], {
    cwd: dir,
    env: runtime.env(),
    extendEnv: false,
    reject: false,
    all: true,
  });
  expect(result.exitCode, result.all).toBe(0);
  return result.all ?? "";
}

async function addUserOn(name: AppName, dir: string) {
  const result = await execa("npm", ["run", "--silent", "auth:add-user", "--", user.email], {
    cwd: dir,
    env: appRuntime(name).env(),
    extendEnv: false,
    input: `${user.password}\n`,
    reject: false,
    all: true,
  });
  expect(result.exitCode, result.all).toBe(0);
}

/** Whether the dashboard let the visitor in (and did not send them to sign in). */
async function visitDashboard(page: Page, url: string, basePath: string) {
  const response = await page.goto(url);
  const at = new URL(page.url());
  return { status: response?.status(), signIn: at.pathname.startsWith(`${basePath}/signin`), at };
}

/**
 * Runs the whole flow; returns the seconds each stage took. `newPage` opens
 * a page in a fresh browser context (closed when the test ends).
 */
export async function signInFlow(
  options: FlowOptions,
  tools: { browser: Browser; mail: SmtpSink; defer: (fn: () => unknown) => void },
): Promise<Record<string, number>> {
  const { app, basePath } = options;
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const stage = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - mark) / 100) / 10;
    mark = now;
  };
  const newPage = async () => {
    const context = await tools.browser.newContext();
    tools.defer(() => context.close());
    return context.newPage();
  };

  const port = await freePort();
  const op = options.federatedSignOut ? await startCorp(`http://localhost:${port}`, basePath, tools.defer) : undefined;
  const fresh = await freshApp(app, tools.defer);
  const project = options.variant?.apply({ cwd: fresh, app: fresh }, app) ?? { cwd: fresh, app: fresh };
  const dir = project.app;
  const production = options.production ?? appProduction[app]!;
  stage("copy");
  const protect = "/dashboard/:path*";
  const twoFactor = options.variant ? undefined : (frameworkApps[app] as FrameworkApp).twoFactor;
  const initOutput = await initApp(app, project.cwd, [
    "--providers",
    // An OAuth provider, so that --refresh-tokens gives the tables the refresh lease; corp replaces it.
    op ? "credentials,email,google" : "credentials,email",
    "--protect",
    protect,
    ...(op ? ["--refresh-tokens"] : []),
    ...(twoFactor ? ["--two-factor", "totp"] : []),
    ...(options.initArgs ?? []),
  ]);
  if (op)
    await planFederatedInit(dir, app, {
      issuer: op.issuer,
      origin: `http://localhost:${port}`,
      protect: [protect],
      alsoProviders: ["email"],
      twoFactor: twoFactor !== undefined,
    });
  await addUserOn(app, dir);
  options.afterInit?.(dir);
  stage("init");
  // A JavaScript server runs its modules as written: nothing to build.
  if (production.build) {
    const built = await buildApp(app, dir, production);
    expect(built.exitCode, built.all).toBe(0);
  }
  options.afterBuild?.(dir);
  if (options.typecheckScript) {
    const checked = await execa("npm", ["run", options.typecheckScript], {
      cwd: dir,
      env: appRuntime(app).env(),
      extendEnv: false,
      reject: false,
      all: true,
    });
    expect(checked.exitCode, checked.all).toBe(0);
  }
  stage("build");
  const env = { EMAIL_SERVER: tools.mail.url, ...(op ? corpEnv(`http://localhost:${port}`) : {}) };
  const server = await startApp(app, dir, env, tools.defer, port, production);
  stage("start");
  const auth = `${server.origin}${basePath}`;
  const dashboard = `${server.origin}${production.dashboard}`;

  // The app's own home page is still served to a visitor who is signed out: init protected the dashboard only.
  const home = await fetch(server.origin);
  expect(home.status, server.output()).toBe(200);
  expect(await home.text()).toMatch(/Hello, [\w. ]+!/);

  // Signed out: the protected page sends the visitor to sign in, and back afterwards, reached by a link too.
  const page = await newPage();
  const click = { origin: server.origin, dashboardPath: production.dashboard, basePath };
  const clickAs = (signedIn: boolean) =>
    expectClickThrough(page, click, { signedIn, clientRouter: options.clientRouter ?? false, output: server.output });
  await clickAs(false);
  const signedOut = await visitDashboard(page, dashboard, basePath);
  expect(signedOut.signIn, `${dashboard} -> ${signedOut.at.href}\n${server.output()}`).toBe(true);
  expect(signedOut.at.searchParams.get("callbackUrl")).toContain("/dashboard");

  // A wrong password signs nobody in; the right one does, and the dashboard is served.
  const wrong = await newPage();
  await signInWithPassword(wrong, auth, { ...user, password: "not it at all" });
  expect(await sessionOf(wrong, auth)).toBeNull();
  // Nor does a form on another site posting the right one (login CSRF): Auth.js's CSRF check, or the framework's.
  expect(await crossSitePasswordPost(auth, user), server.output()).toBeNull();
  await signInWithPassword(page, auth, user);
  expect((await sessionOf(page, auth))?.user).toMatchObject({ email: user.email });
  const signedIn = await visitDashboard(page, dashboard, basePath);
  expect(signedIn.signIn, server.output()).toBe(false);
  expect(signedIn.status).toBe(200);
  expect(await page.content()).toMatch(/<h1[^>]*>Dashboard<\/h1>/);
  if (options.dashboardShowsUser) expect(await page.content()).toContain(user.email);
  await clickAs(true);

  // Sign-out through Auth.js's own page: the session is gone and the dashboard is closed again.
  await page.goto(`${auth}/signout`);
  await page.locator(`form[action$="${basePath}/signout"] button`).click();
  await page.waitForURL((url) => !url.pathname.startsWith(`${basePath}/signout`));
  expect(await sessionOf(page, auth)).toBeNull();
  expect((await visitDashboard(page, dashboard, basePath)).signIn).toBe(true);

  // An email link signs another person in.
  const linked = await newPage();
  const bob = `bob.${app}@example.com`;
  const { session } = await signInWithEmailLink(linked, auth, tools.mail, bob);
  expect(session?.user).toMatchObject({ email: bob });
  expect((await visitDashboard(linked, dashboard, basePath)).signIn).toBe(false);
  if (op)
    await expectFederatedSignOut(await newPage(), {
      origin: server.origin,
      basePath,
      op,
      signOut: (page) => signOutOnAuthPage(page, auth),
      output: server.output,
    });
  if (twoFactor) {
    // The pages are mounted by what init wrote: a file it created, or a line in the app's own server module.
    // (The table names the file by its path below the framework's folder: init prints it from the project's root.)
    if (twoFactor.mount.startsWith("created ")) expect(initOutput).toContain(twoFactor.mount.slice("created ".length));
    else expect(readFileSync(join(dir, "src/index.ts"), "utf8")).toContain(twoFactor.mount);
    await twoFactorFlow(
      tools.browser,
      { origin: server.origin, basePath, output: server.output, noClientAddress: options.noClientAddress },
      user,
      tools.defer,
    );
  }
  stage("browser");
  // Auth.js logs the wrong password and the missing CSRF token; nothing else may have gone wrong (its log is coloured).
  const log = server.output().replace(/\x1b\[[0-9;]*m/g, "");
  expect(log).not.toMatch(/\[auth\]\[error\](?! CredentialsSignin| MissingCSRF)/);
  // The password and the email sign-ins reached the throttle with the client's address from the framework's wiring
  // (or, where the framework has none to give, the throttle said it counts per account only).
  const unknownClient = "sign-in throttle: a request reached Auth.js without the client's address";
  if (options.noClientAddress) expect(log).toContain(unknownClient);
  else expect(log).not.toContain(unknownClient);
  return timings;
}
