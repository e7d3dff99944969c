// verify-adapter runs the exploration beside the cases and the cases in four
// lanes. When such a run stops (a method that blocks the worker, a pool that
// leaks until nothing answers), which calls happened to be in flight beside
// the hang, and how many got through, is chance: the run is thrown away and
// run again one call at a time in a fresh worker. The report must be exactly
// that of a run one call at a time (--concurrency 1 --explore 0: the run stops
// in the cases, so an exploration after them would never start), blame and
// call counts included, on a quiet machine and on one whose cores are busy.
import { describe, expect, it } from "vitest";
import { inProcess } from "../helpers.js";
import { endingLimits, hostile, whileBusy } from "../support/hostile-runs.js";

/** The report with its one figure that differs run to run, the duration, set aside. */
async function report(name: string, ...args: string[]): Promise<{ exitCode: number; stdout: string }> {
  const result = await inProcess(["verify-adapter", hostile(name), ...endingLimits, "--seed", "7", ...args]);
  return { exitCode: result.exitCode, stdout: result.stdout.replace(/\(\d+ ms\)/g, "(<ms>)") };
}

describe("verify-adapter: a run that stops is reported as a run one call at a time", () => {
  it.for([
    ["loop-in-method", /✗ the run stopped: 2 methods never settled after \d+ calls \(getUserByEmail, \w+\)/],
    ["pool-leaks", /✗ the run stopped: 2 methods never settled after 25 calls \(\w+, \w+\)/],
  ] as const)(
    "%s: the same blame and counts, quiet and with the cores busy",
    { timeout: 120_000 },
    async ([name, stop]) => {
      const oneAtATime = await report(name, "--concurrency", "1", "--explore", "0");
      expect(oneAtATime.exitCode).toBe(1);
      expect(oneAtATime.stdout).toMatch(stop);

      const quiet = await report(name);
      expect(quiet).toEqual(oneAtATime);

      expect(await whileBusy(1, () => report(name))).toEqual(oneAtATime);
    },
  );
});
