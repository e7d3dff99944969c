/**
 * The variants of test/variants/hooks.ts as users run them: a fresh
 * installed app, their own hooks or middleware file written in, then
 * `create-auth init --yes`.
 *
 * - Each variant type-checks with the project's own tsconfig afterwards:
 *   `tsc --noEmit -p .`, after the framework writes the types its tsconfig
 *   extends or includes (`svelte-kit sync`, `astro sync`). tsc rather than
 *   svelte-check or astro check: init writes and edits .ts and .js modules
 *   only (no .svelte or .astro component), the apps do not ship those
 *   checkers (@astrojs/check is a separate install), and tsc answers in
 *   seconds.
 * - Next.js with its own proxy.ts and Astro with its own middleware, built
 *   and started as in production: their header is still set on every page,
 *   a signed-out visit to the dashboard is sent to sign in, a signed-in one
 *   is let through their code.
 * - SvelteKit with its own hooks signs in from the production start of
 *   adapter-node (`vite build`, then `node build`, which loads no env file):
 *   the AUTH_SECRET init wrote to .env.local reaches Auth.js, their handle
 *   still sets its header, and the secret is in no file of the build.
 *
 * Needs the built CLI (dist/), /usr/bin/chromium and the npm registry for
 * the first install of each app (cached).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  addUser,
  appEnv,
  appRuntime,
  buildApp,
  buildNextWithoutDatabase,
  crossSitePasswordPost,
  freePort,
  freshApp,
  launchChromium,
  type RunningServer,
  runBuild,
  sessionOf,
  signInWithPassword,
  startApp,
  startNext,
  startServer,
} from "../e2e/apps.js";
import { useCleanup } from "../e2e/cleanup.js";
import { root } from "../helpers.js";
import { type HooksVariant, hooksVariants, ownHeader } from "./hooks.js";

const bin = join(root, "bin/create-auth.js");
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function init(variant: HooksVariant, dir: string, more: string[] = []) {
  const runtime = appRuntime(variant.app);
  const args = [bin, "init", "--yes", ...(variant.protect ? ["--protect", variant.protect] : []), ...more];
  const result = await execa(runtime.node, args, {
    cwd: dir,
    env: runtime.env(),
    extendEnv: false,
    reject: false,
    all: true,
  });
  expect(result.exitCode, result.all).toBe(0);
  return result.all ?? "";
}

/** What the framework generates for its tsconfig to extend (.svelte-kit/tsconfig.json...), then tsc. */
async function typecheck(variant: HooksVariant, dir: string) {
  const runtime = appRuntime(variant.app);
  const run = (args: string[]) =>
    execa(runtime.node, args, { cwd: dir, env: runtime.env(), extendEnv: false, reject: false, all: true });
  const prepare: Partial<Record<HooksVariant["app"], string[]>> = {
    sveltekit: ["node_modules/@sveltejs/kit/svelte-kit.js", "sync"],
    astro: ["node_modules/astro/bin/astro.mjs", "sync"],
  };
  if (prepare[variant.app]) {
    const prepared = await run(prepare[variant.app]!);
    expect(prepared.exitCode, prepared.all).toBe(0);
  }
  const checked = await run(["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]);
  expect(checked.all).toBe("");
  expect(checked.exitCode).toBe(0);
}

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe("own hooks and middleware, init --yes", () => {
  const defer = useCleanup();

  test.each(hooksVariants)(
    "$name: composed, and the project type-checks",
    async (variant) => {
      const dir = await freshApp(variant.app, defer);
      variant.apply(dir);
      await init(variant, dir, ["--no-install"]);
      const text = readFileSync(join(dir, variant.file), "utf8");
      expect(text).toContain(variant.kept);
      expect(text).toMatch(variant.composed);
      await typecheck(variant, dir);
    },
    300_000,
  );

  /** `npm run auth:add-user` on the app's Node, the password on stdin. */
  async function addUserOn(variant: HooksVariant, dir: string, user: { email: string; password: string }) {
    const result = await execa("npm", ["run", "--silent", "auth:add-user", "--", user.email], {
      cwd: dir,
      env: appRuntime(variant.app).env(),
      extendEnv: false,
      input: `${user.password}\n`,
      reject: false,
      all: true,
    });
    expect(result.exitCode, result.all).toBe(0);
  }

  /**
   * Both sides of the composition answer: their middleware still sets its header on `ownPage` (a page rendered
   * for each request: Astro serves a prerendered one as a file, which no middleware sees), a signed-out visit to
   * the protected dashboard is sent to sign in, and once signed in the dashboard is let through (their middleware
   * running there when its matcher named the dashboard).
   */
  async function expectComposed(
    server: RunningServer,
    options: { basePath: string; ownPage: string; ownOnDashboard: boolean },
    user: { email: string; password: string },
  ) {
    const { basePath } = options;
    const own = await fetch(`${server.origin}${options.ownPage}`);
    expect(own.status, server.output()).toBe(200);
    expect(own.headers.get(ownHeader.name)).toBe(ownHeader.value);
    const signedOut = await fetch(`${server.origin}/dashboard`, { redirect: "manual" });
    expect(signedOut.status, server.output()).toBeGreaterThanOrEqual(300);
    expect(signedOut.status).toBeLessThan(400);
    expect(new URL(signedOut.headers.get("location")!, server.origin).pathname).toBe(`${basePath}/signin`);

    const context = await browser.newContext();
    defer(() => context.close());
    const page = await context.newPage();
    await signInWithPassword(page, `${server.origin}${basePath}`, user);
    expect((await sessionOf(page, `${server.origin}${basePath}`))?.user).toMatchObject({ email: user.email });
    const dashboard = await page.goto(`${server.origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    // Their middleware runs on the dashboard only when its own matcher named it (Next.js), and the protected
    // path added to the matcher does not make it run there.
    expect(await dashboard?.headerValue(ownHeader.name)).toBe(options.ownOnDashboard ? ownHeader.value : null);
    expect(server.output()).not.toMatch(/\[auth\]\[error\](?! CredentialsSignin| MissingCSRF)/);
  }

  const user = { email: "erin@example.com", password: "a long enough password" };

  test("Next.js with its own proxy.ts: next build, next start; their header kept, sign-in first on the dashboard", async () => {
    // Their matcher names "/" and /admin only: the dashboard joins the matcher for the sign-in, not for their proxy.
    const variant = hooksVariants.find((v) => v.app === "next" && v.file === "proxy.ts")!;
    const dir = await freshApp("next", defer);
    variant.apply(dir);
    expect(await init(variant, dir)).toContain(`updated ${variant.file}`);
    await addUserOn(variant, dir, user);
    const built = await buildNextWithoutDatabase(dir, "auth.db");
    expect(built.exitCode, built.output).toBe(0);
    await expectComposed(
      await startNext(dir, {}, defer),
      { basePath: "/api/auth", ownPage: "/", ownOnDashboard: false },
      user,
    );
  }, 600_000);

  test("Astro with its own middleware: astro build, the Node server; their header kept, sign-in first on the dashboard", async () => {
    const variant = hooksVariants.find((v) => v.app === "astro" && v.file === "src/middleware.ts")!;
    const dir = await freshApp("astro", defer);
    variant.apply(dir);
    expect(await init(variant, dir)).toContain(`updated ${variant.file}`);
    await addUserOn(variant, dir, user);
    const built = await buildApp("astro", dir);
    expect(built.exitCode, built.all).toBe(0);
    const server = await startApp("astro", dir, {}, defer);
    // Auth.js's route is rendered on demand: their middleware runs after the protected paths' check.
    await expectComposed(server, { basePath: "/api/auth", ownPage: "/api/auth/providers", ownOnDashboard: true }, user);
  }, 600_000);

  test("SvelteKit with its own hooks: vite dev, then vite build and adapter-node's `node build`; sign-in, their header kept", async () => {
    const variant = hooksVariants.find((v) => v.app === "sveltekit" && !v.protect)!;
    const user = { email: "dana@example.com", password: "a long enough password" };
    const dir = await freshApp("sveltekit", defer);
    variant.apply(dir);
    const out = await init(variant, dir);
    expect(out).toContain(`updated ${variant.file}`);
    await addUser(dir, user.email, user.password);
    const vite = join(dir, "node_modules/vite/bin/vite.js");

    // `vite dev` first: SvelteKit's private env has .env.local there; the session route answers, the header is set.
    const devPort = await freePort();
    const dev = await startServer(["node", vite, "dev", "--port", String(devPort), "--strictPort"], {
      cwd: dir,
      port: devPort,
      env: appEnv(),
    });
    const devSession = await fetch(`${dev.origin}/auth/session`);
    expect(devSession.status, dev.output()).toBe(200);
    expect((await fetch(dev.origin)).headers.get(ownHeader.name)).toBe(ownHeader.value);
    await dev.stop();
    const built = await runBuild(dir, ["node", vite, "build"], appEnv());
    expect(built.exitCode, built.all).toBe(0);

    // The secret stays in .env.local: neither the server's build nor the browser's has it.
    const secret = /^AUTH_SECRET=(.+)$/m.exec(readFileSync(join(dir, ".env.local"), "utf8"))![1]!;
    const leaked = [...filesUnder(join(dir, "build")), ...filesUnder(join(dir, ".svelte-kit/output"))].filter((f) =>
      readFileSync(f, "latin1").includes(secret),
    );
    expect(leaked).toEqual([]);

    const port = await freePort();
    // As adapter-node's docs start it: ORIGIN says the public URL; no env file is loaded by the server.
    const server = await startServer(["node", "build"], {
      cwd: dir,
      port,
      env: appEnv({ NODE_ENV: "production", ORIGIN: `http://localhost:${port}` }),
    });
    defer(() => server.stop());
    const auth = `${server.origin}/auth`;

    const home = await fetch(server.origin);
    expect(home.status, server.output()).toBe(200);
    expect(home.headers.get(ownHeader.name)).toBe(ownHeader.value);
    // Auth.js's handle runs first and answers its own routes.
    const providers = await fetch(`${auth}/providers`);
    expect(providers.status, server.output()).toBe(200);
    expect(await providers.json()).toHaveProperty("credentials");

    const context = await browser.newContext();
    defer(() => context.close());
    const page = await context.newPage();
    expect(await crossSitePasswordPost(auth, user)).toBeNull();
    await signInWithPassword(page, auth, user);
    expect((await sessionOf(page, auth))?.user).toMatchObject({ email: user.email });
    const dashboard = await page.goto(`${server.origin}/dashboard`);
    expect(dashboard?.status()).toBe(200);
    expect(await dashboard?.headerValue(ownHeader.name)).toBe(ownHeader.value);
    expect(server.output()).not.toMatch(/MissingSecret|\[auth\]\[error\](?! CredentialsSignin| MissingCSRF)/);
  }, 600_000);
});
