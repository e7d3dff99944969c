/**
 * The hand-written apps of fixtures/apps/ beyond Next.js (App Router),
 * SvelteKit and Express, as their users have them before adding sign-in:
 * each runs on a Node its framework's `engines` accepts (apps.ts gives the
 * ones the machine's Node is too old for a fetched Node 24).
 *
 * That each app installs, builds and serves its home page and /dashboard is
 * proved by its own sign-in test (<framework>.browser.test.ts through
 * framework-flow.ts): it installs the same app, runs init, builds and starts
 * it as in production, fetches the home page and signs in to the dashboard.
 * An app that could not build or serve before init fails there, with the
 * build's or the server's output; building each app a second time here,
 * before init, proved nothing more and cost a production build per
 * framework (about 150 s of the suite). Every app here must therefore have
 * that sign-in test, which this file checks.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import { type AppName, appNodeMajor, appProduction } from "./apps.js";

const apps = Object.keys(appProduction) as AppName[];

/** The lowest Node major an `engines.node` range accepts (each `||` alternative's first number). */
function lowestMajor(range: string): number {
  return Math.min(...range.split("||").map((alternative) => Number(/\d+/.exec(alternative)?.[0] ?? 0)));
}

describe.each(apps)("fixtures/apps/%s", (name) => {
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

  test("is built, started and signed in to by its own sign-in test", () => {
    const file = join(root, "test/e2e", `${name}.browser.test.ts`);
    expect(existsSync(file), `${file} is missing`).toBe(true);
    const source = readFileSync(file, "utf8");
    expect(source).toMatch(/\bsignInFlow\(/);
    expect(source).toContain(`app: "${name}"`);
  });
});
