/**
 * Astro as its users have it (fixtures/apps/astro: the Node adapter, pages
 * prerendered): init adds the Auth.js API route, a middleware protecting
 * /dashboard (made on-demand) and the env loader; astro build, node
 * ./dist/server/entry.mjs serves it on Node 24, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Astro", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, astro build, the Node server, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow({ app: "astro", basePath: "/api/auth" }, { ...tools, defer });
    console.log(`[astro] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
