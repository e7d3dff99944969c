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
 *   The answers the service hands on are changed where the adapter holds
 *   them right after they are read (probe.ts), so a store that hands out its
 *   own objects shows on the next read.
 * - The contract's failure policy (README, verify-adapter)
 *   decides each difference: a broken stated
 *   rule or a misbehaviour a service would show is a Divergence (the
 *   sequence fails and fast-check shrinks it); a deviation the service
 *   tolerates (a return value it ignores) is a warning, a failure under
 *   `strict`. Tolerances: those of the cases (spec/tolerance.ts), expired
 *   records that are already gone, keys compared as a case-insensitive
 *   collation does (collation.ts: found once, up front).
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
 * - The batches and the crowds (jobs) run side by side, a few at a time,
 *   and the verdict is chosen in seed order (schedule.ts): a job that failed
 *   among others is run again alone, and only then shrunk. In verify-adapter
 *   the jobs also run beside the cases, and the verdict is decided once the
 *   cases are done (run/turns.ts).
 */
import fc from "fast-check";
import { HungMethods } from "../access/calls.js";
import { addLeftovers, type Leftovers } from "../access/ledger.js";
import { type AdapterPort, toPort } from "../access/port.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { foldingKeys, foldingWarning, type KeyKind } from "./collation.js";
import { describeFailure } from "./failure-report.js";
import { Model } from "./model.js";
import { Probe, type ProbeOptions } from "./probe.js";
import type { ExploreOptions, ExploreResult } from "./result.js";
import { decideInSeedOrder, type JobOutcome, runSideBySide } from "./schedule.js";
import { formatSnippet } from "./snippet.js";
import { Crowd } from "./steps/crowd.js";
import { commandArbitraries } from "./steps/index.js";
import type { Step } from "./steps/step.js";
import { sweep } from "./sweep.js";
import { batchSeed, JobRun, JobRuns, type Phase, replayPosition, Tally, type Verdict } from "./tally.js";
import { saltFrom } from "./values.js";

export type { ExploreFailure, ExploreOptions, ExploreResult } from "./result.js";

const defaultRuns = 100;
/** Sequences per fast-check batch: few enough that the default forty make as many batches as run at once. */
const batchRuns = 10;

class Exploration {
  private readonly started = performance.now();
  private readonly port: AdapterPort;
  private readonly hung: HungMethods;
  private readonly usable: Set<AdapterMethod>;
  private readonly leftovers: Leftovers = {};
  private readonly tally = new Tally();
  private readonly maxRuns: number;
  private readonly timeLimit: number;
  private readonly depth: number;
  private folding: ReadonlySet<KeyKind> = new Set();
  private readonly runs = new JobRuns();
  private readonly before = new JobRun("fold", false, false, false);

  constructor(private readonly options: ExploreOptions) {
    this.port = toPort(options.adapter);
    this.hung = options.hung ?? new HungMethods();
    const exclude = new Set(options.exclude);
    this.usable = new Set([...this.port.methods].filter((m) => !exclude.has(m) && this.hung.where(m) === undefined));
    this.maxRuns = options.runs ?? (options.timeLimitMs === undefined ? defaultRuns : Number.POSITIVE_INFINITY);
    this.timeLimit = options.timeLimitMs ?? Number.POSITIVE_INFINITY;
    this.depth = options.depth ?? 1;
  }

  private elapsed(): number {
    return performance.now() - this.started;
  }

  private probe(job: JobRun, strict = this.options.strict ?? false): Probe {
    const options: ProbeOptions = {
      callTimeoutMs: this.options.callTimeoutMs,
      strict,
      hung: this.hung,
      warnings: job.warnings,
      usable: this.usable,
    };
    return new Probe(this.port, options);
  }

  /** Dates are relative to the sequence's start, in whole seconds (some stores drop sub-second precision). */
  private model(salt: string): Model {
    return new Model(Math.floor(Date.now() / 1000) * 1000, saltFrom(`${this.options.nonce}:${salt}`), this.folding);
  }

  /** Runs one attempt on a fresh model, then removes what it wrote; a failure is recorded and thrown on. */
  private async attempt(job: JobRun, body: (model: Model, probe: Probe) => Promise<void>): Promise<void> {
    this.tally.attempts++;
    const model = this.model(job.nextSalt());
    const probe = this.probe(job);
    try {
      await body(model, probe);
    } catch (error) {
      job.failure.record(error, probe);
      throw error;
    } finally {
      this.tally.add(probe);
      addLeftovers(this.leftovers, await probe.clear(model));
    }
  }

  /** One sequence, maybe after a crowd: fast-check's property, so it shrinks what fails. */
  private async sequence(job: JobRun, commands: Iterable<Step>, crowd: number | null): Promise<boolean> {
    const { tally } = this;
    const { failure } = job;
    if (failure.shrinkDeadline === undefined && job.timed && this.elapsed() > this.timeLimit) {
      tally.unrun++;
      return true; // out of time: counted as unrun, reported as incomplete
    }
    if (failure.shrinkDeadline !== undefined && this.elapsed() > failure.shrinkDeadline) return true; // keep the smallest
    try {
      await this.attempt(job, async (model, probe) => {
        if (crowd !== null) await new Crowd(crowd, this.depth).run(model, probe);
        await fc.asyncModelRun(() => ({ model, real: probe }), commands);
        await sweep(probe, model);
      });
    } catch (error) {
      failure.shrinkDeadline ??= this.elapsed() + (this.options.shrinkTimeLimitMs ?? 30_000);
      throw error;
    } finally {
      if (failure.shrinkDeadline === undefined && job.counted) tally.runs++;
      this.options.onProgress?.({ runs: tally.runs, steps: tally.steps });
      // An adapter answering from memory settles every call as a microtask: without a turn of the
      // event loop here, no timer (progress, the host's own) would run during a long exploration.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return true;
  }

  private property(job: JobRun, replayCommands: string | undefined) {
    // From depth 2, some sequences also start from a crowd (one in seven at depth 2, more deeper);
    // shrinking drops it when the failure does not need it.
    const crowds =
      this.usable.has("createUser") && this.depth > 1
        ? fc.oneof({ arbitrary: fc.constant(null), weight: 6 }, { arbitrary: fc.nat(), weight: this.depth - 1 })
        : fc.constant(null);
    const commands = fc.commands(commandArbitraries(this.usable), {
      maxCommands: this.options.maxSteps ?? 30,
      size: "max",
      replayPath: replayCommands,
    });
    return fc.asyncProperty(commands, crowds, (c, crowd) => this.sequence(job, c, crowd));
  }

  /**
   * A crowd on its own, then a sweep of everything: as many as the depth, after the sequences, with
   * seeds from the run's, so every run looks at a store of real size whatever fast-check drew.
   */
  private async crowdCheck(job: JobRun, k: number): Promise<string | undefined> {
    try {
      await this.attempt(job, async (model, probe) => {
        await new Crowd(batchSeed(this.options.seed, 1000 + k), this.depth).run(model, probe);
        await sweep(probe, model);
      });
      return undefined;
    } catch {
      return `crowd:${k}`;
    }
  }

  /** The batches the budget asks for (endless for a time alone), then as many crowds as the depth. */
  private get batches(): number {
    return Math.ceil(this.maxRuns / batchRuns);
  }

  private get jobs(): number {
    return this.batches + (this.usable.has("createUser") ? this.depth : 0);
  }

  /** Job `index` in `phase`: a batch of fast-check runs (or a crowd); its replay position when it failed. */
  private async runJob(index: number, phase: Phase): Promise<JobOutcome> {
    const job = this.runs.start(phase, index);
    let at: string | undefined;
    if (index >= this.batches) at = await this.crowdCheck(job, index - this.batches);
    else {
      const numRuns = Math.min(batchRuns, this.maxRuns - index * batchRuns);
      const seed = batchSeed(this.options.seed, index);
      const details = await fc.check(this.property(job, undefined), { seed, numRuns, endOnFailure: job.endOnFailure });
      if (details.failed) at = replayPosition(index, details);
    }
    job.failure.at = at;
    return at === undefined ? "passed" : "failed";
  }

  /** Every job side by side, then the verdict in seed order (schedule.ts). */
  private async everything(): Promise<Verdict> {
    const inBudget = (index: number) => index < this.jobs && this.elapsed() < this.timeLimit && !this.hung.stopped;
    const failedTogether = await runSideBySide(inBudget, (index) => this.runJob(index, "together"));
    // Beside the cases: the verdict is decided once they are done, alone (run/turns.ts).
    if (this.options.turns && !(await this.options.turns.alone())) return undefined;
    // The adapter went away: nothing can run again, and the lowest job that saw it says why.
    if (this.hung.stopped && failedTogether.length > 0) return { job: failedTogether[0]!, how: "together" };
    if (failedTogether.length === 0 && Number.isFinite(this.maxRuns))
      this.tally.unrun += this.maxRuns - this.tally.runs;
    const { startedTogether } = this.runs;
    return decideInSeedOrder(
      failedTogether,
      (index) => this.runJob(index, "alone"),
      async () => {
        // What ran together runs again whatever the time; later jobs only while the time lasts.
        for (let index = 0; index < startedTogether || inBudget(index); index++)
          if ((await this.runJob(index, "inOrder")) === "failed") return index;
        return undefined;
      },
    );
  }

  /** A replay path is "batch:fast-check path@commands path", or "crowd:k". */
  private async replay(path: string): Promise<Verdict> {
    const job = this.runs.start("replay", 0);
    const [position, commands] = path.split("@");
    if (position!.startsWith("crowd:")) job.failure.at = await this.crowdCheck(job, Number(position!.slice(6)));
    else {
      const [batch, ...rest] = position!.split(":");
      const details = await fc.check(this.property(job, commands), {
        seed: batchSeed(this.options.seed, Number(batch)),
        path: rest.join(":"),
      });
      if (details.failed) job.failure.at = replayPosition(batch!, details);
    }
    return job.failure.at === undefined ? undefined : { job: 0, how: "replay" };
  }

  async run(): Promise<ExploreResult> {
    if (commandArbitraries(this.usable).length === 0) return this.result(undefined);
    await this.options.turns?.mayPrepare();
    this.folding = await foldingKeys(
      this.probe(this.before, false),
      saltFrom(`${this.options.nonce}:fold`),
      this.leftovers,
    );
    for (const kind of this.folding) this.before.warnings.add(foldingWarning(kind));
    this.options.turns?.prepared();
    const { replayPath, turns } = this.options;
    // A replay runs alone, after the cases.
    if (replayPath && turns && !(await turns.alone())) return this.result(undefined);
    const decision = replayPath ? await this.replay(replayPath) : await this.everything();
    return this.result(decision);
  }

  private result(decision: Verdict): ExploreResult {
    const { tally } = this;
    const deciding = this.runs.deciding(decision);
    const warnings = new Set([...this.before.warnings, ...deciding.flatMap((job) => [...job.warnings])]);
    if (tally.unrun > 0 && Number.isFinite(this.maxRuns)) {
      warnings.add(
        `exploration incomplete: the time limit (${Math.round(this.timeLimit / 1000)} s) ended it after ${tally.runs} of ${this.maxRuns} sequences; the verdict covers those only (a faster database, or fewer sequences with --explore, runs them all)`,
      );
    }
    const left = Object.keys(this.leftovers).length > 0;
    const failed = decision && deciding.at(-1)!.failure;
    return {
      // Under strict, a warning or a record left behind fails the run too.
      ok: !failed && !(this.options.strict && (warnings.size > 0 || left)),
      runs: tally.runs,
      steps: tally.steps,
      calls: tally.calls,
      durationMs: this.elapsed(),
      seed: this.options.seed,
      warnings: [...warnings],
      leftovers: this.leftovers,
      ...(failed && { failure: describeFailure(failed, failed.at!, this.options.seed, this.depth) }),
    };
  }
}

export function explore(options: ExploreOptions): Promise<ExploreResult> {
  return new Exploration(options).run();
}

export { formatSnippet };
