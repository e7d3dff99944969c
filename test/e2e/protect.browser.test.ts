/**
 * --protect where the framework's own Auth.js package does the sign-in
 * (SvelteKit, Express): init --yes --protect "/dashboard/:path*" on the
 * fresh app, built and started as in production; in Chromium a signed-out
 * visit to /dashboard lands on Auth.js's sign-in page with the way back, and
 * after a password sign-in the same visit is let through (to the app's own
 * answer: these starter apps have no dashboard page, so a 404 of the app).
 */
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import {
  type AppName,
  addUser,
  appEnv,
  freePort,
  freshApp,
  type RunningServer,
  signInWithPassword,
  startServer,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";

const user = { email: "dora@example.com", password: "a long enough password" };

describe("--protect with the frameworks' own Auth.js packages", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  async function initProtected(app: AppName) {
    const dir = await freshApp(app, defer);
    const init = await execa(
      "node",
      [join(root, "bin/create-auth.js"), "init", "--yes", "--protect", "/dashboard/:path*"],
      {
        cwd: dir,
        env: appEnv(),
        reject: false,
        all: true,
      },
    );
    expect(init.exitCode, init.all).toBe(0);
    await addUser(dir, user.email, user.password);
    return dir;
  }

  async function expectProtected(server: RunningServer) {
    const context = await tools.browser.newContext();
    defer(() => context.close());
    const page = await context.newPage();
    await page.goto(`${server.origin}/dashboard/reports?x=1`);
    const at = new URL(page.url());
    expect(at.pathname, server.output()).toBe("/auth/signin");
    expect(at.searchParams.get("callbackUrl")).toBe("/dashboard/reports?x=1");
    // Pages beside the list stay open.
    await page.goto(`${server.origin}/`);
    expect(new URL(page.url()).pathname).toBe("/");
    await signInWithPassword(page, `${server.origin}/auth`, user);
    const response = await page.goto(`${server.origin}/dashboard`);
    expect(new URL(page.url()).pathname, server.output()).toBe("/dashboard");
    expect(response?.status()).toBe(404);
  }

  test("SvelteKit: the hooks' second handle; vite build + preview", async () => {
    const started = performance.now();
    const dir = await initProtected("sveltekit");
    const vite = join(dir, "node_modules/vite/bin/vite.js");
    const built = await execa("node", [vite, "build"], { cwd: dir, env: appEnv(), reject: false, all: true });
    expect(built.exitCode, built.all).toBe(0);
    const port = await freePort();
    const server = await startServer(["node", vite, "preview", "--port", String(port), "--strictPort"], {
      cwd: dir,
      port,
      env: appEnv(),
    });
    defer(() => server.stop());
    await expectProtected(server);
    console.log(`[sveltekit --protect] ${Math.round((performance.now() - started) / 100) / 10} s`);
  }, 600_000);

  test("Express: the generated server.ts's middleware; npm start in production", async () => {
    const started = performance.now();
    const dir = await initProtected("express");
    const port = await freePort();
    const server = await startServer(["npm", "start"], { cwd: dir, port, env: appEnv({ NODE_ENV: "production" }) });
    defer(() => server.stop());
    await expectProtected(server);
    console.log(`[express --protect] ${Math.round((performance.now() - started) / 100) / 10} s`);
  }, 600_000);
});
