/**
 * React Router 7 in framework mode as its users have it (fixtures/apps/react-router-7):
 * init adds the resource route app/routes/api.auth.$.ts to app/routes.ts and
 * protects /dashboard from app/root.tsx's loader; react-router build, then
 * react-router-serve serves it, and Chromium signs in by password and by email link.
 */
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("React Router 7", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, react-router build, typegen + tsc, react-router-serve, then sign-in, the protected page, sign-out, then two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow(
      {
        app: "react-router-7",
        basePath: "/api/auth",
        typecheckScript: "typecheck",
        clientRouter: true,
        noClientAddress: true,
      },
      { ...tools, defer },
    );
    console.log(`[react-router-7] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
