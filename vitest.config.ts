/**
 * The test suite in layers, one vitest project each, by what its tests need.
 * A file's name says its layer:
 *
 *   unit           *.test.ts                pure code and commands run in-process; no database, no
 *                                           browser, no install (the inner loop: npm run test:unit)
 *   db             *.db.test.ts             PostgreSQL, MariaDB or a SQLite file
 *   browser        *.browser.test.ts        framework installs and builds, then Chromium
 *   pack           *.pack.test.ts           installs from the npm registry (the packed tarball)
 *   node-versions  *.node-versions.test.ts  the Node binaries users run (22, 24, 26)
 *
 * `npm test` runs them all in one vitest run, so dist/ is built once
 * (test/setup/build.ts); `npm test -- --project db` runs one layer.
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const layers = ["db", "browser", "pack", "node-versions"] as const;
const layerFiles = (layer: string) => `test/**/*.${layer}.test.ts`;

const layerSetup: Partial<Record<(typeof layers)[number], string[]>> = {
  db: ["test/setup/prisma-client.ts"],
  "node-versions": ["test/setup/node-versions.ts"],
};

export default defineConfig({
  test: {
    globalSetup: ["test/setup/build.ts"],
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
          // One module graph per worker: TypeScript, the parser and the commands load
          // once rather than once per file (about a quarter of the layer's time).
          isolate: false,
          // An install that slipped into a unit test fails at once instead of reaching the registry.
          env: { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" },
        },
      },
      ...layers.map((layer) => ({
        extends: true,
        test: {
          name: layer,
          include: [layerFiles(layer)],
          globalSetup: layerSetup[layer] ?? [],
          // These run whole verify-adapter runs, installs and builds against real servers: on a loaded
          // two-core runner a default run on a real database took 25 s, close to the unit layer's limit.
          testTimeout: 120_000,
        },
      })),
    ],
  },
});
