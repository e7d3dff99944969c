/**
 * Runs contract cases against an adapter and reports through events. The
 * runner decides pass, fail or skip; reporters only present.
 */
import { describeThrown } from "../lib/errors.js";
import { type AnyAdapter, hasMethod } from "./adapter.js";
import { type CapabilityName, type CapabilityStatus, capabilityStatus } from "./capabilities.js";
import type { ContractCase } from "./case.js";
import { CaseContext } from "./context.js";
import { ContractFailure } from "./failure.js";
import { randomFor } from "./random.js";

export type CaseStatus = "passed" | "failed" | "skipped";

export interface CaseResult {
  case: ContractCase;
  status: CaseStatus;
  durationMs: number;
  /** Set when failed. */
  failure?: { message: string; expected?: string; received?: string };
  /** Set when skipped. */
  skipReason?: string;
  warnings: string[];
  /** Observations about the adapter as a whole; the summary lists each once. */
  notes: string[];
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
  durationMs: number;
  ok: boolean;
}

export type RunEvent =
  | {
      type: "run:start";
      seed: number;
      cases: ContractCase[];
      capabilities: CapabilityStatus[];
      required: CapabilityName[];
    }
  | { type: "case:start"; case: ContractCase }
  | { type: "case:end"; result: CaseResult }
  | { type: "run:end"; summary: RunSummary; results: CaseResult[] };

export interface RunOptions {
  adapter: AnyAdapter;
  cases: ContractCase[];
  seed: number;
  timeoutMs: number;
  concurrency: number;
  require: CapabilityName[];
  onEvent?: (event: RunEvent) => void;
}

class Timeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export async function runCase(
  adapter: AnyAdapter,
  contractCase: ContractCase,
  seed: number,
  timeoutMs: number,
): Promise<CaseResult> {
  const started = performance.now();
  const finish = (
    result: Omit<CaseResult, "case" | "durationMs" | "notes">,
    notes: Set<string> = new Set(),
  ): CaseResult => ({
    case: contractCase,
    durationMs: performance.now() - started,
    notes: [...notes],
    ...result,
  });
  const missing = contractCase.needs.filter((method) => !hasMethod(adapter, method));
  if (missing.length > 0)
    return finish({ status: "skipped", skipReason: `not implemented: ${missing.join(", ")}`, warnings: [] });

  const context = new CaseContext(adapter, randomFor(seed, contractCase.id));
  let failure: CaseResult["failure"];
  try {
    await withTimeout(contractCase.run(context), timeoutMs);
  } catch (error) {
    if (error instanceof Timeout) {
      failure = {
        message: `did not finish within ${timeoutMs} ms: an adapter method never settled (raise --timeout for a slow database)`,
      };
    } else if (error instanceof ContractFailure) {
      failure = { message: error.message, expected: error.expected, received: error.received };
    } else {
      failure = { message: `the case stopped on an unexpected error: ${describeThrown(error)}` };
    }
  }
  // Clean up even after a failure; a hung delete must not hang the run.
  await withTimeout(context.cleanup(), timeoutMs).catch(() => undefined);
  return finish(
    failure
      ? { status: "failed", failure, warnings: context.warnings }
      : { status: "passed", warnings: context.warnings },
    context.notes,
  );
}

export async function runContract(options: RunOptions): Promise<RunSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const started = performance.now();
  const capabilities = capabilityStatus(options.adapter);
  emit({ type: "run:start", seed: options.seed, cases: options.cases, capabilities, required: options.require });

  const results: CaseResult[] = new Array(options.cases.length);
  let next = 0;
  const worker = async () => {
    while (next < options.cases.length) {
      const index = next++;
      const contractCase = options.cases[index]!;
      emit({ type: "case:start", case: contractCase });
      const result = await runCase(options.adapter, contractCase, options.seed, options.timeoutMs);
      results[index] = result;
      emit({ type: "case:end", result });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));

  const count = (status: CaseStatus) => results.filter((r) => r.status === status).length;
  const unmetRequirements = capabilities.filter((c) => !c.supported && options.require.includes(c.name));
  const summary: RunSummary = {
    seed: options.seed,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    warnings: results.reduce((n, r) => n + r.warnings.length, 0),
    notes: [...new Set(results.flatMap((r) => r.notes))],
    unmetRequirements,
    durationMs: performance.now() - started,
    ok: count("failed") === 0 && unmetRequirements.length === 0,
  };
  emit({ type: "run:end", summary, results });
  return summary;
}
