/**
 * Two-factor sign-in in Chromium on Next.js, SvelteKit and Express, as new users get them: a fresh app of
 * fixtures/apps/, `create-auth init --yes --providers credentials --two-factor totp` and no file written by
 * hand, the app type-checked (the generated route and pages included), built and started as in production,
 * a user added with `npm run auth:add-user`, then the flow of two-factor-flow.ts: enrol, sign out, password
 * and code, a replayed code refused, a recovery code once.
 *
 * The frameworks built and started by their own npm scripts (Astro, Hono, Fastify, Nitro 3 and 2,
 * SolidStart, TanStack Start, Qwik City, React Router 7) run the same flow on the build of their sign-in
 * test (`twoFactor` in framework-flow.ts): one production build per framework serves both.
 *
 * Needs the built CLI (dist/), /usr/bin/chromium and the npm registry for the
 * first install (cached in .cache/e2e-apps/) and for jsQR (.cache/qr-reader-*).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import {
  addUser,
  appEnv,
  buildNextWithoutDatabase,
  freePort,
  freshApp,
  launchChromium,
  runBuild,
  startNext,
  startServer,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { twoFactorFlow } from "./two-factor-flow.js";

const bin = join(root, "bin/create-auth.js");
const user = { email: "dana@example.com", password: "a long enough password" };
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function init(dir: string) {
  const result = await execa("node", [bin, "init", "--yes", "--providers", "credentials", "--two-factor", "totp"], {
    cwd: dir,
    env: appEnv(),
    reject: false,
  });
  expect(result.stderr).toBe("");
  expect(result.exitCode, result.stdout).toBe(0);
  return result.stdout;
}

/** tsc over the whole app, the generated files with it. */
async function typecheck(dir: string) {
  const result = await execa("node", [join(dir, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", dir], {
    cwd: dir,
    reject: false,
    all: true,
  });
  expect(result.all).toBe("");
  expect(result.exitCode).toBe(0);
}

describe("two-factor sign-in in Chromium", () => {
  const defer = useCleanup();

  test("Next.js: enrol, sign out, password and code, a replayed code refused, a recovery code once", async () => {
    const dir = await freshApp("next", defer);
    const out = await init(dir);
    expect(out).toContain("created app/two-factor/[[...path]]/route.ts");
    expect(out).toContain("/two-factor");
    await typecheck(dir);
    const built = await buildNextWithoutDatabase(dir, "auth.db");
    expect(built.exitCode, built.output).toBe(0);
    await addUser(dir, user.email, user.password);
    const server = await startNext(dir, {}, defer);
    await twoFactorFlow(browser, { origin: server.origin, basePath: "/api/auth", output: server.output }, user, defer);
  }, 600_000);

  test("SvelteKit: the same on vite build + preview, the pages a +server.ts route", async () => {
    const dir = await freshApp("sveltekit", defer);
    const out = await init(dir);
    expect(out).toContain("created src/routes/two-factor/[...path]/+server.ts");
    await addUser(dir, user.email, user.password);
    const vite = join(dir, "node_modules/vite/bin/vite.js");
    const built = await runBuild(dir, ["node", vite, "build"], appEnv());
    expect(built.exitCode, built.all).toBe(0);
    // The build wrote .svelte-kit/tsconfig.json ($lib, $env types), which the app's tsconfig extends.
    await typecheck(dir);
    const port = await freePort();
    const server = await startServer(["node", vite, "preview", "--port", String(port), "--strictPort"], {
      cwd: dir,
      port,
      env: appEnv(),
    });
    defer(() => server.stop());
    await twoFactorFlow(browser, { origin: server.origin, basePath: "/auth", output: server.output }, user, defer);
  }, 600_000);

  test("Express: the same through the generated auth router, whose Node requests become Web Requests", async () => {
    const dir = await freshApp("express", defer);
    await init(dir);
    expect(readFileSync(join(dir, "auth", "express.ts"), "utf8")).toContain("handleTwoFactor(");
    await typecheck(dir);
    await addUser(dir, user.email, user.password);
    const port = await freePort();
    const server = await startServer(["npm", "start"], { cwd: dir, port, env: appEnv({ NODE_ENV: "production" }) });
    defer(() => server.stop());
    await twoFactorFlow(browser, { origin: server.origin, basePath: "/auth", output: server.output }, user, defer);
  }, 600_000);
});
