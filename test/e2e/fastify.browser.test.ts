/**
 * Fastify as its users have it (fixtures/apps/fastify): init registers Auth.js in
 * src/server.ts and protects /dashboard; tsc builds, node dist/server.js
 * serves it, and Chromium signs in by password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("Fastify", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, tsc, node dist/server.js, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow({ app: "fastify", basePath: "/auth" }, { ...tools, defer });
    console.log(`[fastify] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
