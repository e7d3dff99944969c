/**
 * The model-based exploration (src/contract/explore/) as one part of a
 * verify-adapter run: its budget from --explore, its result in the run's
 * summary, so the same reporters show it and the same verdict includes it.
 */
import { UsageError } from "../../lib/errors.js";
import type { HungMethods } from "../access/calls.js";
import type { Leftovers } from "../access/ledger.js";
import type { AdapterPort } from "../access/port.js";
import type { ExploreFailure } from "../explore/run.js";
import type { ExplorationTurns } from "../explore/schedule.js";

/** Sequences to run, or a time to run them for; exploration is off when null. */
export type ExploreBudget = { runs?: number; timeLimitMs?: number; depth?: number } | null;

/**
 * The default: enough sequences to catch what no case names, few enough that
 * a passing in-memory run stays quick. The number is fixed, so a seed gives
 * the same sequences and the same verdict on a fast and a busy machine; the
 * time cap only stops a database so slow that 40 sequences would take
 * minutes, and then the run says it is incomplete (a failure under --strict).
 */
export const defaultExploreBudget = { runs: 40, timeLimitMs: 120_000 } as const;

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `--explore 200` (sequences), `--explore 30s` or `2m` (time), `--explore 0` (off). */
export function parseExploreBudget(text: string | undefined): ExploreBudget {
  if (text === undefined) return { ...defaultExploreBudget };
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value) === 0 ? null : { runs: Number(value) };
  const time = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value);
  if (time && Number(time[1]) > 0) return { timeLimitMs: Math.round(Number(time[1]) * units[time[2]!]!) };
  throw new UsageError(
    `--explore: invalid value "${text}"; expected a number of sequences (200), a time (30s, 2m), or 0 to turn it off.`,
  );
}

export interface ExplorationReport {
  runs: number;
  steps: number;
  durationMs: number;
  ok: boolean;
  warnings: string[];
  /** The explorer's failure, its reproduction written for the user's module (no trace: not sent). */
  failure?: Omit<ExploreFailure, "trace">;
  leftovers: Leftovers;
}

export interface ExplorationJob {
  adapter: AdapterPort;
  budget: NonNullable<ExploreBudget>;
  seed: number;
  nonce: string;
  callTimeoutMs: number;
  strict: boolean;
  /** Methods that never settled in the cases: not called again. */
  hung?: HungMethods;
  replayPath?: string;
  onProgress?: (progress: { runs: number; steps: number }) => void;
  /** Beside the cases: when they may start, and when the verdict may be decided. */
  turns?: ExplorationTurns;
  /** How the reproduction imports the module. */
  modulePath: string;
  exportName: string;
}

export async function runExploration(job: ExplorationJob): Promise<ExplorationReport> {
  const { explore, formatSnippet } = await import("../explore/run.js");
  const result = await explore({
    adapter: job.adapter,
    seed: job.seed,
    runs: job.budget.runs,
    timeLimitMs: job.budget.timeLimitMs,
    depth: job.budget.depth,
    callTimeoutMs: job.callTimeoutMs,
    hung: job.hung,
    strict: job.strict,
    nonce: job.nonce,
    replayPath: job.replayPath,
    onProgress: job.onProgress,
    turns: job.turns,
  });
  const failure = result.failure;
  return {
    runs: result.runs,
    steps: result.steps,
    durationMs: result.durationMs,
    ok: result.ok,
    warnings: result.warnings,
    failure: failure && {
      message: failure.message,
      expected: failure.expected,
      received: failure.received,
      steps: failure.steps,
      snippet: formatSnippet(failure, job.modulePath, job.exportName),
      replay: failure.replay,
    },
    leftovers: result.leftovers,
  };
}
