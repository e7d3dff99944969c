/**
 * Nitro 3 as its users have it (fixtures/apps/nitro, srcDir server/): init adds the Auth.js
 * catch-all route, a middleware protecting /dashboard and the env
 * loader (which Nitro's build must keep); nitro build, node
 * .output/server/index.mjs serves it on Node 20, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Nitro", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, nitro build, the Node server, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow({ app: "nitro", basePath: "/api/auth" }, { ...tools, defer });
    console.log(`[nitro] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
