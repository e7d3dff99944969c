// Each broken fixture breaks one rule; the suite must fail exactly the cases
// listed in fixtures/adapters/broken/expected.json, on every seed. Cases
// that let real time pass make each run last over a second, so every
// fixture and seed runs at once, each on its own adapter.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { allCases } from "../../src/contract/cases/index.js";
import { type CaseResult, runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture } from "../helpers.js";

type Expectation = { failing: string[]; skipped: string[]; warnings: string[]; exploration?: boolean };
const dir = fixture("adapters", "broken");
const expected: Record<string, Expectation> = JSON.parse(readFileSync(`${dir}/expected.json`, "utf8"));
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3));
const seeds = [1, 7, 23];
const runs = seeds.flatMap((seed) => [1, 4].map((lanes) => ({ seed, lanes })));
// Only the fixture that never answers needs the time limit to fire, and it
// should fire soon; every other fixture gets a limit no loaded machine reaches,
// so its verdict depends on its bug alone (a 300 ms limit for all of them
// failed a fast case on a busy CI machine).
const timeoutFor = (name: string) => (name === "hangs" ? 300 : 60_000);

async function outcome(name: string, seed: number, concurrency: number): Promise<Expectation> {
  const { default: factory } = await import(`${dir}/${name}.ts`);
  const results: CaseResult[] = [];
  // In one lane, and in four as verify-adapter runs them by default: a case
  // that fails beside others runs again alone, so the verdict is the same.
  await runContract({
    adapter: factory() as AnyAdapter,
    cases: allCases,
    seed,
    timeoutMs: timeoutFor(name),
    concurrency,
    require: [],
    onEvent: (e) => e.type === "case:end" && results.push(e.result),
  });
  const ids = (keep: (r: CaseResult) => boolean) =>
    results
      .filter(keep)
      .map((r) => r.case.id)
      .sort();
  return {
    failing: ids((r) => r.status === "failed"),
    skipped: ids((r) => r.status === "skipped"),
    warnings: ids((r) => r.warnings.length > 0),
  };
}

describe("broken adapters fail exactly the cases that observe their bug", () => {
  const outcomes = new Map<string, Expectation[]>();
  beforeAll(async () => {
    await Promise.all(
      fixtures.map(async (name) =>
        outcomes.set(name, await Promise.all(runs.map(({ seed, lanes }) => outcome(name, seed, lanes)))),
      ),
    );
  }, 120_000);

  it("every fixture has an expectation, and every expectation a fixture", () => {
    expect(Object.keys(expected).sort()).toEqual([...fixtures].sort());
  });

  it.each(fixtures)("%s", (name) => {
    const { exploration: _, ...want } = expected[name]!;
    for (const [i, got] of outcomes.get(name)!.entries())
      expect(got, `seed ${runs[i]!.seed}, ${runs[i]!.lanes} lanes`).toEqual(want);
    // A fixture with a bug must fail something; the two that do not are a warning and a missing capability.
    if (want.failing.length === 0) expect(want.warnings.length + want.skipped.length).toBeGreaterThan(0);
  });
});
