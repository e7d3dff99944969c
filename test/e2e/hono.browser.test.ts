/**
 * Hono as its users have it (fixtures/apps/hono): init mounts Auth.js in
 * src/index.ts and protects /dashboard; tsc builds, node dist/index.js
 * serves it, and Chromium signs in by password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Hono", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, tsc, node dist/index.js, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow({ app: "hono", basePath: "/auth" }, { ...tools, defer });
    console.log(`[hono] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
