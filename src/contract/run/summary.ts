/**
 * What a run found, case by case and as a whole, including why it stopped
 * when it did not finish.
 */

import { addLeftovers, type Leftovers } from "../access/ledger.js";
import type { CapabilityStatus } from "../spec/capabilities.js";
import type { CaseInfo } from "../spec/case.js";
import type { ExplorationReport } from "./exploration.js";

export type CaseStatus = "passed" | "failed" | "skipped";

export interface CaseResult {
  case: CaseInfo;
  status: CaseStatus;
  durationMs: number;
  /** Set when failed. */
  failure?: {
    message: string;
    expected?: string;
    received?: string;
    /** The case where a method this one needs first never settled: the failure is that it was not called again. */
    hungIn?: string;
  };
  /** Set when skipped. */
  skipReason?: string;
  /** Deviations the service tolerates (README: the failure policy). */
  warnings: string[];
  /** Observations about the adapter as a whole; the summary lists each once. */
  notes: string[];
  /** Records the case created that were still there after its cleanup. */
  leftovers: Leftovers;
}

export interface RunSummary {
  seed: number;
  passed: number;
  failed: number;
  skipped: number;
  warnings: number;
  notes: string[];
  /** Capabilities named by --require that the adapter lacks. */
  unmetRequirements: CapabilityStatus[];
  /** Records the run created and could not remove, by kind. */
  leftovers: Leftovers;
  /** Methods that never settled, and the case where each first did. */
  hung: Array<{ method: string; caseId: string }>;
  /** Set when the run did not finish: why, in one line. */
  aborted?: string;
  /** Set when teardown() failed or never settled after the cases ran. */
  teardownError?: string;
  /** The model-based exploration, when it ran (verify-adapter's --explore). */
  exploration?: ExplorationReport;
  durationMs: number;
  ok: boolean;
}

export function summarize(
  results: CaseResult[],
  context: {
    seed: number;
    unmetRequirements: CapabilityStatus[];
    hung: RunSummary["hung"];
    started: number;
  },
  aborted?: string,
): RunSummary {
  const count = (status: CaseStatus) => results.filter((r) => r.status === status).length;
  const leftovers: Leftovers = {};
  for (const result of results) addLeftovers(leftovers, result.leftovers);
  return {
    seed: context.seed,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    warnings: results.reduce((n, r) => n + r.warnings.length, 0),
    notes: [...new Set(results.flatMap((r) => r.notes))],
    unmetRequirements: context.unmetRequirements,
    leftovers,
    hung: context.hung,
    aborted,
    durationMs: performance.now() - context.started,
    ok: !aborted && count("failed") === 0 && context.unmetRequirements.length === 0,
  };
}
