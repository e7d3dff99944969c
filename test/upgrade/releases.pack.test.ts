/**
 * Against the npm registry: the table of releases upgrade chooses from
 * (src/catalog/next-auth-5-releases.ts) says what the registry says of each
 * release (its peers, which are optional, its @auth/core), and every
 * upgraded v4 app of fixtures/upgrade resolves with npm, peers and all: npm
 * builds the lockfile of the upgraded package.json (no download, no build)
 * and finds no conflict. Before the peer check, the MongoDB app on mongodb 5
 * stopped here with ERESOLVE.
 *
 * Each check is a wait on the registry (an `npm view` is ~3 s of waiting for a fraction of a second of CPU),
 * so the packages and the apps are checked side by side (vitest's maxConcurrency, five at a time), and a
 * package's releases are asked for together.
 */
import { execa } from "execa";
import { describe, it } from "vitest";
import { v5Releases } from "../../src/catalog/next-auth-5-releases.js";
import { runUpgrade } from "../../src/commands/upgrade.js";
import { userEnv } from "../e2e/user-env.js";
import { capturedIo, tempDir } from "../helpers.js";
import { copyInput, upgradeCases } from "./cases.js";

interface Published {
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dependencies?: Record<string, string>;
}

describe("the releases upgrade chooses from, against the registry", () => {
  for (const [name, releases] of Object.entries(v5Releases))
    it.concurrent(`${name}: ${releases.map((r) => r.version).join(", ")}`, async ({ expect }) => {
      const views = await Promise.all(
        releases.map((release) =>
          execa("npm", ["view", `${name}@${release.version}`, "--json"], { env: userEnv(), extendEnv: false }),
        ),
      );
      for (const [i, release] of releases.entries()) {
        const published = JSON.parse(views[i]!.stdout) as Published;
        expect(published.peerDependencies ?? {}, `${name}@${release.version}`).toEqual(release.peers);
        const optional = Object.entries(published.peerDependenciesMeta ?? {})
          .filter(([, meta]) => meta.optional)
          .map(([peer]) => peer)
          .sort();
        expect(optional, `${name}@${release.version}`).toEqual([...(release.optional ?? [])].sort());
        expect(published.dependencies?.["@auth/core"]).toBe(release.core);
      }
    });
});

describe("every upgraded fixture app resolves with npm", () => {
  for (const name of upgradeCases())
    it.concurrent(name, async ({ expect, onTestFinished }) => {
      // Its own folder, removed when this test ends (a concurrent test names itself: see tempDir).
      const dir = tempDir("create-auth-upgrade-resolve-", { onTestFinished });
      copyInput(name, dir);
      expect(await runUpgrade({ install: false }, capturedIo(dir).io)).toBe(0);
      const resolved = await execa(
        "npm",
        ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
        { cwd: dir, env: userEnv(), extendEnv: false, reject: false, all: true },
      );
      expect(resolved.exitCode, resolved.all).toBe(0);
      // Alone, the largest app resolves in about a minute; beside four others on a loaded machine, longer.
    }, 240_000);
});
