// The exploration's jobs run side by side, and the verdict is still the one a
// run of them one after another gives: the failure reported is the lowest
// job's that fails alone, whatever order the jobs finished in, and a fault
// that shows only when sequences overlap leaves the sequential verdict.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import createMemoryAdapter from "../../fixtures/adapters/memory.js";
import { wipingAdapter } from "../../fixtures/adapters/overlap-only/delete-user-wipes-other-tenants.js";
import { HungMethods } from "../../src/contract/access/calls.js";
import { type ExploreResult, explore } from "../../src/contract/explore/run.js";
import { decideInSeedOrder, type JobOutcome, jobsAtOnce, runSideBySide } from "../../src/contract/explore/schedule.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture } from "../helpers.js";
import { underLoad } from "../support/slowed-adapter.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("jobs side by side", () => {
  it("runs at most jobsAtOnce at a time and starts none after a job that failed", async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    let failedAt: number | undefined;
    const startedAfterFailure: number[] = [];
    const failed = await runSideBySide(
      (index) => index < 12,
      async (index) => {
        started.push(index);
        if (failedAt !== undefined) startedAfterFailure.push(index);
        running++;
        most = Math.max(most, running);
        // Later jobs finish first: job 5's failure is known while lower jobs still run.
        await pause(index === 5 ? 1 : 40 - index * 3);
        running--;
        if (index === 5 || index === 6) {
          failedAt ??= performance.now();
          return "failed";
        }
        return "passed";
      },
    );
    expect(most).toBe(jobsAtOnce);
    expect(failed).toEqual(failed.slice().sort((a, b) => a - b));
    expect(failed[0]).toBe(5);
    expect(startedAfterFailure.every((index) => index < 5)).toBe(true);
    expect(started).not.toContain(11);
  });

  it("reports the lowest job that fails alone, trying them lowest first", async () => {
    const tried: number[] = [];
    const alone = async (index: number): Promise<JobOutcome> => {
      tried.push(index);
      return index === 4 || index === 7 ? "failed" : "passed";
    };
    const decision = await decideInSeedOrder([2, 4, 7], alone, async () => {
      throw new Error("not reached: a job failed alone");
    });
    expect(decision).toEqual({ job: 4, how: "alone" });
    expect(tried).toEqual([2, 4]);
  });

  it("runs every job in order when none fails alone, and nothing again when none failed together", async () => {
    const inOrder = async () => 3;
    expect(await decideInSeedOrder([5], async () => "passed", inOrder)).toEqual({ job: 3, how: "in order" });
    expect(
      await decideInSeedOrder(
        [5],
        async () => "passed",
        async () => undefined,
      ),
    ).toBeUndefined();
    const never = async (): Promise<never> => {
      throw new Error("not reached");
    };
    expect(await decideInSeedOrder([], never, never)).toBeUndefined();
  });
});

const explored = (adapter: AnyAdapter, seed: number) =>
  explore({ adapter, seed, runs: 40, callTimeoutMs: 10_000, nonce: "same-salts" });

/** What must not depend on timing: the verdict and the failure; ids are random and dates relative to the run's start. */
function verdict(result: ExploreResult) {
  const mask = (text: string | undefined) =>
    text
      ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})?/g, "<id>")
      .replace(/Date\([^)]*\)/g, "Date");
  const failure = result.failure;
  return {
    ok: result.ok,
    warnings: result.warnings,
    failure: failure && {
      message: mask(failure.message),
      expected: mask(failure.expected),
      received: mask(failure.received),
      steps: failure.steps.map(mask),
      replay: failure.replay,
    },
  };
}

async function broken(name: string): Promise<AnyAdapter> {
  const mod = await import(pathToFileURL(join(fixture("adapters", "broken"), `${name}.ts`)).href);
  return mod.default();
}

describe("the verdict does not depend on which job finishes first", () => {
  // Seeds whose first failing batch is not the first: lower batches pass beside it, higher ones may fail first.
  // (Not a fault a race step finds, such as verification-token-reusable's: which of two calls started together
  // answers first is the race itself, and a loaded machine may answer them in either order.)
  for (const [name, seed] of [
    ["get-account-ignores-provider", 1],
    ["unlink-ignores-provider", 3],
  ] as const) {
    it(`${name}: the same failure, steps and replay with calls made at random turns`, async () => {
      const quiet = verdict(await explored(await broken(name), seed));
      expect(quiet.failure?.steps.length).toBeGreaterThan(0);
      const loaded = verdict(await explored(underLoad(await broken(name)), seed));
      expect(loaded).toEqual(quiet);
    }, 30_000);
  }

  it("a fault that shows only when sequences overlap gives the verdict of a run one after another", async () => {
    for (const load of [false, true]) {
      const { adapter, wiped } = wipingAdapter();
      const result = await explored(load ? underLoad(adapter as AnyAdapter) : (adapter as AnyAdapter), 1);
      // Sequences did overlap and one's delete took another's users; run one after another, none fails.
      expect(wiped()).toBeGreaterThan(0);
      expect(verdict(result)).toEqual({ ok: true, warnings: [], failure: undefined });
    }
  }, 30_000);
});

describe("hangs in sequences side by side", () => {
  it("two calls that hang at once are not two hangs in a row; a hang after a hang with no answer between is", () => {
    const hung = new HungMethods();
    const madeBeforeEither = hung.hangs;
    hung.mark(["getUserByEmail"], "the exploration", madeBeforeEither);
    hung.mark(["getAccount"], "the exploration", madeBeforeEither);
    expect(hung.stopped).toBeUndefined();
    hung.mark(["getUser"], "the exploration", hung.hangs);
    expect(hung.stopped).toMatch(/3 methods never settled .*the adapter stopped answering/);
  });

  it("an adapter with two methods that never settle gets the first named, not called the adapter that stopped", async () => {
    const adapter = createMemoryAdapter() as Record<string, unknown>;
    adapter.getUserByEmail = () => new Promise(() => {});
    adapter.getAccount = () => new Promise(() => {});
    const result = await explore({
      adapter: adapter as AnyAdapter,
      seed: 1,
      runs: 40,
      callTimeoutMs: 200,
      nonce: "hangs",
    });
    expect(result.failure?.message).toMatch(
      /^(getUserByEmail|getAccount) never settled within 200 ms; not called again$/,
    );
  }, 30_000);
});
