/**
 * The generated token rotation when the identity provider misbehaves (issue 39), through the real Auth() with
 * jwt and database sessions, against the local OpenID Provider made to misbehave (oidc-server.ts): a refresh
 * token it refuses for good is presented once, a provider that is down is asked again only after a back-off,
 * and every request to it has a time limit, so a session read and a sign-out answer within seconds whatever
 * the provider does. And what already held and must keep holding: a refresh answered without a refresh
 * token, discovery without an end-session endpoint, a new signing key between sign-in and refresh.
 *
 * Waits on the back-off move the clock (Date only, as the provider, Auth.js and the module all read it); the
 * time limits are real timers, so those tests wait them out, once each.
 */
import { customFetch } from "@auth/core";
import { describe, expect, test, vi } from "vitest";
import { APP_ORIGIN } from "../e2e/auth-harness.js";
import { useCleanup } from "../e2e/cleanup.js";
import type { OidcServer } from "../e2e/oidc-server.js";
import {
  account,
  claims,
  client,
  confirmAtProvider,
  type OidcRotationApp,
  type OidcRotationOptions,
  oidcRotationApp,
  reused,
  type Strategy,
  untilExpired,
} from "./oidc-rotation.js";

const TIMEOUT = 60_000;
/** The generated module's limits, as the README states them: one use of the provider, and the back-off after a failure. */
const PROVIDER_TIMEOUT_MS = 5_000;
const RETRY_AFTER_MS = 10_000;
/** How long a read held by the provider may take here: the 5 s limit, and room for a slow, busy machine. */
const ANSWERS_WITHIN_MS = 15_000;

/** The clock moves past the back-off that follows a failed refresh. */
const afterBackOff = () => vi.setSystemTime(Date.now() + RETRY_AFTER_MS + 1_000);

/** What the token endpoint answered to each refresh it was sent ("held": it never answered). */
const refreshAnswers = (server: OidcServer) =>
  server.tokenRequests.filter((r) => r.grant === "refresh_token").map((r) => r.status);

/** Real time, not the faked Date: what `work` answered and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

const kidOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split(".")[0]!, "base64url").toString()) as { kid?: string }).kid;

describe("generated token rotation when the provider misbehaves", () => {
  const defer = useCleanup();
  const app = (strategy: Strategy, options?: OidcRotationOptions) => oidcRotationApp(defer, strategy, options);

  /** console.error, where the module logs a failed refresh, silenced and recorded. */
  function errorLog() {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    defer(() => logged.mockRestore());
    return () => logged.mock.calls.map((call) => call.join(" "));
  }

  /** Reads as a burst of page loads makes them: two at once, then one more. */
  async function burst(a: OidcRotationApp) {
    const reads = [...(await Promise.all([a.readSession(), a.readSession()])), await a.readSession()];
    for (const read of reads)
      expect(read).toMatchObject({ error: "RefreshTokenError", user: { email: account.email } });
  }

  describe.each<Strategy>(["jwt", "database"])("%s sessions", (strategy) => {
    test(
      "a refresh token the provider refused (invalid_grant) is sent once; later reads and another process do not send it; signing in again refreshes",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const before = await a.stored();
        // An administrator ends the user's sessions at the provider: the refresh token is dead.
        await a.server.endGrants();
        const logged = errorLog();

        untilExpired();
        await burst(a);
        // Long after any back-off, in this process and in another one sharing the database.
        vi.setSystemTime(Date.now() + 5 * 60_000);
        expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
        const other = await a.secondProcess();
        await expect(other.getAccessToken(await a.userId(), "corp")).rejects.toThrow(/without a refresh token/);
        expect(refreshAnswers(a.server)).toEqual([400]);
        expect(a.server.errors).toEqual([expect.stringMatching(/^grant\.error: invalid_grant/)]);
        // One line for the one refusal, naming what the provider said; the other process, which never asked,
        // says once that the account has no refresh token.
        expect(logged()).toEqual([
          expect.stringMatching(/corp refused the refresh \(HTTP 400, invalid_grant.*not sent again/),
          expect.stringMatching(/corp accounts without a refresh token/),
        ]);
        // The dead refresh token is dropped; the access token stays as it was.
        const marked = await a.stored();
        expect(marked.refresh_token ?? undefined).toBeUndefined();
        expect(marked.access_token).toBe(before.access_token);

        await a.signIn();
        expect(await a.readSession()).not.toHaveProperty("error");
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshAnswers(a.server)).toEqual([400, 200]);
        expect((await a.stored()).refresh_token).toEqual(expect.any(String));
      },
      TIMEOUT,
    );

    test(
      "a token endpoint answering 503: reads within the back-off do not ask again; the first read after it does, and refreshes once the provider is back",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const before = await a.stored();
        a.server.setFault("/token", "unavailable");
        const logged = errorLog();

        untilExpired();
        await burst(a);
        expect(refreshAnswers(a.server)).toEqual([503]);
        // A refresh that may work later keeps its refresh token.
        expect(await a.stored()).toMatchObject({
          access_token: before.access_token,
          refresh_token: before.refresh_token,
        });

        afterBackOff();
        await burst(a);
        expect(refreshAnswers(a.server)).toEqual([503, 503]);
        expect(logged()).toEqual([
          expect.stringMatching(/corp refused the refresh \(HTTP 503, temporarily_unavailable/),
          expect.stringMatching(/corp refused the refresh \(HTTP 503, temporarily_unavailable/),
        ]);

        a.server.setFault("/token", undefined);
        // Still within the back-off of the last failure.
        expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
        afterBackOff();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshAnswers(a.server)).toEqual([503, 503, 200]);
        expect(reused(a.server)).toEqual([]);
      },
      TIMEOUT,
    );

    test(
      "two processes sharing the database at a provider answering 503 ask it once between them",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        a.server.setFault("/token", "unavailable");
        const logged = errorLog();
        untilExpired();
        const id = await a.userId();
        const other = await a.secondProcess();
        // One takes the lease and fails; the other, which waited on it, does not ask again at once.
        const reads = await Promise.allSettled([
          a.generatedConfig.getAccessToken(id, "corp"),
          other.getAccessToken(id, "corp"),
        ]);
        expect(reads.map((r) => r.status)).toEqual(["rejected", "rejected"]);
        expect(refreshAnswers(a.server)).toEqual([503]);
        expect(logged()).toEqual([expect.stringMatching(/corp refused the refresh \(HTTP 503/)]);

        // Both wait out the back-off, then one of them refreshes for both.
        a.server.setFault("/token", undefined);
        afterBackOff();
        const [mine, theirs] = await Promise.all([
          a.generatedConfig.getAccessToken(id, "corp"),
          other.getAccessToken(id, "corp"),
        ]);
        expect(theirs).toBe(mine);
        expect(refreshAnswers(a.server)).toEqual([503, 200]);
      },
      TIMEOUT,
    );

    test(
      "a token endpoint that holds the request: the reads answer within seconds with the error flag; after the back-off a read refreshes once the provider answers",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const before = await a.stored();
        a.server.setFault("/token", "hang");
        const logged = errorLog();

        untilExpired();
        const { value: reads, ms } = await timed(() => Promise.all([a.readSession(), a.readSession()]));
        for (const read of reads) expect(read).toMatchObject({ error: "RefreshTokenError" });
        // It waited for the time limit (the request was held), and not much longer.
        expect(ms).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS - 50);
        expect(ms).toBeLessThan(ANSWERS_WITHIN_MS);
        expect(refreshAnswers(a.server)).toEqual(["held"]);
        expect(logged()).toEqual([
          expect.stringMatching(/corp.s refresh failed: the provider did not answer within 5 seconds/),
        ]);
        expect(await a.stored()).toMatchObject({
          access_token: before.access_token,
          refresh_token: before.refresh_token,
        });

        a.server.setFault("/token", undefined);
        afterBackOff();
        const { value: recovered, ms: quick } = await timed(() => a.readSession());
        expect(recovered).not.toHaveProperty("error");
        expect(quick).toBeLessThan(ANSWERS_WITHIN_MS);
        expect(refreshAnswers(a.server)).toEqual(["held", 200]);
        expect((await a.stored()).access_token).not.toBe(before.access_token);
      },
      TIMEOUT,
    );

    test(
      "a refresh answered without a refresh token keeps the old one, which refreshes again at the next expiry",
      async () => {
        const a = await app(strategy, { tokens: { refreshAnswer: "omit" } });
        await a.signIn();
        const first = await a.stored();
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        const second = await a.stored();
        expect(second.access_token).not.toBe(first.access_token);
        expect(second.refresh_token).toBe(first.refresh_token);
        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        expect((await a.stored()).refresh_token).toBe(first.refresh_token);
        expect(refreshAnswers(a.server)).toEqual([200, 200]);

        // The provider did answer without one: a refresh asked by hand gets none either.
        const answer = await fetch(`${a.server.issuer}/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
          },
          body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: first.refresh_token! }),
        });
        const tokens = (await answer.json()) as Record<string, unknown>;
        expect(tokens.access_token).toEqual(expect.any(String));
        expect(tokens).not.toHaveProperty("refresh_token");
      },
      TIMEOUT,
    );

    test(
      "discovery names no end_session_endpoint: sign-out ends the app session and lands on the app, and no end-session URL is made up",
      async () => {
        const a = await app(strategy, { wiring: "web", tokens: { endSession: false } });
        const discovery = (await (await fetch(`${a.server.issuer}/.well-known/openid-configuration`)).json()) as object;
        expect(discovery).not.toHaveProperty("end_session_endpoint");
        await a.signIn();
        expect(await a.generatedConfig.signOutUrl(await a.userId())).toBeNull();
        const asked = a.server.log.length;

        const signOut = await a.postSignOut({ callbackUrl: `${APP_ORIGIN}/bye` });
        expect(signOut.status).toBe(302);
        expect(signOut.headers.get("location")).toBe(`${APP_ORIGIN}/bye`);
        expect(a.sessionCookie()).toBeUndefined();
        // Revocation still happens; nothing else is asked of the provider.
        expect(a.server.revokedGrants.length).toBeGreaterThan(0);
        const paths = new Set(a.server.log.slice(asked).map((e) => e.path));
        expect([...paths].filter((p) => p !== "/.well-known/openid-configuration")).toEqual(["/token/revocation"]);
      },
      TIMEOUT,
    );

    test(
      "the provider signs with a new key between sign-in and refresh: the refresh stores the new key's ID token, which the provider accepts as the end-session hint",
      async () => {
        const a = await app(strategy, { wiring: "web" });
        await a.signIn();
        const before = await a.stored();
        const newKid = a.server.rotateSigningKey();
        expect(kidOf(before.id_token!)).not.toBe(newKid);

        untilExpired();
        expect(await a.readSession()).not.toHaveProperty("error");
        const after = await a.stored();
        expect(kidOf(after.id_token!)).toBe(newKid);
        expect(claims(after.id_token!)).toMatchObject({ sub: account.sub, aud: client.clientId });

        const signOut = await a.postSignOut({});
        const endSession = new URL(signOut.headers.get("location")!);
        expect(endSession.searchParams.get("id_token_hint")).toBe(after.id_token);
        await confirmAtProvider(a, endSession.href);
        expect(a.server.endedSessions).toBe(1);
        // The sign-in's ID token, signed with the key the provider dropped, would not have been accepted.
        const stale = new URL(endSession);
        stale.searchParams.set("id_token_hint", before.id_token!);
        expect((await fetch(stale)).status).toBe(400);
      },
      TIMEOUT,
    );
  });

  test(
    "a customFetch that drops the time limit's signal cannot hold the read either",
    async () => {
      const a = await app("database");
      await a.signIn();
      const network = globalThis.fetch;
      (a.config.providers[0] as unknown as Record<symbol, typeof fetch>)[customFetch] = (input, init) =>
        network(input, { ...init, signal: null });
      a.server.setFault("/token", "hang");
      const logged = errorLog();
      untilExpired();
      const { value, ms } = await timed(() => a.readSession());
      expect(value).toMatchObject({ error: "RefreshTokenError" });
      expect(ms).toBeLessThan(ANSWERS_WITHIN_MS);
      expect(refreshAnswers(a.server)).toEqual(["held"]);
      expect(logged()).toEqual([
        expect.stringMatching(/corp.s refresh failed: the provider did not answer within 5 seconds/),
      ]);
    },
    TIMEOUT,
  );

  test(
    "a revocation endpoint that holds the request: sign-out still answers within seconds and goes on to end_session",
    async () => {
      const a = await app("jwt", { wiring: "web" });
      await a.signIn();
      a.server.setFault("/token/revocation", "hang");
      const logged = errorLog();
      const { value: signOut, ms } = await timed(() => a.postSignOut({}));
      expect(ms).toBeGreaterThanOrEqual(PROVIDER_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(ANSWERS_WITHIN_MS);
      expect(signOut.status).toBe(302);
      expect(signOut.headers.get("location")).toMatch(new RegExp(`^${a.server.issuer}/session/end\\?`));
      expect(a.sessionCookie()).toBeUndefined();
      expect(logged()).toEqual([expect.stringMatching(/revoking the corp refresh token failed: .*5 seconds/)]);
    },
    TIMEOUT,
  );

  test(
    "a discovery that holds the request: sign-out answers within seconds, once, ends the app session and goes to the usual page",
    async () => {
      const a = await app("database", { wiring: "web" });
      await a.signIn();
      a.server.setFault("/.well-known/openid-configuration", "hang");
      errorLog();
      const asked = a.server.log.length;
      const { value: signOut, ms } = await timed(() => a.postSignOut({ callbackUrl: `${APP_ORIGIN}/bye` }));
      expect(ms).toBeLessThan(ANSWERS_WITHIN_MS);
      expect(signOut.status).toBe(302);
      expect(signOut.headers.get("location")).toBe(`${APP_ORIGIN}/bye`);
      expect(a.sessionCookie()).toBeUndefined();
      // The sign-out's second need of discovery (revocation) does not wait on the provider again.
      expect(a.server.log.slice(asked).map((e) => e.path)).toEqual(["/.well-known/openid-configuration"]);
    },
    TIMEOUT,
  );
});
