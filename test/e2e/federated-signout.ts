/**
 * Federated sign-out as the frameworks' own Auth.js wiring does it, shared by
 * the browser tests of SvelteKit, Express and Qwik City: a real OpenID
 * Provider on loopback (oidc-server.ts), init's plan as a terminal would
 * answer it (credentials and an OpenID provider "corp" with its issuer,
 * --refresh-tokens --federated-logout; init --yes takes no issuer), and in
 * Chromium a sign-in at the provider followed by a plain sign-out, checked
 * hop by hop up to the provider's end_session endpoint and back.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { expect } from "vitest";
import { parseResolved, resolveProviderName } from "../../src/families/index.js";
import { chosenFramework } from "../../src/frameworks/registry.js";
import { planInit } from "../../src/planners/init-plan.js";
import { storageModules } from "../../src/storage/registry.js";
import { applyPlan } from "../../src/workspace/plan.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { sessionOf } from "./apps.js";
import { type OidcServer, startOidcServer } from "./oidc-server.js";

export const corpClient = { clientId: "framework-app", clientSecret: "framework-app-secret" };
const account = { sub: "u-9", email: "erin@corp.example", name: "Erin", picture: "https://corp.example/e.png" };

/**
 * The provider for an app at `origin` whose Auth.js answers at `basePath`, its post-logout redirect URI the home
 * page; its access tokens live `accessTokenTtl` seconds.
 */
export async function startCorp(
  origin: string,
  basePath: string,
  defer: (fn: () => unknown) => void,
  accessTokenTtl = 3600,
) {
  const op = await startOidcServer({
    ...corpClient,
    redirectUri: `${origin}${basePath}/callback/corp`,
    account,
    tokens: { accessTokenTtl, postLogoutRedirectUri: `${origin}/` },
  });
  defer(() => op.close());
  return op;
}

/** The variables a user sets for the corp provider (init leaves them empty). */
export const corpEnv = (origin: string): Record<string, string> => ({
  AUTH_CORP_ID: corpClient.clientId,
  AUTH_CORP_SECRET: corpClient.clientSecret,
  AUTH_POST_LOGOUT_REDIRECT_URI: `${origin}/`,
});

/** The files init writes that a later init takes for the project's own, by framework. */
const reinitEntries: Record<string, string> = { express: "server.ts", qwik: "src/routes/plugin@auth.ts" };

/**
 * init's plan over an app init has already set up with --refresh-tokens (its tables have the refresh lease):
 * credentials, `alsoProviders` and corp, --refresh-tokens --federated-logout, the same --protect, JWT sessions
 * (init --yes's) unless `session` says otherwise; returns the auth config's text.
 */
export async function planFederatedInit(
  dir: string,
  framework: string,
  options: {
    issuer: string;
    origin: string;
    protect?: string[];
    alsoProviders?: string[];
    session?: "jwt" | "database";
    /** The first init had --two-factor totp: the plan again keeps it. */
    twoFactor?: boolean;
  },
): Promise<string> {
  // The plan again as on the fresh app: the first init's entry file would count as the project's own, which
  // init leaves alone (naming the lines to add instead).
  const entry = reinitEntries[framework];
  if (entry) rmSync(join(dir, entry));
  const project = new ProjectView(dir);
  const sqlite = storageModules.find((s) => s.id === "sqlite")!;
  const planned = await planInit({
    root: dir,
    project,
    providers: [
      parseResolved(resolveProviderName("credentials"), options.twoFactor ? { twoFactor: "totp" } : {}),
      ...(options.alsoProviders ?? []).map((name) => parseResolved(resolveProviderName(name), {})),
      parseResolved(resolveProviderName("oidc"), { id: "corp", issuer: options.issuer }),
    ],
    session: options.session ?? "jwt",
    force: true,
    framework: chosenFramework(project, framework),
    storage: { module: sqlite, facts: sqlite.assume(project), dialect: "sqlite", schema: "sql" },
    tokens: { refresh: true, federatedLogout: true },
    postLogoutRedirectUri: `${options.origin}/`,
    ...(options.protect ? { protect: options.protect } : {}),
  });
  applyPlan(planned.changes);
  const config = readFileSync(join(dir, planned.configPath), "utf8");
  expect(config).toContain("federatedSignOut: [corp],");
  return config;
}

/** The claims of a JWT (its signature is the provider's to check: it refuses a bad id_token_hint). */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;

/**
 * Signs in at corp through Auth.js's sign-in page, then signs out with `signOut` (which leaves the browser
 * on its way out of the app); checks that the sign-out reached corp's end_session endpoint with an
 * id_token_hint of this sign-in, the client's id and the post-logout redirect URI, confirms there as the
 * user would, and that both sessions are over and the browser is back on the app's home page.
 */
export async function expectFederatedSignOut(
  page: Page,
  options: {
    origin: string;
    basePath: string;
    op: OidcServer;
    signOut: (page: Page) => Promise<void>;
    /** The app server's output, shown when the browser does not get where it should. */
    output?: () => string;
    /** What else is checked while the user is signed in at the provider, before the sign-out. */
    whileSignedIn?: (page: Page) => Promise<void>;
  },
): Promise<void> {
  const { origin, basePath, op } = options;
  const lost = async (error: Error) =>
    new Error(
      `${error.message}\nat ${page.url()}:\n${(await page.content()).slice(0, 2000)}\n${options.output?.() ?? ""}`,
    );
  const auth = `${origin}${basePath}`;
  const ended = op.endedSessions;
  const endRequests = () => op.log.filter((e) => e.path === "/session/end" && e.method === "GET");
  const endsBefore = endRequests().length;

  await page.goto(`${auth}/signin`);
  await page.locator(`form[action$="${basePath}/signin/corp"] button`).click();
  await page
    .waitForURL((url) => url.origin === origin && !url.pathname.startsWith(basePath))
    .catch(async (error: Error) => {
      throw await lost(error);
    });
  expect((await sessionOf(page, auth))?.user?.email).toBe(account.email);
  await options.whileSignedIn?.(page);

  // The page's own navigations, redirects included, and its POSTs (a form's, or a server action's fetch):
  // the sign-out's chain of hops.
  const chain: string[] = [];
  const record = (request: Request) =>
    (request.isNavigationRequest() || request.method() === "POST") &&
    request.frame() === page.mainFrame() &&
    chain.push(`${request.method()} ${request.url()}`);
  page.on("request", record);
  try {
    await options.signOut(page);
    await page
      .waitForURL((url) => url.origin === new URL(op.issuer).origin)
      .catch(async (error: Error) => {
        throw await lost(error);
      });
    // oidc-provider answers a bad id_token_hint, client_id or post_logout_redirect_uri with an error, not this form.
    await page.locator('button[name="logout"][value="yes"]').click();
    await page.waitForURL(`${origin}/`);
  } finally {
    page.off("request", record);
  }

  const [end] = endRequests().slice(endsBefore);
  expect(end, JSON.stringify(op.log.slice(-10))).toBeDefined();
  expect(end!.query.client_id).toBe(corpClient.clientId);
  expect(end!.query.post_logout_redirect_uri).toBe(`${origin}/`);
  expect(claimsOf(end!.query.id_token_hint ?? "")).toMatchObject({
    iss: op.issuer,
    aud: corpClient.clientId,
    sub: account.sub,
  });
  expect(end!.status).toBe(200);
  expect(op.endedSessions).toBe(ended + 1);
  expect(op.errors).toEqual([]);
  expect(await sessionOf(page, auth)).toBeNull();
  // The app's sign-out POST sent the browser straight to the provider, which sent it back home.
  const atProvider = chain.findIndex((hop) => hop.startsWith(`GET ${op.issuer}/session/end?`));
  expect(chain[atProvider - 1], chain.join("\n")).toMatch(new RegExp(`^POST ${origin}/`));
  expect(chain.at(-1)).toBe(`GET ${origin}/`);
}

/** Auth.js's own sign-out page: its form posts the CSRF token alone to <basePath>/signout. */
export async function signOutOnAuthPage(page: Page, auth: string): Promise<void> {
  await page.goto(`${auth}/signout`);
  const form = page.locator(`form[action$="${new URL(auth).pathname}/signout"]`);
  expect(await form.locator('input[name="csrfToken"]').count()).toBe(1);
  await form.locator("button").click();
}
