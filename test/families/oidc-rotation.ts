/**
 * The app the token-rotation tests sign in to: init's config with --refresh-tokens --federated-logout and the
 * generated oidc provider (rotation-app.ts) against a real OpenID Provider (oidc-provider, oidc-server.ts)
 * whose access tokens live 12 seconds of a clock the test moves on. The provider can be made to misbehave
 * (its faults, ended grants, a new signing key) through `server`.
 */
import { expect, vi } from "vitest";
import { renderTemplate } from "../../src/render/templates.js";
import { APP_ORIGIN, BASE_PATH, callbackUrlFor } from "../e2e/auth-harness.js";
import { type OidcAccount, type OidcServer, type OidcServerOptions, startOidcServer } from "../e2e/oidc-server.js";
import { writeModule } from "../e2e/provider-module.js";
import { type Handler, rotationApp } from "./rotation-app.js";

export const client = { clientId: "corp-portal", clientSecret: "corp-portal-secret" };
export const account: OidcAccount = {
  sub: "u-1",
  email: "jane@corp.example",
  name: "Jane",
  picture: "https://corp.example/j.png",
};
export const POST_LOGOUT = `${APP_ORIGIN}/`;
/** Access tokens live this long; the generated module refreshes 10 s before expiry, so 2 s after issue. */
export const ACCESS_TTL = 12;

export type Strategy = "jwt" | "database";

/**
 * The clock moves on far enough for the access token to count as expired (it is refreshed 10 s early). The
 * process's clock is the one the provider, Auth.js and the generated module all read, so jumping it ahead
 * is what waiting would do, without the wait; it keeps running between jumps.
 */
export const untilExpired = () => vi.setSystemTime(Date.now() + (ACCESS_TTL - 10) * 1000 + 300);

export const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

/**
 * The generated module's limits, as the README states them: one use of the provider, and the back-off after
 * a failure that may pass (token-rotation.ts.hbs: PROVIDER_TIMEOUT_MS, RETRY_AFTER_MS).
 */
export const PROVIDER_TIMEOUT_MS = 5_000;
export const RETRY_AFTER_MS = 10_000;

/** The clock moves past the back-off that follows a failed refresh. */
export const afterBackOff = () => vi.setSystemTime(Date.now() + RETRY_AFTER_MS + 1_000);

/** What the token endpoint answered to each refresh it was sent ("held": it never answered). */
export const refreshAnswers = (server: OidcServer) =>
  server.tokenRequests.filter((r) => r.grant === "refresh_token").map((r) => r.status);

/** console.error, where the module logs a failed refresh, silenced and recorded for the test. */
export function errorLog(defer: (fn: () => unknown) => void) {
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  defer(() => logged.mockRestore());
  return () => logged.mock.calls.map((call) => call.join(" "));
}

/** Successful refreshes at the provider. */
export const refreshes = (server: OidcServer) => server.grants.filter((g) => g === "refresh_token").length;
/** A refresh token presented twice, or refused: what a broken single flight or lease shows. */
export const reused = (server: OidcServer) => server.errors.filter((e) => /already used|invalid_grant/i.test(e));

export interface OidcRotationOptions {
  /**
   * "web": the requests go through handleAuth() of the Web-standard session module init writes for Astro,
   * Nuxt, Hono... instead of Auth() itself.
   */
  wiring?: "auth" | "web";
  /** How the provider behaves beyond the defaults (its refresh answers, an end-session endpoint). */
  tokens?: Partial<NonNullable<OidcServerOptions["tokens"]>>;
}

export type OidcRotationApp = Awaited<ReturnType<typeof oidcRotationApp>>;

export async function oidcRotationApp(
  defer: (fn: () => unknown) => void,
  strategy: Strategy,
  { wiring = "auth", tokens = {} }: OidcRotationOptions = {},
) {
  const server = await startOidcServer({
    ...client,
    redirectUri: callbackUrlFor("corp"),
    account,
    tokens: { accessTokenTtl: ACCESS_TTL, postLogoutRedirectUri: POST_LOGOUT, ...tokens },
  });
  defer(() => server.close());
  const a = await rotationApp({
    defer,
    provider: ["oidc", { id: "corp", issuer: server.issuer }, { tokens: { refresh: true, federatedLogout: true } }],
    env: {
      AUTH_CORP_ID: client.clientId,
      AUTH_CORP_SECRET: client.clientSecret,
      AUTH_SECRET: "e2e-secret-that-is-long-enough-for-jose-0123456789",
      AUTH_POST_LOGOUT_REDIRECT_URI: POST_LOGOUT,
      AUTH_TRUST_HOST: "true",
    },
    strategy,
    account: { provider: "corp", providerAccountId: account.sub },
    postLogoutRedirectUri: POST_LOGOUT,
    diagnostics: () => server.errors.join("\n"),
    handler:
      wiring === "web"
        ? async (_auth, loaded) => {
            const session = await renderTemplate("frameworks/web/session.ts.hbs", {
              title: "a Web-standard framework",
              basePath: BASE_PATH,
              configModule: "./app-auth.js",
              clientAddressModule: "./client-address.js",
              federatedSignOut: true,
            });
            writeModule(loaded.dir, "session.ts", session);
            writeModule(
              loaded.dir,
              "client-address.ts",
              await renderTemplate("frameworks/web/client-address.ts.hbs", {}),
            );
            return (await loaded.module<{ handleAuth: Handler }>("session.ts")).handleAuth;
          }
        : undefined,
  });

  /** Auth.js's sign-out as a form posts it (its CSRF token, and `fields`). */
  async function postSignOut(fields: Record<string, string>, headers: Record<string, string> = {}) {
    const csrf = (await (await a.browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as {
      csrfToken: string;
    };
    return a.browser.request(`${APP_ORIGIN}${BASE_PATH}/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields }),
    });
  }

  return { ...a, server, postSignOut };
}

/**
 * The browser at the provider's end-session URL: the hint is accepted (a bad one is an error page, not the
 * confirmation form), the user confirms, and the provider sends the browser to the post-logout redirect URI.
 */
export async function confirmAtProvider(a: OidcRotationApp, endSession: string) {
  const page = await a.browser.request(endSession);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  expect(action && xsrf, html).toBeTruthy();
  const confirmed = await a.browser.request(new URL(action!, a.server.issuer), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf: xsrf!, logout: "yes" }),
  });
  expect(confirmed.headers.get("location")).toBe(POST_LOGOUT);
}
