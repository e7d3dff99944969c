// verify-adapter's exploration runs its batches side by side through the
// worker, where how calls interleave depends on how busy the machine is. The
// same seed must still give the same verdict and the same reported failure:
// run quiet, then again while other processes keep both cores busy.
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { cli, fixture } from "../helpers.js";

interface ExplorationJson {
  ok: boolean;
  failure?: { message: string; expected?: string; received?: string; steps: string[]; replay: string };
}

/**
 * What must not depend on timing. Each run's values carry a salt from a fresh nonce (a run of ten or more
 * letters and digits), ids are random and dates relative to the run's start: those are masked, the rest compared.
 */
function verdict(exploration: ExplorationJson) {
  const mask = (text: string | undefined) =>
    text
      ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})?/g, "<id>")
      .replace(/Date\([^)]*\)/g, "Date")
      .replace(/[0-9a-z]{10,}/g, (run) => (/\d/.test(run) ? "<salted>" : run));
  const { ok, failure } = exploration;
  return {
    ok,
    failure: failure && {
      message: mask(failure.message),
      expected: mask(failure.expected),
      received: mask(failure.received),
      steps: failure.steps.map(mask),
      replay: failure.replay,
    },
  };
}

async function explore(modulePath: string, seed: number) {
  const result = await cli([
    "verify-adapter",
    modulePath,
    "--seed",
    String(seed),
    "--only",
    "explore",
    "--reporter",
    "json",
  ]);
  const report = JSON.parse(result.stdout) as { exploration: ExplorationJson };
  return verdict(report.exploration);
}

let burners: ChildProcess[] = [];
afterEach(() => {
  for (const burner of burners) burner.kill();
  burners = [];
});

/** Two processes that keep both cores busy until killed. */
function loadTheMachine() {
  burners = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
}

describe("the exploration's verdict under load", () => {
  // Seeds whose first failing batch is not the first, and an adapter whose fault shows only when sequences
  // overlap (one sequence's delete takes another's users): one after another, it passes.
  const runs: Array<[string, number, boolean]> = [
    [fixture("adapters", "broken", "get-account-ignores-provider.ts"), 1, false],
    [fixture("adapters", "broken", "unlink-ignores-provider.ts"), 3, false],
    [fixture("adapters", "overlap-only", "delete-user-wipes-other-tenants.ts"), 1, true],
  ];

  it("is the same, failure and replay included, quiet and with both cores kept busy", async () => {
    const quiet = [];
    for (const [modulePath, seed] of runs) quiet.push(await explore(modulePath, seed));
    expect(quiet.map((v) => v.ok)).toEqual(runs.map(([, , passes]) => passes));
    loadTheMachine();
    for (const [i, [modulePath, seed]] of runs.entries()) expect(await explore(modulePath, seed)).toEqual(quiet[i]);
  }, 180_000);
});
