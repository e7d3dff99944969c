/**
 * Access-token rotation and federated sign-out, as init generates them
 * (--refresh-tokens --federated-logout), through the real Auth() against a
 * real OpenID Provider (oidc-provider): access tokens living 12 seconds of a
 * clock the test moves on, refresh tokens rotated at every use (a reused one
 * revokes the grant), revocation and RP-initiated logout. The app under test
 * is the one init writes (framework "none", rotation-app.ts) with the generated
 * oidc provider.
 */

import { customFetch } from "@auth/core";
import { describe, expect, test, vi } from "vitest";
import { APP_ORIGIN, BASE_PATH } from "../e2e/auth-harness.js";
import { useCleanup } from "../e2e/cleanup.js";
import {
  account,
  claims,
  client,
  confirmAtProvider,
  type OidcRotationOptions,
  oidcRotationApp,
  POST_LOGOUT,
  refreshes,
  reused,
  type Strategy,
  untilExpired,
} from "./oidc-rotation.js";

const TIMEOUT = 60_000;

describe("generated token rotation and federated sign-out through Auth()", () => {
  const defer = useCleanup();
  const app = (strategy: Strategy, options?: OidcRotationOptions) => oidcRotationApp(defer, strategy, options);

  test(
    "discovery, refresh and revocation go through the provider's customFetch, never the global fetch",
    async () => {
      const a = await app("database");
      await a.signIn();
      const origin = new URL(a.server.issuer).origin;
      const network = globalThis.fetch;
      const sent: string[] = [];
      (a.config.providers[0] as unknown as Record<symbol, typeof fetch>)[customFetch] = (input, init) => {
        sent.push(`${init?.method ?? "GET"} ${new URL(input instanceof Request ? input.url : input).pathname}`);
        return network(input, init);
      };
      const leaked: string[] = [];
      globalThis.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        if (url.origin === origin) {
          leaked.push(url.pathname);
          return Promise.reject(new Error(`global fetch to ${url.pathname}`));
        }
        return network(input, init);
      };
      defer(() => {
        globalThis.fetch = network;
      });
      untilExpired();
      expect(await a.readSession()).not.toHaveProperty("error");
      const id = await a.userId();
      await a.config.events!.signOut!({ session: { userId: id, sessionToken: "x", expires: new Date() } });
      expect(leaked).toEqual([]);
      expect(sent).toEqual(["GET /.well-known/openid-configuration", "POST /token", "POST /token/revocation"]);
      expect(refreshes(a.server)).toBe(1);
      expect(a.server.revokedGrants.length).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  test(
    "a refresh is refused when its ID token names another user; one for the same user replaces the stored one",
    async () => {
      const a = await app("database");
      await a.signIn();
      const before = await a.stored();
      untilExpired();
      expect(await a.readSession()).not.toHaveProperty("error");
      const renewed = await a.stored();
      // The refresh's own ID token, for the same user, is the one the next end-session redirect names.
      expect(renewed.id_token).not.toBe(before.id_token);
      expect(claims(renewed.id_token!)).toMatchObject({ sub: account.sub, aud: client.clientId });

      // A token endpoint that answers with somebody else's ID token (a mix-up, a misconfigured proxy).
      const network = globalThis.fetch;
      (a.config.providers[0] as unknown as Record<symbol, typeof fetch>)[customFetch] = async (input, init) => {
        const response = await network(input, init);
        if (!String(init?.body).includes("grant_type=refresh_token")) return response;
        const tokens = (await response.json()) as Record<string, string>;
        const [head, , signature] = tokens.id_token!.split(".");
        const other = { ...claims(tokens.id_token!), sub: "someone-else" };
        const body = Buffer.from(JSON.stringify(other)).toString("base64url");
        return Response.json({ ...tokens, id_token: `${head}.${body}.${signature}` });
      };
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      untilExpired();
      expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
      expect(logged.mock.calls.join("\n")).toMatch(/corp's refreshed ID token names another user/);
      expect((await a.stored()).id_token).toBe(renewed.id_token);
    },
    TIMEOUT,
  );

  describe.each<Strategy>(["jwt", "database"])("%s sessions", (strategy) => {
    test(
      "the provider is asked for a refresh token; two expiries in a row are refreshed on session reads",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        // offline_access with prompt=consent is what makes an OpenID provider hand out a refresh token.
        expect(a.server.logins[0]?.scope.split(" ")).toContain("offline_access");
        const first = await a.stored();
        expect(first.refresh_token).toEqual(expect.any(String));
        expect(a.sessionCookie()!.length).toBeLessThan(2000);

        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        const second = await a.stored();
        expect(second.access_token).not.toBe(first.access_token);
        expect(second.refresh_token).not.toBe(first.refresh_token);
        expect(second.expires_at).toBeGreaterThan(Date.now() / 1000);

        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        const third = await a.stored();
        expect(third.refresh_token).not.toBe(second.refresh_token);
        expect(refreshes(a.server)).toBe(2);
        expect(reused(a.server)).toEqual([]);
        // Not expired: a read leaves the tokens alone, and getAccessToken hands out the stored one.
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(await a.generatedConfig.getAccessToken(await a.userId(), "corp")).toBe(third.access_token);
        expect(refreshes(a.server)).toBe(2);
      },
      TIMEOUT,
    );

    test(
      "two simultaneous reads after expiry present the refresh token once; so do two processes sharing the database",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        untilExpired();
        const [one, two] = await Promise.all([a.readSession(), a.readSession()]);
        expect(one).not.toHaveProperty("error");
        expect(two).not.toHaveProperty("error");
        expect(refreshes(a.server)).toBe(1);

        // A second process: its own instance of the module (its own single flight), the same stored account.
        untilExpired();
        const other = await a.secondProcess();
        const id = await a.userId();
        const [mine, theirs] = await Promise.all([
          a.generatedConfig.getAccessToken(id, "corp"),
          other.getAccessToken(id, "corp"),
        ]);
        expect(mine).toEqual(expect.any(String));
        expect(theirs).toBe(mine);
        expect(refreshes(a.server)).toBe(2);
        expect(reused(a.server)).toEqual([]);
      },
      TIMEOUT,
    );

    test(
      "a read whose Set-Cookie is dropped (a server component) does not break the next read",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        untilExpired();
        expect(await a.readSession({ dropCookies: true })).not.toHaveProperty("error");
        expect(await a.readSession()).not.toHaveProperty("error");
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshes(a.server)).toBe(2);
        expect(reused(a.server)).toEqual([]);
      },
      TIMEOUT,
    );

    test(
      "sign-out revokes the grant and sends the browser to end_session with a valid id_token_hint; signing in again refreshes",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const before = await a.stored();
        const redirectTo = await a.generatedConfig.signOutUrl(await a.userId());
        const endSession = new URL(redirectTo!);
        expect(endSession.origin + endSession.pathname).toBe(`${a.server.issuer}/session/end`);
        expect(Object.fromEntries(endSession.searchParams)).toEqual({
          id_token_hint: before.id_token,
          client_id: client.clientId,
          post_logout_redirect_uri: POST_LOGOUT,
        });

        // Auth.js's own sign-out, as signOut({ redirectTo }) posts it.
        const csrf = (await (await a.browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as {
          csrfToken: string;
        };
        const signOut = await a.browser.request(`${APP_ORIGIN}${BASE_PATH}/signout`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: redirectTo! }),
        });
        expect(signOut.status).toBe(302);
        expect(signOut.headers.get("location")).toBe(redirectTo);
        expect(a.sessionCookie()).toBeUndefined();
        // Revoked (RFC 7009): the refresh token no longer works at the provider.
        expect(a.server.revokedGrants.length).toBeGreaterThan(0);
        const retry = await fetch(`${a.server.issuer}/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
          },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: before.refresh_token! }),
        });
        expect(retry.status).toBe(400);
        expect(((await retry.json()) as { error: string }).error).toBe("invalid_grant");
        // That refusal is the one error the provider may report from here on.
        const errorsSoFar = a.server.errors.length;

        await confirmAtProvider(a, redirectTo!);
        expect(a.server.endedSessions).toBe(1);

        // Signing in again: the provider asks for a login (its session ended), and the fresh tokens reach the account.
        await a.signIn();
        expect(a.server.logins.map((l) => l.prompt)).toEqual(["login", "login"]);
        const after = await a.stored();
        expect(after.refresh_token).not.toBe(before.refresh_token);
        expect(after.access_token).not.toBe(before.access_token);
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshes(a.server)).toBe(1);
        expect(a.server.errors.slice(errorsSoFar)).toEqual([]);
      },
      TIMEOUT,
    );

    test(
      "wired by add-provider into init's config without token flags: refreshed on read, and the config's handleAuth sends a plain sign-out on to end_session",
      async () => {
        const a = await app(strategy, { wiring: "add-provider" });
        await a.signIn();
        expect(a.server.logins[0]?.scope.split(" ")).toContain("offline_access");
        const first = await a.stored();
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect((await a.stored()).refresh_token).not.toBe(first.refresh_token);
        expect(refreshes(a.server)).toBe(1);
        expect(await a.generatedConfig.getAccessToken(await a.userId(), "corp")).toBe((await a.stored()).access_token);

        // The sign-out page's form: its CSRF token, no callbackUrl.
        const { id_token } = await a.stored();
        const csrf = (await (await a.browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as {
          csrfToken: string;
        };
        const signOut = await a.browser.request(`${APP_ORIGIN}${BASE_PATH}/signout`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: csrf.csrfToken }),
        });
        expect(signOut.status).toBe(302);
        const endSession = new URL(signOut.headers.get("location")!);
        expect(endSession.origin + endSession.pathname).toBe(`${a.server.issuer}/session/end`);
        expect(Object.fromEntries(endSession.searchParams)).toEqual({
          id_token_hint: id_token,
          client_id: client.clientId,
          post_logout_redirect_uri: POST_LOGOUT,
        });
        expect(a.sessionCookie()).toBeUndefined();
        expect(a.server.revokedGrants.length).toBeGreaterThan(0);
        await confirmAtProvider(a, endSession.href);
        expect(a.server.endedSessions).toBe(1);
        expect(reused(a.server)).toEqual([]);
      },
      TIMEOUT,
    );

    describe("a plain sign-out through the Web-standard handleAuth()", () => {
      test(
        "the sign-out page's form (its CSRF token, no callbackUrl) ends the app session and goes on to end_session with a valid id_token_hint",
        async () => {
          const a = await app(strategy, { wiring: "web" });
          await a.signIn();
          const { id_token } = await a.stored();
          const signOut = await a.postSignOut({});
          expect(signOut.status).toBe(302);
          const endSession = new URL(signOut.headers.get("location")!);
          expect(endSession.origin + endSession.pathname).toBe(`${a.server.issuer}/session/end`);
          expect(Object.fromEntries(endSession.searchParams)).toEqual({
            id_token_hint: id_token,
            client_id: client.clientId,
            post_logout_redirect_uri: POST_LOGOUT,
          });
          expect(a.sessionCookie()).toBeUndefined();
          expect(a.server.revokedGrants.length).toBeGreaterThan(0);

          await confirmAtProvider(a, endSession.href);
          expect(a.server.endedSessions).toBe(1);

          // Auth.js kept the sign-out's callbackUrl in a cookie: a sign-in given none must land on the app, not sign out again.
          await a.signIn({});
          expect(a.server.endedSessions).toBe(1);
        },
        TIMEOUT,
      );

      test(
        "a client's signOut() (the page as callbackUrl, the URL asked for as JSON) gets the end_session URL instead",
        async () => {
          const a = await app(strategy, { wiring: "web" });
          await a.signIn();
          const signOut = await a.postSignOut(
            { callbackUrl: `${APP_ORIGIN}/account` },
            { "x-auth-return-redirect": "1" },
          );
          expect(signOut.status).toBe(200);
          const { url } = (await signOut.json()) as { url: string };
          expect(url).toBe(await a.generatedConfig.signOutUrl(await a.userId()));
          expect(url.startsWith(`${a.server.issuer}/session/end?`)).toBe(true);
          expect(a.sessionCookie()).toBeUndefined();
        },
        TIMEOUT,
      );

      test(
        "with the provider out of reach, sign-out still ends the app session and goes to the usual page",
        async () => {
          const a = await app(strategy, { wiring: "web" });
          await a.signIn();
          await a.server.close();
          const signOut = await a.postSignOut({ callbackUrl: `${APP_ORIGIN}/bye` });
          expect(signOut.status).toBe(302);
          expect(signOut.headers.get("location")).toBe(`${APP_ORIGIN}/bye`);
          expect(a.sessionCookie()).toBeUndefined();
        },
        TIMEOUT,
      );
    });
  });
});
