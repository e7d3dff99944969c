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
 */
import fc from "fast-check";
// Only ever our own errors here: the port turned what the adapter threw into a description.
import { describeThrown } from "../../lib/errors.js";
import { AdapterGone, HungMethods } from "../access/calls.js";
import { addLeftovers, type Leftovers } from "../access/ledger.js";
import { type AdapterPort, toPort } from "../access/port.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { foldingKeys, foldingWarning, type KeyKind } from "./collation.js";
import { Model } from "./model.js";
import { Probe, type ProbeOptions } from "./probe.js";
import type { ExploreOptions, ExploreResult } from "./result.js";
import { formatSnippet } from "./snippet.js";
import { Crowd } from "./steps/crowd.js";
import { commandArbitraries } from "./steps/index.js";
import type { Step } from "./steps/step.js";
import { sweep } from "./sweep.js";
import { batchSeed, FailureTrail, replayPosition, Tally } from "./tally.js";
import { callCode, describeStep, type TraceStep } from "./trace.js";
import { saltFrom } from "./values.js";

export type { ExploreFailure, ExploreOptions, ExploreResult } from "./result.js";

const defaultRuns = 100;

class Exploration {
  private readonly started = performance.now();
  private readonly port: AdapterPort;
  private readonly hung: HungMethods;
  private readonly usable: Set<AdapterMethod>;
  private readonly warnings = new Set<string>();
  private readonly leftovers: Leftovers = {};
  private readonly tally = new Tally();
  private readonly failure = new FailureTrail();
  private readonly maxRuns: number;
  private readonly timeLimit: number;
  private readonly depth: number;
  private folding: ReadonlySet<KeyKind> = new Set();

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

  private probe(strict = this.options.strict ?? false): Probe {
    const options: ProbeOptions = {
      callTimeoutMs: this.options.callTimeoutMs,
      strict,
      hung: this.hung,
      warnings: this.warnings,
      usable: this.usable,
    };
    return new Probe(this.port, options);
  }

  /** Dates are relative to the sequence's start, in whole seconds (some stores drop sub-second precision). */
  private model(salt: string): Model {
    return new Model(Math.floor(Date.now() / 1000) * 1000, saltFrom(`${this.options.nonce}:${salt}`), this.folding);
  }

  /** Runs one attempt on a fresh model, then removes what it wrote; a failure is recorded and thrown on. */
  private async attempt(salt: string, body: (model: Model, probe: Probe) => Promise<void>): Promise<void> {
    this.tally.attempts++;
    const model = this.model(salt);
    const probe = this.probe();
    try {
      await body(model, probe);
    } catch (error) {
      this.failure.record(error, probe);
      throw error;
    } finally {
      this.tally.add(probe);
      addLeftovers(this.leftovers, await probe.clear(model));
    }
  }

  /** One sequence, maybe after a crowd: fast-check's property, so it shrinks what fails. */
  private async sequence(commands: Iterable<Step>, crowd: number | null): Promise<boolean> {
    const { failure, tally } = this;
    if (failure.shrinkDeadline === undefined && this.elapsed() > this.timeLimit) {
      tally.unrun++;
      return true; // out of time: counted as unrun, reported as incomplete
    }
    if (failure.shrinkDeadline !== undefined && this.elapsed() > failure.shrinkDeadline) return true; // keep the smallest
    try {
      await this.attempt(String(tally.attempts + 1), async (model, probe) => {
        if (crowd !== null) await new Crowd(crowd, this.depth).run(model, probe);
        await fc.asyncModelRun(() => ({ model, real: probe }), commands);
        await sweep(probe, model);
      });
    } catch (error) {
      failure.shrinkDeadline ??= this.elapsed() + (this.options.shrinkTimeLimitMs ?? 30_000);
      throw error;
    } finally {
      if (failure.shrinkDeadline === undefined) tally.runs++;
      this.options.onProgress?.({ runs: tally.runs, steps: tally.steps });
      // An adapter answering from memory settles every call as a microtask: without a turn of the
      // event loop here, no timer (progress, the host's own) would run during a long exploration.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return true;
  }

  private property(replayCommands: string | undefined) {
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
    return fc.asyncProperty(commands, crowds, (c, crowd) => this.sequence(c, crowd));
  }

  /**
   * A crowd on its own, then a sweep of everything: as many as the depth, after the sequences, with
   * seeds from the run's, so every run looks at a store of real size whatever fast-check drew.
   */
  private async crowdCheck(k: number): Promise<boolean> {
    try {
      await this.attempt(`crowd${k}`, async (model, probe) => {
        await new Crowd(batchSeed(this.options.seed, 1000 + k), this.depth).run(model, probe);
        await sweep(probe, model);
      });
      return true;
    } catch {
      return false;
    }
  }

  /** The sequences in batches of fast-check runs with seeds from the run's, then the crowds. */
  private async everything(): Promise<string | undefined> {
    const { tally } = this;
    const property = this.property(undefined);
    for (let batch = 0; tally.runs < this.maxRuns; batch++) {
      if (this.elapsed() >= this.timeLimit) {
        tally.unrun += this.maxRuns - tally.runs;
        break;
      }
      const numRuns = Math.min(25, this.maxRuns - tally.runs);
      const details = await fc.check(property, { seed: batchSeed(this.options.seed, batch), numRuns });
      if (details.failed) return replayPosition(batch, details);
    }
    const crowds = this.usable.has("createUser") ? this.depth : 0;
    for (let k = 0; k < crowds && this.elapsed() < this.timeLimit; k++)
      if (!(await this.crowdCheck(k))) return `crowd:${k}`;
    return undefined;
  }

  /** A replay path is "batch:fast-check path@commands path", or "crowd:k". */
  private async replay(path: string): Promise<string | undefined> {
    const [position, commands] = path.split("@");
    if (position!.startsWith("crowd:"))
      return (await this.crowdCheck(Number(position!.slice(6)))) ? undefined : position;
    const [batch, ...rest] = position!.split(":");
    const details = await fc.check(this.property(commands), {
      seed: batchSeed(this.options.seed, Number(batch)),
      path: rest.join(":"),
    });
    return details.failed ? replayPosition(batch!, details) : undefined;
  }

  async run(): Promise<ExploreResult> {
    if (commandArbitraries(this.usable).length === 0) return this.result();
    this.folding = await foldingKeys(this.probe(false), saltFrom(`${this.options.nonce}:fold`), this.leftovers);
    for (const kind of this.folding) this.warnings.add(foldingWarning(kind));
    this.failure.at = this.options.replayPath ? await this.replay(this.options.replayPath) : await this.everything();
    return this.failure.at === undefined ? this.result() : this.failed(this.failure.at);
  }

  private result(extra: Partial<ExploreResult> = {}): ExploreResult {
    const { tally } = this;
    if (tally.unrun > 0 && Number.isFinite(this.maxRuns)) {
      this.warnings.add(
        `exploration incomplete: the time limit (${Math.round(this.timeLimit / 1000)} s) ended it after ${tally.runs} of ${this.maxRuns} sequences; the verdict covers those only (a faster database, or fewer sequences with --explore, runs them all)`,
      );
    }
    const left = Object.keys(this.leftovers).length > 0;
    return {
      // Under strict, a warning or a record left behind fails the run too.
      ok: !(this.options.strict && (this.warnings.size > 0 || left)),
      runs: tally.runs,
      steps: tally.steps,
      calls: tally.calls,
      durationMs: this.elapsed(),
      seed: this.options.seed,
      warnings: [...this.warnings],
      leftovers: this.leftovers,
      ...extra,
    };
  }

  private failed(at: string): ExploreResult {
    const depth = this.depth === 1 ? "" : ` --explore-depth ${this.depth}`;
    const replay = `--seed ${this.options.seed}${depth} --explore-path ${at}`;
    const { smallest, internal } = this.failure;
    if (!smallest) {
      const message =
        internal instanceof AdapterGone
          ? internal.message
          : `exploration stopped on an unexpected error: ${describeThrown(internal)}`;
      return this.result({ ok: false, failure: { message, steps: [], snippet: "", replay, trace: [] } });
    }
    const { divergence, trace, reproduction } = smallest;
    const endWithDivergence = (steps: TraceStep[]) => {
      const { call, together } = divergence;
      // A lookup that overlapped others (a sweep) ends the sequence with them, as calls made together.
      if (call && together && together.length > 1) steps.push({ calls: together, shows: together.indexOf(call) });
      else {
        const lastCalls = steps[steps.length - 1]?.calls.map((c) => callCode(c)) ?? [];
        if (call && !lastCalls.includes(callCode(call))) steps.push({ calls: [call] });
      }
      return steps;
    };
    // The steps read as the sequence; the program also makes the reads whose results were changed, when that matters.
    const steps = endWithDivergence(trace);
    const source = {
      message: divergence.message,
      expected: divergence.expected,
      received: divergence.received,
      replay,
      trace: reproduction ? endWithDivergence(reproduction) : steps,
      callerChanges: divergence.callerChanges,
    };
    return this.result({
      ok: false,
      failure: { ...source, steps: steps.map(describeStep), snippet: formatSnippet(source, "./adapter.ts") },
    });
  }
}

export function explore(options: ExploreOptions): Promise<ExploreResult> {
  return new Exploration(options).run();
}

export { formatSnippet };
