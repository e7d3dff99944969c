/**
 * Model-based exploration of an adapter.
 *
 * Design, in short:
 * - fast-check generates sequences of commands (fc.commands) over the
 *   adapter operations of §4.2, plus a few races (two calls started
 *   together), and runs them with fc.asyncModelRun against the real adapter
 *   and an in-memory model (model.ts) of what a correct store holds.
 * - A command is one integer for fast-check; its values are made from it
 *   when it runs (values.ts: realistic text of any script, digit-only ids,
 *   near-duplicates), and resolved against the model as it is then (indexes
 *   wrap), so any shrunk sub-sequence is still meaningful.
 * - After every write, a sweep (sweep.ts) compares the adapter with the
 *   model through every lookup the model can answer about the users the
 *   step wrote (by id, current and former email, account key, session with
 *   its user as it is now, credential, list by user; deleted records
 *   included), and every sequence ends with a sweep of everything, which
 *   finds damage to records a step did not name (over-deletes, leaks).
 *   Results are scribbled on after the check, so a store that hands out its
 *   own objects shows on the next read.
 * - The contract's failure policy (README, verify-adapter)
 *   decides each difference: a broken stated
 *   rule or a misbehaviour a service would show is a Divergence (the
 *   sequence fails and fast-check shrinks it); a deviation the service
 *   tolerates (a return value it ignores) is a warning, a failure under
 *   `strict`. Tolerances: ids as strings, dates to the second, null and
 *   absent alike for optional fields, extra fields, expired records that
 *   are already gone, keys compared as a case-insensitive collation does
 *   (collation.ts: found once, up front).
 * - Every attempt, shrink attempts included, runs against the real adapter
 *   with values salted from the run's nonce and the attempt number, so
 *   attempts and concurrent runs never share a record; what an attempt
 *   created is removed afterwards and what would not go is counted.
 * - A method that never settles fails its sequence and is not called again,
 *   so one hang costs one timeout.
 * - Budget: `runs` sequences, in batches of fc.check with seeds derived
 *   from the run's seed (the replay string names the batch and fast-check's
 *   path), so a seed always runs the same sequences. `timeLimitMs` caps the
 *   wall time: alone it is the budget (`--explore 30s`); beside `runs` a
 *   time-out leaves sequences unrun, and the result says it is incomplete.
 */
import fc from "fast-check";
import { describeThrown } from "../../lib/errors.js";
import { AdapterGone, HungMethods } from "../access/calls.js";
import { type AdapterMethod, type AnyAdapter, presentMethods } from "../spec/adapter.js";
import { cleanUp, describeLeftovers, type Leftovers, noLeftovers } from "./cleanup.js";
import { foldingKeys, foldingWarning } from "./collation.js";
import { Crowd } from "./commands/crowd.js";
import { commandArbitraries } from "./commands/index.js";
import { Model } from "./model.js";
import { Divergence, Probe } from "./probe.js";
import { formatSnippet } from "./snippet.js";
import { sweep } from "./sweep.js";
import { callCode, describeStep, type TraceStep } from "./trace.js";
import { saltFrom } from "./values.js";

interface ExploreOptions {
  adapter: AnyAdapter;
  seed: number;
  /** Stop after this many sequences or this many ms, whichever first (default: 100 sequences). */
  runs?: number;
  timeLimitMs?: number;
  /** Per adapter call limit; a call that never settles is a divergence "X never settled". */
  callTimeoutMs: number;
  /** Methods not to call. */
  exclude?: AdapterMethod[];
  /** Methods found hanging (by the cases, say): not called; the exploration adds the ones it finds. */
  hung?: HungMethods;
  /** Failure policy: when true, tolerated deviations (warnings) also fail. */
  strict?: boolean;
  /** Per-run nonce mixed into generated values so concurrent runs never collide. */
  nonce: string;
  /** Replays one failing sequence: the `--explore-path` value of an earlier failure ("batch:path"). */
  replayPath?: string;
  /** Longest time spent shrinking a failure (default 30 s); the smallest failure found so far is reported. */
  shrinkTimeLimitMs?: number;
  /** How large the crowds some sequences start from are, and how often (default 1; --explore-depth). */
  depth?: number;
  /** Longest sequence generated (default 30 commands). */
  maxSteps?: number;
  onProgress?: (p: { runs: number; steps: number }) => void;
}

export interface ExploreFailure {
  /** One line: which rule or visible misbehaviour. */
  message: string;
  expected?: string;
  received?: string;
  /** The minimal sequence, one human line per step. */
  steps: string[];
  /** Runnable TypeScript against ./adapter.ts; formatSnippet() renders it for another path. */
  snippet: string;
  /** Flags that replay this sequence: "--seed 123 --explore-path 4:2:1@AB:C" (shell-safe, no quoting needed). */
  replay: string;
  /** The calls of the minimal sequence, for formatSnippet(). */
  trace: TraceStep[];
}

export interface ExploreResult {
  ok: boolean;
  /** Sequences run (shrink attempts not counted). */
  runs: number;
  /** Commands run, shrink attempts included. */
  steps: number;
  /** Adapter calls made, lookups and cleanup excluded. */
  calls: number;
  durationMs: number;
  seed: number;
  /** Tolerated deviations, deduplicated, one actionable line each. */
  warnings: string[];
  failure?: ExploreFailure;
  /** Records the exploration created and could not remove. */
  leftovers?: Leftovers;
}

const defaultRuns = 100;

/** A batch seed from the run's seed, so batch k replays alone. */
function batchSeed(seed: number, batch: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(batch, 0xc2b2ae35)) | 0;
}

export async function explore(options: ExploreOptions): Promise<ExploreResult> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const hung = options.hung ?? new HungMethods();
  const exclude = new Set(options.exclude);
  const usable = new Set(presentMethods(options.adapter).filter((m) => !exclude.has(m) && hung.where(m) === undefined));
  const arbitraries = commandArbitraries(usable);
  const warnings = new Set<string>();
  const leftovers = noLeftovers();
  const maxRuns = options.runs ?? (options.timeLimitMs === undefined ? defaultRuns : Number.POSITIVE_INFINITY);
  const timeLimit = options.timeLimitMs ?? Number.POSITIVE_INFINITY;
  const shrinkLimit = options.shrinkTimeLimitMs ?? 30_000;

  let runs = 0;
  // Sequences the time limit left unrun: the verdict then covers fewer than asked, and says so.
  let unrun = 0;
  let steps = 0;
  let calls = 0;
  let attempt = 0;
  let shrinkDeadline: number | undefined;
  let smallest: { divergence: Divergence; trace: TraceStep[] } | undefined;
  let internal: unknown;

  const result = (extra: Partial<ExploreResult> = {}): ExploreResult => {
    const leftoverNote = describeLeftovers(leftovers);
    if (leftoverNote) warnings.add(leftoverNote);
    if (unrun > 0 && Number.isFinite(maxRuns)) {
      warnings.add(
        `exploration incomplete: the time limit (${Math.round(timeLimit / 1000)} s) ended it after ${runs} of ${maxRuns} sequences; the verdict covers those only (a faster database, or fewer sequences with --explore, runs them all)`,
      );
    }
    return {
      // Under strict, a warning (records left behind included) fails the run too.
      ok: !(options.strict && warnings.size > 0),
      runs,
      steps,
      calls,
      durationMs: elapsed(),
      seed: options.seed,
      warnings: [...warnings],
      ...(leftoverNote ? { leftovers } : {}),
      ...extra,
    };
  };
  if (arbitraries.length === 0) return result();

  const probeOptions = { callTimeoutMs: options.callTimeoutMs, strict: false, hung, warnings, usable };
  const folding = await foldingKeys(
    new Probe(options.adapter, probeOptions),
    saltFrom(`${options.nonce}:fold`),
    leftovers,
  );
  for (const kind of folding) warnings.add(foldingWarning(kind));

  // A replay path is "batch:fast-check path@commands path" (the last part tells fast-check which commands ran).
  const [replayRun, replayCommands] = options.replayPath?.split("@") ?? [];
  // Every run ends with crowd checks (below); from depth 2, some sequences also start from a crowd
  // (one in seven at depth 2, more deeper), and shrinking drops it when the failure does not need it.
  const depth = options.depth ?? 1;
  const crowds =
    usable.has("createUser") && depth > 1
      ? fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: fc.nat(), weight: depth - 1 })
      : fc.constant(null);
  const property = fc.asyncProperty(
    fc.commands(arbitraries, { maxCommands: options.maxSteps ?? 30, size: "max", replayPath: replayCommands }),
    crowds,
    async (commands, crowd) => {
      if (shrinkDeadline === undefined && elapsed() > timeLimit) {
        unrun++;
        return true; // out of time: counted as unrun, reported as incomplete
      }
      if (shrinkDeadline !== undefined && elapsed() > shrinkDeadline) return true; // stop shrinking, keep the smallest
      attempt++;
      // Dates are relative to the sequence's start, in whole seconds (some stores drop sub-second precision).
      const model = new Model(Math.floor(Date.now() / 1000) * 1000, saltFrom(`${options.nonce}:${attempt}`), folding);
      const probe = new Probe(options.adapter, { ...probeOptions, strict: options.strict ?? false });
      try {
        if (crowd !== null) await new Crowd(crowd, depth).run(model, probe);
        await fc.asyncModelRun(() => ({ model, real: probe }), commands);
        await sweep(probe, model);
      } catch (error) {
        shrinkDeadline ??= elapsed() + shrinkLimit;
        if (error instanceof Divergence) smallest = { divergence: error, trace: probe.trace.slice() };
        else internal ??= error;
        throw error;
      } finally {
        steps += probe.trace.length;
        calls += probe.calls;
        if (shrinkDeadline === undefined) runs++;
        await cleanUp(probe, model, usable, hung, options.callTimeoutMs, leftovers);
        options.onProgress?.({ runs, steps });
        // An adapter answering from memory settles every call as a microtask: without a turn of the
        // event loop here, no timer (progress, the host's own) would run during a long exploration.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return true;
    },
  );

  let failedAt: string | undefined;
  const where = (
    batch: number | string,
    details: { counterexample: unknown[] | null; counterexamplePath: string | null },
  ) => {
    const commands = String(details.counterexample?.[0] ?? "").match(/replayPath="([^"]*)"/)?.[1];
    return `${batch}:${details.counterexamplePath ?? ""}${commands ? `@${commands}` : ""}`;
  };
  /**
   * A crowd on its own, then a sweep of everything: as many as the depth, after the sequences, with
   * seeds from the run's, so every run looks at a store of real size whatever fast-check drew.
   */
  const crowdCheck = async (k: number): Promise<boolean> => {
    attempt++;
    const model = new Model(Math.floor(Date.now() / 1000) * 1000, saltFrom(`${options.nonce}:crowd${k}`), folding);
    const probe = new Probe(options.adapter, { ...probeOptions, strict: options.strict ?? false });
    try {
      await new Crowd(batchSeed(options.seed, 1000 + k), depth).run(model, probe);
      await sweep(probe, model);
      return true;
    } catch (error) {
      if (error instanceof Divergence) smallest = { divergence: error, trace: probe.trace.slice() };
      else internal ??= error;
      return false;
    } finally {
      steps += probe.trace.length;
      calls += probe.calls;
      await cleanUp(probe, model, usable, hung, options.callTimeoutMs, leftovers);
    }
  };

  if (replayRun?.startsWith("crowd:")) {
    if (!(await crowdCheck(Number(replayRun.slice("crowd:".length))))) failedAt = replayRun;
  } else if (replayRun) {
    const [batch, ...path] = replayRun.split(":");
    const details = await fc.check(property, { seed: batchSeed(options.seed, Number(batch)), path: path.join(":") });
    if (details.failed) failedAt = where(batch!, details);
  } else {
    for (let batch = 0; runs < maxRuns; batch++) {
      if (elapsed() >= timeLimit) {
        unrun += maxRuns - runs;
        break;
      }
      const numRuns = Math.min(25, maxRuns - runs);
      const details = await fc.check(property, { seed: batchSeed(options.seed, batch), numRuns });
      if (details.failed) {
        failedAt = where(batch, details);
        break;
      }
    }
    const crowdsToCheck = usable.has("createUser") ? depth : 0;
    for (let k = 0; k < crowdsToCheck && failedAt === undefined && elapsed() < timeLimit; k++)
      if (!(await crowdCheck(k))) failedAt = `crowd:${k}`;
  }
  if (failedAt === undefined) return result();

  const replay = `--seed ${options.seed}${depth === 1 ? "" : ` --explore-depth ${depth}`} --explore-path ${failedAt}`;
  if (!smallest) {
    return result({
      ok: false,
      failure: {
        message:
          internal instanceof AdapterGone
            ? internal.message
            : `exploration stopped on an unexpected error: ${describeThrown(internal)}`,
        steps: [],
        snippet: "",
        replay,
        trace: [],
      },
    });
  }
  const { divergence, trace } = smallest;
  const lastCalls = trace[trace.length - 1]?.calls.map((c) => callCode(c)) ?? [];
  if (divergence.call && !lastCalls.includes(callCode(divergence.call))) trace.push({ calls: [divergence.call] });
  const source = {
    message: divergence.message,
    expected: divergence.expected,
    received: divergence.received,
    replay,
    trace,
  };
  return result({
    ok: false,
    failure: {
      ...source,
      steps: trace.map(describeStep),
      snippet: formatSnippet(source, "./adapter.ts"),
    },
  });
}

export { formatSnippet };
