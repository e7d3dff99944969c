/**
 * The smoke set on the Node versions users run besides the machine's own
 * (22 and 24, fetched once by scripts/node-versions.ts): build, init --yes
 * with its install (better-sqlite3 built for that Node) and
 * `npm run verify-adapter`, add-provider social, and verify-adapter on the
 * published-adapter fixtures. Slow (native builds): the `node-versions`
 * project (`npm test -- --project node-versions`).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, test } from "vitest";
import { nodeBinary, nodeHome, pinnedNodeVersions } from "../../scripts/node-versions.js";
import { fixture, root } from "../helpers.js";
import { userEnv } from "./user-env.js";

const MINUTE = 60_000;
const versions = Object.keys(pinnedNodeVersions);

describe.each(versions)("Node %s", (major) => {
  let work = "";
  afterAll(() => work && rmSync(work, { recursive: true, force: true }));

  test(
    "builds, sets up a project that passes verify-adapter, adds VK, and checks the published adapters",
    async () => {
      const binary = nodeBinary(major);
      expect(binary, `Node ${major} is not fetched: run tsx scripts/node-versions.ts`).toBeDefined();
      const env = userEnv({ binary: binary!, home: nodeHome(major) });
      const run = async (name: string, file: string, args: string[], cwd: string, expectedExit = 0) => {
        const started = performance.now();
        const result = await execa(file, args, {
          cwd,
          env,
          extendEnv: false,
          reject: false,
          all: true,
          timeout: 6 * MINUTE,
        });
        console.log(
          `[node ${major}] ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s (exit ${result.exitCode})`,
        );
        expect(result.exitCode, `${name}:\n${String(result.all).slice(-4000)}`).toBe(expectedExit);
        return String(result.all);
      };
      expect(await run("node --version", binary!, ["--version"], root)).toContain(`v${pinnedNodeVersions[major]}`);

      work = mkdtempSync(join(tmpdir(), `create-auth-node${major}-`));
      // The build works on this Node; into a folder of its own, as other layers run the shared dist/ meanwhile.
      const built = join(work, "dist");
      await run("build", binary!, [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/build.ts", built], root);
      expect(existsSync(join(built, "cli/create-auth.js"))).toBe(true);

      const app = join(work, "app");
      await run("init --yes", binary!, [join(root, "bin/create-auth.js"), "init", "--yes", "--dir", app], work);
      expect(existsSync(join(app, "node_modules/better-sqlite3"))).toBe(true);
      const verify = await run("npm run verify-adapter", "npm", ["run", "verify-adapter"], app);
      expect(verify).toMatch(/PASS/);

      const next = join(work, "next-app");
      cpSync(fixture("projects", "next-app"), next, { recursive: true });
      await run(
        "add-provider social",
        binary!,
        [join(root, "bin/create-auth.js"), "add-provider", "social", "--no-install"],
        next,
      );
      expect(readFileSync(join(next, "src/providers/vk.ts"), "utf8")).toContain("v=5.126");

      for (const [name, expectedExit] of [
        ["drizzle-adapter.ts", 0],
        // @auth/pg-adapter passes with a warning (linkAccount's ignored expires_at: NaN).
        ["pg-adapter.ts", 0],
      ] as const) {
        await run(
          `verify-adapter ${name}`,
          binary!,
          // PGlite's setup() is seconds of CPU: room for a loaded machine.
          [
            join(root, "bin/create-auth.js"),
            "verify-adapter",
            join("fixtures/published", name),
            "--setup-timeout",
            "120000",
          ],
          root,
          expectedExit,
        );
      }
    },
    20 * MINUTE,
  );
});
