/** What an exploration keeps count of while it runs, and where its failure is. */
import { Divergence, type Probe } from "./probe.js";
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
