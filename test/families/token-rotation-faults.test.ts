/**
 * The generated token rotation when the identity provider refuses or fails (issue 39), through the real Auth()
 * with jwt and database sessions, against the local OpenID Provider made to misbehave (oidc-server.ts): a
 * refresh token it refuses for good is presented once, a provider that is down is asked again only after a
 * back-off, in one process and across two. And what already held and must keep holding: a refresh answered
 * without a refresh token, discovery without an end-session endpoint, a new signing key between sign-in and
 * refresh. A provider that never answers: token-rotation-timeouts.test.ts.
 */
import { describe, expect, test, vi } from "vitest";
import { APP_ORIGIN } from "../e2e/auth-harness.js";
import { useCleanup } from "../e2e/cleanup.js";
import {
  account,
  afterBackOff,
  claims,
  client,
  confirmAtProvider,
  errorLog,
  type OidcRotationApp,
  type OidcRotationOptions,
  oidcRotationApp,
  refreshAnswers,
  reused,
  type Strategy,
  untilExpired,
} from "./oidc-rotation.js";

const TIMEOUT = 60_000;

const kidOf = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split(".")[0]!, "base64url").toString()) as { kid?: string }).kid;

describe("generated token rotation when the provider refuses or fails", () => {
  const defer = useCleanup();
  const app = (strategy: Strategy, options?: OidcRotationOptions) => oidcRotationApp(defer, strategy, options);

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
        const logged = errorLog(defer);

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
        const logged = errorLog(defer);

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
        const logged = errorLog(defer);
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
      "a token endpoint answering 429 with Retry-After: 30 is not asked again for 30 seconds",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        a.server.setFault("/token", "busy");
        errorLog(defer);
        untilExpired();
        await burst(a);
        expect(refreshAnswers(a.server)).toEqual([429]);
        // Past the module's own 10-second back-off, within the provider's 30 seconds.
        afterBackOff();
        await burst(a);
        expect(refreshAnswers(a.server)).toEqual([429]);
        a.server.setFault("/token", undefined);
        vi.setSystemTime(Date.now() + 20_000);
        expect(await a.readSession()).not.toHaveProperty("error");
        expect(refreshAnswers(a.server)).toEqual([429, 200]);
      },
      TIMEOUT,
    );

    test(
      "a client secret the provider no longer accepts (invalid_client) is final too: the refresh token is sent once and dropped",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        // The secret was rotated at the provider, not in the app.
        const provider = a.config.providers[0] as unknown as {
          clientSecret?: string;
          options?: { clientSecret?: string };
        };
        provider.clientSecret = "an-old-secret";
        if (provider.options) provider.options.clientSecret = "an-old-secret";
        const logged = errorLog(defer);
        untilExpired();
        await burst(a);
        vi.setSystemTime(Date.now() + 5 * 60_000);
        expect(await a.readSession()).toMatchObject({ error: "RefreshTokenError" });
        expect(refreshAnswers(a.server)).toEqual([401]);
        expect(logged()).toEqual([expect.stringMatching(/corp refused the refresh \(HTTP 401, invalid_client/)]);
        expect((await a.stored()).refresh_token ?? undefined).toBeUndefined();
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
});
