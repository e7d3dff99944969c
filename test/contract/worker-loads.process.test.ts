// What verify-adapter's worker process loads before the first adapter call: every module it loads is
// time before the run starts. It copies answers without zod (whose models the supervisor checks), and
// loads tsx only for a TypeScript module. Each process's loads are logged to a file of its own
// (test/support/log-loads.mjs through NODE_OPTIONS, so the worker logs too).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cli, fixture, root, tempDir } from "../helpers.js";

/** Runs one case against `module` through the CLI; the URLs the worker process loaded. */
async function workerLoads(module: string): Promise<string[]> {
  const logs = tempDir();
  const result = await cli(["verify-adapter", module, "--only", "user.get.unknown-id-is-null", "--explore", "0"], {
    env: {
      NODE_OPTIONS: `--import ${join(root, "test/support/log-loads.mjs")}`,
      LOAD_LOG: join(logs, "{pid}.log"),
    },
  });
  expect(result.exitCode, result.stderr).toBe(0);
  const perProcess = readdirSync(logs).map((name) => readFileSync(join(logs, name), "utf8").trim().split("\n"));
  const worker = perProcess.filter((urls) => urls.some((url) => url.endsWith("/dist/cli/verify-worker.js")));
  // The CLI and its worker, each its own log.
  expect(perProcess).toHaveLength(2);
  expect(worker).toHaveLength(1);
  return worker[0]!;
}

/** The bundle's chunks among the URLs that hold zod (esbuild names each bundled file in a comment). */
const chunksWithZod = (urls: string[]) =>
  urls
    .filter((url) => url.startsWith("file:") && url.includes("/dist/cli/"))
    .filter((url) => /\/\/ \S*node_modules\/zod\//.test(readFileSync(fileURLToPath(url), "utf8")));

const loadsTsx = (urls: string[]) => urls.some((url) => url.includes("/node_modules/tsx/"));

describe("verify-adapter's worker loads only what the module needs", () => {
  it("a JavaScript module: neither tsx nor zod", async () => {
    const urls = await workerLoads(fixture("modules", "esm-object.mjs"));
    expect(urls.some((url) => url.endsWith("/fixtures/modules/esm-object.mjs"))).toBe(true);
    expect(loadsTsx(urls)).toBe(false);
    expect(chunksWithZod(urls)).toEqual([]);
  });

  it("a TypeScript module: tsx, and still no zod", async () => {
    const urls = await workerLoads(fixture("adapters", "memory.ts"));
    expect(loadsTsx(urls)).toBe(true);
    expect(chunksWithZod(urls)).toEqual([]);
  });

  it("the supervisor's process does load zod, so the check above can see it", async () => {
    // The same detection, on the CLI's side, where the zod models check every answer.
    const logs = tempDir();
    await cli(["verify-adapter", fixture("modules", "esm-object.mjs"), "--only", "user.get.unknown-id-is-null"], {
      env: { NODE_OPTIONS: `--import ${join(root, "test/support/log-loads.mjs")}`, LOAD_LOG: join(logs, "{pid}.log") },
    });
    const cliLog = readdirSync(logs)
      .map((name) => readFileSync(join(logs, name), "utf8").trim().split("\n"))
      .find((urls) => urls.some((url) => url.endsWith("/dist/cli/create-auth.js")));
    expect(chunksWithZod(cliLog ?? [])).not.toEqual([]);
  });
});
