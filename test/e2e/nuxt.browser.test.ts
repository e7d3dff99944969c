/**
 * Nuxt 4 as its users have it (fixtures/apps/nuxt): init adds the Auth.js
 * server route, a server middleware protecting /dashboard and the env
 * loader (which Nitro's build must keep); nuxt build, node
 * .output/server/index.mjs serves it on Node 24, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Nuxt", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, nuxt build, the Node server, then sign-in, the protected page and sign-out in Chromium", async () => {
    const timings = await signInFlow({ app: "nuxt", basePath: "/api/auth", clientRouter: true }, { ...tools, defer });
    console.log(`[nuxt] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
