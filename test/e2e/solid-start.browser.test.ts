/**
 * SolidStart 2 as its users have it (fixtures/apps/solid-start): init adds the Auth.js
 * API route, a middleware (named in vite.config) protecting /dashboard and the env
 * loader (which Nitro's build must keep); vite build, node
 * .output/server/index.mjs serves it on Node 24, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("SolidStart", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, vite build, the Node server, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow(
      { app: "solid-start", basePath: "/api/auth", clientRouter: true },
      { ...tools, defer },
    );
    console.log(`[solid-start] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
