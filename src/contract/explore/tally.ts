/** What an exploration keeps count of while it runs, and where its failure is. */
import { Divergence, type Probe } from "./probe.js";
import type { Decision } from "./schedule.js";
import type { TraceStep } from "./trace.js";

/** A batch seed from the run's seed, so batch k replays alone. */
export function batchSeed(seed: number, batch: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(batch, 0xc2b2ae35)) | 0;
}

/** How much ran: sequences (and those the time limit left unrun), steps, calls, attempts (shrinks included). */
export class Tally {
  runs = 0;
  unrun = 0;
  steps = 0;
  calls = 0;
  attempts = 0;

  add(probe: Probe): void {
    this.steps += probe.trace.length;
    this.calls += probe.calls;
  }
}

/** The failure found: its smallest sequence so far, where to replay it, and when shrinking must stop. */
export class FailureTrail {
  /** `reproduction`: the steps with the reads a caller changed between them, when the failure needs those. */
  smallest: { divergence: Divergence; trace: TraceStep[]; reproduction?: TraceStep[] } | undefined;
  /** Not a divergence: the adapter went away, or the explorer itself failed. */
  internal: unknown;
  /** The replay position (batch and fast-check path), once a run failed. */
  at: string | undefined;
  shrinkDeadline: number | undefined;

  record(error: unknown, probe: Probe): void {
    if (error instanceof Divergence)
      this.smallest = {
        divergence: error,
        trace: probe.trace.slice(),
        reproduction: error.callerChanges ? readsUpTo(probe.traceWithChangedReads, error.call) : undefined,
      };
    else this.internal ??= error;
  }
}

/**
 * The steps and changed reads up to the read that showed the change: the reads started after it (the rest of
 * its sweep, the same read asked again alone to learn whether it needs the overlap) did not make what it saw,
 * and a program that made them too would read a result changed once more than the run reported.
 */
function readsUpTo(steps: TraceStep[], call: Divergence["call"]): TraceStep[] {
  const at = call ? steps.findIndex((step) => step.calls.includes(call)) : -1;
  return at < 0 ? steps.slice() : steps.slice(0, at + 1);
}

/** A replay position in fast-check's terms: the batch, its path and, after "@", the commands' own path. */
export function replayPosition(
  batch: number | string,
  details: { counterexample: unknown[] | null; counterexamplePath: string | null },
): string {
  const commands = String(details.counterexample?.[0] ?? "").match(/replayPath="([^"]*)"/)?.[1];
  return `${batch}:${details.counterexamplePath ?? ""}${commands ? `@${commands}` : ""}`;
}

/**
 * One run of one job (a batch or a crowd) in one phase of the exploration:
 * the salts of its attempts, its warnings and its failure are its own, so
 * jobs running side by side never mix them, and the run's warnings can be
 * merged in seed order whatever order the jobs finished in.
 */
export class JobRun {
  private attempts = 0;
  readonly warnings = new Set<string>();
  readonly failure = new FailureTrail();

  constructor(
    /** Unique in the run, so two attempts never share a salt (a record one could not remove stays). */
    private readonly label: string,
    /** Its sequences count as run (progress, the result's runs): not so for a job run again. */
    readonly counted: boolean,
    /** Stops at its first failure instead of shrinking it (jobs side by side: the verdict is decided later). */
    readonly endOnFailure: boolean,
    /** The time limit leaves its sequences unrun; a job run again to decide the verdict is not cut short. */
    readonly timed: boolean,
  ) {}

  nextSalt(): string {
    return `${this.label}.${++this.attempts}`;
  }
}

/** The phases a job runs in; each marks its salts, so no two attempts of a run share one. */
const phases = { together: "t", alone: "a", inOrder: "o", replay: "r" } as const;
export type Phase = keyof typeof phases;
/** Which job's run decides the verdict: schedule.ts's choice, the lowest job when the adapter went away, or a replay. */
export type Verdict = Decision | { job: number; how: "together" | "replay" };

/** Every job's run in each phase, by job index: what the verdict rests on is read from them in seed order. */
export class JobRuns {
  private readonly runs: Record<Phase, JobRun[]> = { together: [], alone: [], inOrder: [], replay: [] };

  /** A job run of `phase`; together, it counts, stops at its first failure and keeps to the time limit. */
  start(phase: Phase, index: number): JobRun {
    const together = phase === "together";
    const timed = together || phase === "replay";
    const job = new JobRun(`${phases[phase]}${index}`, timed, together, timed);
    this.runs[phase][index] = job;
    return job;
  }

  /** How many jobs were started side by side. */
  get startedTogether(): number {
    return this.runs.together.length;
  }

  /** The job runs the verdict rests on, in seed order: those a run one after another would have made. */
  deciding(verdict: Verdict): JobRun[] {
    const { together, alone, inOrder, replay } = this.runs;
    if (verdict === undefined) return together;
    if (verdict.how === "replay") return replay;
    if (verdict.how === "in order") return inOrder.slice(0, verdict.job + 1);
    if (verdict.how === "together") return together.slice(0, verdict.job + 1);
    return Array.from({ length: verdict.job + 1 }, (_, i) => alone[i] ?? together[i]!);
  }
}
