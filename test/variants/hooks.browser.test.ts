/**
 * The variants of test/variants/hooks.ts as users run them: a fresh
 * installed app, their own hooks or middleware file written in, then
 * `create-auth init --yes`.
 *
 * - Each variant type-checks with the project's own tsconfig afterwards:
 *   `tsc --noEmit -p .`, after the framework writes the types its tsconfig
 *   extends (`svelte-kit sync`). tsc rather than svelte-check: init writes
 *   and edits .ts and .js modules only, the apps do not ship svelte-check,
 *   and tsc answers in seconds.
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
  crossSitePasswordPost,
  freePort,
  freshApp,
  launchChromium,
  sessionOf,
  signInWithPassword,
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
  const prepare = { sveltekit: ["node_modules/@sveltejs/kit/svelte-kit.js", "sync"] }[variant.app as "sveltekit"];
  if (prepare) {
    const prepared = await run(prepare);
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

  test("SvelteKit with its own hooks: vite build, then adapter-node's `node build`; sign-in, their header kept", async () => {
    const variant = hooksVariants.find((v) => v.app === "sveltekit" && !v.protect)!;
    const user = { email: "dana@example.com", password: "a long enough password" };
    const dir = await freshApp("sveltekit", defer);
    variant.apply(dir);
    const out = await init(variant, dir);
    expect(out).toContain(`updated ${variant.file}`);
    await addUser(dir, user.email, user.password);
    const vite = join(dir, "node_modules/vite/bin/vite.js");
    const built = await execa("node", [vite, "build"], { cwd: dir, env: appEnv(), reject: false, all: true });
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
