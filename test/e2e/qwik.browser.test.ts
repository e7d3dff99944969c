/**
 * Qwik City as its users have it (fixtures/apps/qwik, the Node server
 * adapter): init writes src/routes/plugin@auth.ts (@auth/qwik's QwikAuth$,
 * the auth config imported on the server only) and protects /dashboard/;
 * the client and server builds pass with the database driver and mailer
 * kept out of the browser's bundle; node server/entry.node-server serves it,
 * and Chromium signs in by password and by email link. With
 * --refresh-tokens --federated-logout and an OpenID provider on loopback, the
 * plugin's onRequest hands @auth/qwik the sign-out page's POST /auth/signout
 * rewritten, so it reaches the provider's end_session endpoint.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

/** The browser's build (dist/): none of the server-only modules, nor the config that imports them. */
function expectClientBuildServerFree(dir: string) {
  const files = readdirSync(join(dir, "dist"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".js"))
    .map((e) => join(e.parentPath, e.name));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files)
    expect(readFileSync(file, "utf8"), file).not.toMatch(/better-sqlite3|nodemailer|verifyUserPassword|createAdapter/);
}

describe("Qwik City", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect --refresh-tokens --federated-logout, vite builds, tsc, the Node server, then sign-in, the protected page, sign-out and federated sign-out in Chromium", async () => {
    const timings = await signInFlow(
      {
        app: "qwik",
        basePath: "/auth",
        afterBuild: expectClientBuildServerFree,
        typecheckScript: "build.types",
        federatedSignOut: true,
      },
      { ...tools, defer },
    );
    console.log(`[qwik] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
