/**
 * init and add-provider in the installed next-auth v4 Pages Router app of
 * fixtures/upgrade/pages-github-credentials (next-auth 4.24.15, Next.js 15):
 * what they write compiles against the real v4 packages, with no v5 code;
 * then `next build`, `next start`, and the user's own Credentials sign-in in
 * Chromium still works through the authOptions init added the adapter to.
 * The packages init adds (@auth/core for the adapter's types, better-sqlite3)
 * are this repository's installed copies, linked in, so no install runs here.
 *
 * Needs the npm registry the first time (the app is cached in .cache/e2e-apps).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { inProcess, root } from "../helpers.js";
import { buildNext, freePort, signInWithPassword, startNext, useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { freshV4App } from "./upgrade-apps.js";

const configFile = "pages/api/auth/[...nextauth].ts";

function linkPackage(app: string, name: string): void {
  const target = join(app, "node_modules", name);
  if (existsSync(target)) return;
  mkdirSync(join(target, ".."), { recursive: true });
  symlinkSync(join(root, "node_modules", name), target);
}

const shared = useBrowserAndMail();

describe("a next-auth v4 app keeps v4", () => {
  const defer = useCleanup();

  test("init --yes, then v4 providers: tsc passes, the user's providers kept, nothing of v5", async () => {
    const dir = await freshV4App("pages-github-credentials", defer);
    const original = readFileSync(join(dir, configFile), "utf8");
    const steps = [
      ["init", "--yes", "--no-install", "--providers", "google"],
      ["add-provider", "keycloak", "--issuer", "https://sso.example.com/realms/main", "--no-install"],
      ["add-provider", "credentials", "--id", "pw", "--no-install"],
    ];
    for (const args of steps) {
      const result = await inProcess(args, { cwd: dir });
      expect(result.stderr, args.join(" ")).toBe("");
      expect(result.exitCode, args.join(" ")).toBe(0);
    }
    for (const name of ["@auth/core", "better-sqlite3", "@types/better-sqlite3"]) linkPackage(dir, name);
    const tsc = await execa(join(dir, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."], {
      cwd: dir,
      reject: false,
      all: true,
    });
    expect(tsc.exitCode, tsc.all).toBe(0);

    const config = readFileSync(join(dir, configFile), "utf8");
    for (const line of original.split("\n")) expect(config.split("\n")).toContain(line);
    expect(config).toMatch(/ {4}google,\n {4}keycloak,\n {4}pw,\n {2}\],/);
    expect(config).toContain("adapter: createAdapter(),");
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
    expect(existsSync(join(dir, "app"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies["next-auth"]).toBe("4.24.15");

    // The app as its users run it: built, started, and the user's own Credentials sign-in.
    const port = await freePort();
    const envPath = join(dir, ".env.local");
    writeFileSync(envPath, readFileSync(envPath, "utf8").replace("http://localhost:3000", `http://localhost:${port}`));
    const built = await buildNext(dir);
    expect(built.exitCode, built.all).toBe(0);
    const server = await startNext(dir, {}, defer, port);
    const context = await shared.browser.newContext();
    defer(() => context.close());
    const page = await context.newPage();
    const origin = `http://localhost:${port}`;
    await signInWithPassword(page, `${origin}/api/auth`, {
      email: "alice@example.com",
      password: "correct horse battery",
    });
    await page.goto(`${origin}/dashboard`);
    await expect(page.locator("#who").textContent()).resolves.toBe("Signed in as alice@example.com (member)");
    // The sign-in page lists the providers v4 now has: the user's and the three added.
    await page.goto(`${origin}/api/auth/signin`);
    const buttons = await page.locator("form button").allTextContents();
    for (const name of ["GitHub", "Google", "Keycloak", "Password"]) expect(buttons.join("\n")).toContain(name);
    expect(server.output()).not.toMatch(/\[next-auth\]\[error\]/);
  }, 900_000);
});
