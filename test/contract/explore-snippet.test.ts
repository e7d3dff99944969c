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
    callTimeoutMs: 200,
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

  it("a failure that needs no caller's change is printed without one", async () => {
    const failure = await failureOf("verification-token-reusable");
    expect(failure.callerChanges).toBeFalsy();
    expect(formatSnippet(failure, "./adapter.ts")).not.toContain("handOn");
  });
});
