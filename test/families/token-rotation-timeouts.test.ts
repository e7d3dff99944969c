/**
 * The generated token rotation when the identity provider takes a request and never answers (issue 39),
 * through the real Auth(): every use of the provider (a refresh with its discovery, a revocation, the
 * discovery behind sign-out) has a time limit, so a session read and a sign-out answer within seconds, the
 * single flight ends, and the provider is asked again once it recovers. The limits are real timers, so each
 * test waits one out; the back-off after it is a move of the clock.
 */
import { customFetch } from "@auth/core";
import { describe, expect, test } from "vitest";
import { APP_ORIGIN } from "../e2e/auth-harness.js";
import { useCleanup } from "../e2e/cleanup.js";
import {
  afterBackOff,
  errorLog,
  type OidcRotationOptions,
  oidcRotationApp,
  PROVIDER_TIMEOUT_MS,
  refreshAnswers,
  type Strategy,
  untilExpired,
} from "./oidc-rotation.js";

const TIMEOUT = 60_000;
/** How long a read held by the provider may take here: the 5 s limit, and room for a slow, busy machine. */
const ANSWERS_WITHIN_MS = 15_000;

/** Real time, not the faked Date: what `work` answered and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

describe("generated token rotation when the provider never answers", () => {
  const defer = useCleanup();
  const app = (strategy: Strategy, options?: OidcRotationOptions) => oidcRotationApp(defer, strategy, options);

  describe.each<Strategy>(["jwt", "database"])("%s sessions", (strategy) => {
    test(
      "a token endpoint that holds the request: the reads answer within seconds with the error flag; after the back-off a read refreshes once the provider answers",
      async () => {
        const a = await app(strategy);
        await a.signIn();
        const before = await a.stored();
        a.server.setFault("/token", "hang");
        const logged = errorLog(defer);

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
      const logged = errorLog(defer);
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
      const logged = errorLog(defer);
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
      errorLog(defer);
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
