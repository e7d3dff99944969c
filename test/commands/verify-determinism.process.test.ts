// The verdict depends on the seed and the options only: the same seed gives
// the same cases passed and failed for the same reasons, and the same
// exploration (sequences, steps, the failure and the flags that replay it),
// on a quiet machine and on one whose cores are all busy. What may differ is
// what is meant to: timings, and the values salted with each run's nonce or
// dated from its clock (so two runs never share a record).
import { describe, expect, it } from "vitest";
import { cli, fixture } from "../helpers.js";
import { whileBusy } from "../support/hostile-runs.js";

interface Report {
  ok: boolean;
  passed: number;
  failed: number;
  skipped: number;
  warnings: number;
  cases: Array<{ id: string; status: string; failure?: { message: string }; warnings: string[] }>;
  exploration: {
    runs: number;
    steps: number;
    ok: boolean;
    failure?: { message: string; replay: string; steps: string[] };
  };
}

/** The verdict in a JSON report: everything but timings and the run's own values. */
function verdictOf(stdout: string) {
  const report = JSON.parse(stdout) as Report;
  const { exploration } = report;
  return {
    ok: report.ok,
    counts: [report.passed, report.failed, report.skipped, report.warnings],
    cases: report.cases.map((c) => [c.id, c.status, c.failure?.message, c.warnings.length]),
    exploration: {
      runs: exploration.runs,
      steps: exploration.steps,
      ok: exploration.ok,
      failure: exploration.failure && [
        exploration.failure.message,
        exploration.failure.replay,
        exploration.failure.steps.length,
      ],
    },
  };
}

const verify = (module: string) =>
  cli(["verify-adapter", fixture("adapters", module), "--seed", "20261125", "--reporter", "json"]);

describe("verify-adapter: one seed, one verdict", () => {
  it("a correct adapter: the same verdict in the JSON report on a quiet and on a fully loaded machine", {
    timeout: 180_000,
  }, async () => {
    const quiet = await verify("memory.ts");
    const loaded = await whileBusy(2, () => verify("memory.ts"));
    expect(quiet.exitCode).toBe(0);
    expect(loaded.exitCode).toBe(0);
    const verdict = verdictOf(quiet.stdout);
    expect(verdict.exploration.runs).toBe(40);
    expect(verdictOf(loaded.stdout)).toEqual(verdict);
  });

  it("a broken adapter: the same failures, exploration's included, twice and under load", {
    timeout: 180_000,
  }, async () => {
    const first = await verify("broken/verification-token-reusable.ts");
    const second = await verify("broken/verification-token-reusable.ts");
    const loaded = await whileBusy(2, () => verify("broken/verification-token-reusable.ts"));
    for (const run of [first, second, loaded]) expect(run.exitCode).toBe(1);
    const verdict = verdictOf(first.stdout);
    expect(verdict.exploration.failure?.[1]).toMatch(/^--seed 20261125 --explore-path \S+$/);
    expect(verdictOf(second.stdout)).toEqual(verdict);
    expect(verdictOf(loaded.stdout)).toEqual(verdict);
  });
});
