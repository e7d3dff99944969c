/**
 * TanStack Start as its users have it (fixtures/apps/tanstack-start): init adds the Auth.js
 * server route, a request middleware (src/start.ts) protecting /dashboard and the env
 * loader (which Nitro's build must keep); vite build, node
 * .output/server/index.mjs serves it on Node 24, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("TanStack Start", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, vite build, the Node server, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow(
      { app: "tanstack-start", basePath: "/api/auth", clientRouter: true },
      { ...tools, defer },
    );
    console.log(`[tanstack-start] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
