/**
 * Nitro 2 as its users have it (fixtures/apps/nitro-2: nitropack, h3 1,
 * srcDir server/, auto-imported h3 utilities): init adds the Auth.js
 * catch-all route turning the event into a Web Request (toWebRequest), a
 * middleware protecting /dashboard and the env loader (which nitropack's
 * build must keep too); nitro build, the app's own tsc against the types
 * the build wrote for the auto-imports (.nitro/types), node
 * .output/server/index.mjs serves it on Node 20, and Chromium signs in by
 * password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Nitro 2", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, nitro build, tsc, the Node server, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow(
      { app: "nitro-2", basePath: "/api/auth", typecheckScript: "typecheck" },
      { ...tools, defer },
    );
    console.log(`[nitro-2] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
