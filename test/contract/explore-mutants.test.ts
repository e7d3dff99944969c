// Faults no contract case and no broken fixture names (fixtures/adapters/unlisted/, each a small change
// to the correct in-memory adapter): exploration alone must find every one, with a short sequence. The
// model is written from the spec, not from these faults. Two of them compare keys as a case-insensitive
// collation does, which the service tolerates: those must pass with a warning.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { explore } from "../../src/contract/explore/run.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture } from "../helpers.js";

type Expectation = { exploration: "fails" } | { exploration: "warns"; warning: string };
const dir = fixture("adapters", "unlisted");
const expected: Record<string, Expectation> = JSON.parse(readFileSync(`${dir}/expected.json`, "utf8"));
const make = async (name: string): Promise<AnyAdapter> =>
  (await import(pathToFileURL(`${dir}/${name}.ts`).href)).default();

describe("exploration finds faults nobody listed", () => {
  for (const [name] of Object.entries(expected).filter(([, e]) => e.exploration === "fails")) {
    it(name, async () => {
      let found: Awaited<ReturnType<typeof explore>> | undefined;
      for (const seed of [1, 2, 3]) {
        found = await explore({ adapter: await make(name), seed, runs: 300, callTimeoutMs: 10_000, nonce: `m${seed}` });
        if (!found.ok) break;
      }
      expect(found!.ok, `not found in 3 × 300 sequences: ${name}`).toBe(false);
      expect(found!.failure!.message).not.toMatch(/unexpected error|holds a change a caller made/);
      expect(found!.failure!.steps.length, found!.failure!.steps.join("\n")).toBeLessThanOrEqual(7);
    }, 60_000);
  }
});

describe("exploration tolerates a store that compares keys as a case-insensitive collation", () => {
  for (const [name, expectation] of Object.entries(expected)) {
    if (expectation.exploration !== "warns") continue;
    it(`${name}: a warning, and the run passes`, async () => {
      for (const seed of [1, 2, 3]) {
        const result = await explore({
          adapter: await make(name),
          seed,
          runs: 300,
          callTimeoutMs: 10_000, // none of these adapters hangs: a limit a loaded machine does not reach
          nonce: `c${seed}`,
        });
        expect(result.failure?.message).toBeUndefined();
        expect(result.warnings).toEqual([expect.stringContaining(expectation.warning)]);
      }
    }, 60_000);
  }
});
