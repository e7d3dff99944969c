// The printed reproduction of an exploration failure, run as printed in a
// fresh process, shows the same failure: here for adapters that hand out
// their stored objects, whose failures show only after a caller changes a
// result, so the program must change results the way the run did.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { explore, formatSnippet } from "../../src/contract/explore/run.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture, root, tempDir } from "../helpers.js";

const brokenDir = fixture("adapters", "broken");
const changedMark = "\u2060changed";

async function failureOf(name: string) {
  const { default: factory } = await import(pathToFileURL(join(brokenDir, `${name}.ts`)).href);
  const result = await explore({
    adapter: factory() as AnyAdapter,
    seed: 1,
    runs: 300,
    callTimeoutMs: 10_000, // none of these adapters hangs: a limit a loaded machine does not reach
    nonce: `snippet-${name}`,
  });
  expect(result.ok).toBe(false);
  return result.failure!;
}

async function runAsPrinted(name: string, snippet: string) {
  const file = join(tempDir(`create-auth-snippet-${name}-`), "repro.mts");
  writeFileSync(file, snippet);
  return execa(process.execPath, ["--import", "tsx", file], { reject: false, cwd: root });
}

describe("an exploration failure's printed program reproduces it", () => {
  for (const name of ["returns-stored-objects", "aliased-results"]) {
    it(`${name}: the program changes results as the run did, and reads the change back`, async () => {
      const failure = await failureOf(name);
      expect(failure.message).toMatch(/holds a change a caller made to an earlier result/);
      const module = pathToFileURL(join(brokenDir, `${name}.ts`)).href;
      const snippet = formatSnippet(failure, module);
      expect(snippet).toContain("handOn(await adapter.");
      const result = await runAsPrinted(name, snippet);
      expect(result.stderr).toBe("");
      // What the run received, the program receives: a field holding the caller's change.
      expect(failure.received).toContain(changedMark);
      expect(result.stdout).toMatch(/^expected: .*\nreceived: /);
      expect(result.stdout.split("received:")[1]).toContain(changedMark);
    }, 60_000);
  }

  it("lookups that failed only when made together are printed and replayed together", async () => {
    // A store with one row buffer shared by all reads: overlapping reads answer with the last id asked for.
    const dir = tempDir("create-auth-snippet-overlap-");
    const module = join(dir, "shared-buffer.mts");
    const memory = pathToFileURL(fixture("adapters", "memory.ts")).href;
    writeFileSync(
      module,
      [
        `import { createMemoryAdapter } from ${JSON.stringify(memory)};`,
        "export default function sharedBuffer() {",
        "  const adapter: any = createMemoryAdapter();",
        "  const { getUser } = adapter;",
        '  const buffer = { id: "" };',
        "  adapter.getUser = async (id: string) => {",
        "    buffer.id = id;",
        "    await new Promise((resolve) => setTimeout(resolve, 1));",
        "    return getUser(buffer.id);",
        "  };",
        "  return adapter;",
        "}",
        "",
      ].join("\n"),
    );
    const { default: factory } = await import(pathToFileURL(module).href);
    const explored = await explore({ adapter: factory(), seed: 1, runs: 300, callTimeoutMs: 500, nonce: "overlap" });
    const failure = explored.failure!;
    expect(failure.message).toMatch(/^getUser returned user\d+ instead of user1/);
    expect(failure.steps.at(-1)).toMatch(/^at the same time: getUser\(user1\.id\) and .*getUser\(user\d+\.id\)/);
    // Run as printed: the expected line names user1 by the id it has in this process.
    const snippet = formatSnippet(failure, pathToFileURL(module).href);
    expect(snippet).toContain("await Promise.all([\n    adapter.getUser(user1.id),");
    const result = await runAsPrinted("overlap", snippet);
    expect(result.stderr).toBe("");
    const received = result.stdout.match(/received: \{ id: "([^"]+)"/)?.[1];
    const user1 = result.stdout.match(/expected: user1 \(id "([^"]+)"\)/)?.[1];
    expect(received).toBeDefined();
    expect(user1).toBeDefined();
    expect(received).not.toBe(user1);
  }, 60_000);

  it("a failure that needs no caller's change is printed without one", async () => {
    const failure = await failureOf("verification-token-reusable");
    expect(failure.callerChanges).toBeFalsy();
    expect(formatSnippet(failure, "./adapter.ts")).not.toContain("handOn");
  });
});
