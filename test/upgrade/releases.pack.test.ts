/**
 * Against the npm registry: the table of releases upgrade chooses from
 * (src/catalog/next-auth-5-releases.ts) says what the registry says of each
 * release (its peers, which are optional, its @auth/core), and every
 * upgraded v4 app of fixtures/upgrade resolves with npm, peers and all: npm
 * builds the lockfile of the upgraded package.json (no download, no build)
 * and finds no conflict. Before the peer check, the MongoDB app on mongodb 5
 * stopped here with ERESOLVE.
 */
import { execa } from "execa";
import { describe, expect, it } from "vitest";
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
    it(`${name}: ${releases.map((r) => r.version).join(", ")}`, async () => {
      for (const release of releases) {
        const view = await execa("npm", ["view", `${name}@${release.version}`, "--json"], {
          env: userEnv(),
          extendEnv: false,
        });
        const published = JSON.parse(view.stdout) as Published;
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
    it(name, async () => {
      const dir = tempDir("create-auth-upgrade-resolve-");
      copyInput(name, dir);
      expect(await runUpgrade({ install: false }, capturedIo(dir).io)).toBe(0);
      const resolved = await execa(
        "npm",
        ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
        { cwd: dir, env: userEnv(), extendEnv: false, reject: false, all: true },
      );
      expect(resolved.exitCode, resolved.all).toBe(0);
    });
});
