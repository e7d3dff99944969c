/**
 * Elysia on Node as its users have it (fixtures/apps/elysia): init mounts Auth.js in
 * src/index.ts and protects /dashboard; tsc builds, node dist/index.js
 * serves it, and Chromium signs in by password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Elysia", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, tsc, node dist/index.js, then sign-in, the protected page and sign-out in Chromium", async () => {
    const timings = await signInFlow({ app: "elysia", basePath: "/auth" }, { ...tools, defer });
    console.log(`[elysia] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
