/**
 * The test suite in layers, one vitest project each, by what its tests need.
 * A file's name says its layer:
 *
 *   unit           *.test.ts                pure code and commands run in-process; no database, no
 *                                           browser, no install, no build (the inner loop: npm run test:unit)
 *   process        *.process.test.ts        the built CLI (dist/) in real processes: verify-adapter's
 *                                           worker, a terminal, signals, another user, the process ending
 *   typecheck      *.typecheck.test.ts      the TypeScript compiler over generated code and the real
 *                                           packages' types (a whole program each: seconds per test)
 *   compile        *.compile.test.ts        commands run on variants of the fixture apps (test/variants/),
 *                                           each followed by the project's own compiler over the project;
 *                                           the apps installed once into .cache/e2e-apps, shared with the browser layer
 *   db             *.db.test.ts             PostgreSQL, MariaDB or a SQLite file
 *   browser        *.browser.test.ts        framework installs and builds, then Chromium
 *   pack           *.pack.test.ts           installs from the npm registry (the packed tarball)
 *   node-versions  *.node-versions.test.ts  the Node binaries users run (22, 24, 26)
 *
 * The layers that run dist/ build it first (test/setup/build.ts), once per
 * vitest run however many of them run; `npm test -- --project db` runs one layer.
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const layers = ["process", "typecheck", "compile", "db", "browser", "pack", "node-versions"] as const;
const layerFiles = (layer: string) => `test/**/*.${layer}.test.ts`;

/** dist/, built from src/: what the CLI as a process, verify-adapter's worker and the package exports run. */
const build = "test/setup/build.ts";
const layerSetup: Record<(typeof layers)[number], string[]> = {
  process: [build],
  typecheck: [],
  compile: [],
  db: [build, "test/setup/prisma-client.ts"],
  browser: [build],
  // npm pack builds its own copy (prepack).
  pack: [],
  "node-versions": [build, "test/setup/node-versions.ts"],
};

/** An install that slipped into a test of these layers fails at once instead of reaching the registry. */
const noRegistry = { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };

/**
 * One module graph per worker: TypeScript, the parser and the commands load once rather than
 * once per file (about a quarter of the unit layer's time). Their tests leave no global state behind.
 */
const sharedModules = { isolate: false, env: noRegistry };
const layerOptions: Partial<Record<(typeof layers)[number], { isolate: boolean; env?: Record<string, string> }>> = {
  process: sharedModules,
  typecheck: sharedModules,
  // A fixture app missing from .cache/e2e-apps is installed on first use, from the registry.
  compile: { isolate: false },
};

export default defineConfig({
  test: {
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache): the inner
    // loop re-runs one file without transforming src/ again. A CI run starts clean, so it is left out there.
    experimental: { fsModuleCache: !process.env.CI },
    setupFiles: ["test/setup/temp-dirs.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { requireAssertions: true },
    // Whatever a test stubs is put back after it, so files can share a worker.
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    // Most tests wait on child processes (the verify worker, tsc, servers), so
    // two files at a time pay even on two cores; vitest's default leaves one core idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: layers.map(layerFiles),
          ...sharedModules,
        },
      },
      ...layers.map((layer) => ({
        extends: true,
        test: {
          name: layer,
          include: [layerFiles(layer)],
          globalSetup: layerSetup[layer],
          // These run whole verify-adapter runs, installs and builds against real servers: on a loaded
          // two-core runner a default run on a real database took 25 s, close to the unit layer's limit.
          testTimeout: 120_000,
          ...layerOptions[layer],
        },
      })),
    ],
  },
});
