/**
 * The hand-written apps of fixtures/apps/ beyond Next.js (App Router),
 * SvelteKit and Express, as their users have them before adding sign-in:
 * each installs (apps.ts's installer, on the Node its framework needs),
 * builds and starts as in production, and serves its home page and its
 * /dashboard. The sign-in tests start from these apps; this keeps them
 * honest while the frameworks' wiring is being written.
 *
 * Needs the npm registry for the first install of each app (cached in
 * .cache/e2e-apps/) and, for the apps on Node 24, .cache/node/ (fetched on
 * first use).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import { type AppName, appNodeMajor, appProduction, appRuntime, buildApp, freshApp, startApp } from "./apps.js";
import { useCleanup } from "./cleanup.js";

const apps = Object.keys(appProduction) as AppName[];

/** The lowest Node major an `engines.node` range accepts (each `||` alternative's first number). */
function lowestMajor(range: string): number {
  return Math.min(...range.split("||").map((alternative) => Number(/\d+/.exec(alternative)?.[0] ?? 0)));
}

describe.each(apps)("fixtures/apps/%s", (name) => {
  const defer = useCleanup();

  test("runs on a Node its framework accepts", () => {
    const manifest = JSON.parse(readFileSync(join(root, "fixtures/apps", name, "package.json"), "utf8")) as {
      engines?: { node?: string };
    };
    const needed = lowestMajor(manifest.engines?.node ?? "0");
    const machine = Number(process.versions.node.split(".")[0]);
    // An app that the machine's Node cannot run is given a newer one, which its range accepts.
    expect(appNodeMajor[name] !== undefined, `engines.node ${manifest.engines?.node}`).toBe(needed > machine);
    if (appNodeMajor[name]) expect(Number(appNodeMajor[name])).toBeGreaterThanOrEqual(needed);
  });

  test("installs, builds and serves / and its dashboard in production", async () => {
    const dir = await freshApp(name, defer);
    const started = performance.now();
    const built = await buildApp(name, dir);
    expect(built.exitCode, built.all).toBe(0);
    const server = await startApp(name, dir, {}, defer);
    const home = await fetch(server.origin);
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/Hello, [\w. ]+!/);
    const dashboard = await fetch(`${server.origin}${appProduction[name]!.dashboard}`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toMatch(/<h1[^>]*>Dashboard<\/h1>/);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`[${name}] build and start on Node ${appRuntime(name).version}: ${seconds} s`);
  }, 900_000);
});
