/**
 * Runs contract cases against an adapter and reports through events. The
 * runner decides pass, fail or skip; reporters only present.
 */
import { describeThrown } from "../../lib/errors.js";
import { AdapterCalls, AdapterGone, HungMethods } from "../access/calls.js";
import type { Leftovers } from "../access/cleanup.js";
import { CaseContext } from "../access/context.js";
import { newNonce, randomFor } from "../access/random.js";
import { type AnyAdapter, hasMethod } from "../spec/adapter.js";
import { type CapabilityName, type CapabilityStatus, capabilityStatus } from "../spec/capabilities.js";
import { type CaseInfo, type ContractCase, caseInfo } from "../spec/case.js";
import { ContractFailure } from "../spec/failure.js";
import { type CaseResult, type RunSummary, summarize } from "./summary.js";

export type { CaseResult, RunSummary } from "./summary.js";

export type RunEvent =
  | {
      type: "run:start";
      seed: number;
      cases: CaseInfo[];
      capabilities: CapabilityStatus[];
      required: CapabilityName[];
    }
  | { type: "case:start"; case: CaseInfo }
  | { type: "case:end"; result: CaseResult }
  /** After each exploration sequence: how far it has got (of `of` sequences, when a number was asked). */
  | { type: "exploration:progress"; runs: number; steps: number; of?: number }
  | { type: "run:end"; summary: RunSummary; results: CaseResult[] };

interface CaseOptions {
  seed: number;
  /** Mixed into every unique value, so concurrent runs never share records. */
  nonce: string;
  timeoutMs: number;
  /** Warnings fail the case (--strict). */
  strict: boolean;
  hung: HungMethods;
}

export interface RunOptions extends Omit<CaseOptions, "hung" | "nonce" | "strict"> {
  /** Shared with an exploration that follows, so a method that hung is not called again. */
  hung?: HungMethods;
  /** Default: a fresh random nonce. */
  nonce?: string;
  strict?: boolean;
  adapter: AnyAdapter;
  cases: ContractCase[];
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

function failureOf(error: unknown, calls: AdapterCalls, timeoutMs: number): NonNullable<CaseResult["failure"]> {
  if (error instanceof Timeout) {
    const hung = calls.markPendingAsHung();
    const which = hung.length > 0 ? `${hung.join(", ")} never settled` : "an adapter method never settled";
    return {
      message: `did not finish within ${timeoutMs} ms: ${which}; later cases will not call it (raise --timeout for a slow database)`,
    };
  }
  if (error instanceof AdapterGone) return { message: error.message };
  if (error instanceof ContractFailure)
    return { message: error.message, expected: error.expected, received: error.received };
  return { message: `the case stopped on an unexpected error: ${describeThrown(error)}` };
}

export async function runCase(
  adapter: AnyAdapter,
  contractCase: ContractCase,
  options: CaseOptions,
): Promise<CaseResult> {
  const started = performance.now();
  const info = caseInfo(contractCase);
  const finish = (result: Partial<CaseResult> & Pick<CaseResult, "status">): CaseResult => ({
    case: info,
    durationMs: performance.now() - started,
    warnings: [],
    notes: [],
    leftovers: {},
    ...result,
  });
  const missing = contractCase.needs.filter((method) => !hasMethod(adapter, method));
  if (missing.length > 0) return finish({ status: "skipped", skipReason: `not implemented: ${missing.join(", ")}` });
  const hung = contractCase.needs.find((method) => options.hung.where(method) !== undefined);
  if (hung) {
    return finish({
      status: "failed",
      failure: { message: `${hung} never settled in ${options.hung.where(hung)}; not called again` },
    });
  }

  const calls = new AdapterCalls(adapter, options.hung, contractCase.id);
  const context = new CaseContext(
    calls,
    randomFor(options.seed, contractCase.id),
    randomFor(options.seed, `${options.nonce}:${contractCase.id}`),
  );
  let failure: CaseResult["failure"];
  try {
    await withTimeout(contractCase.run(context), options.timeoutMs);
  } catch (error) {
    failure = failureOf(error, calls, options.timeoutMs);
  }
  // Clean up even after a failure; a hung delete must not hang the run.
  let leftovers: Leftovers = {};
  try {
    leftovers = await withTimeout(context.cleanup.run(), options.timeoutMs);
  } catch (error) {
    if (error instanceof Timeout) calls.markPendingAsHung();
  }
  if (!failure && options.strict && context.warnings.length > 0)
    failure = { message: `--strict: ${context.warnings[0]}` };
  return finish({
    status: failure ? "failed" : "passed",
    failure,
    warnings: context.warnings,
    notes: [...context.notes],
    leftovers,
  });
}

/** A case the run did not get to: the adapter could no longer answer. */
function notRun(contractCase: ContractCase): CaseResult {
  return {
    case: caseInfo(contractCase),
    status: "skipped",
    durationMs: 0,
    skipReason: "not run: the run stopped",
    warnings: [],
    notes: [],
    leftovers: {},
  };
}

export async function runContract(options: RunOptions): Promise<RunSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const started = performance.now();
  const hung = options.hung ?? new HungMethods();
  const caseOptions: CaseOptions = {
    seed: options.seed,
    timeoutMs: options.timeoutMs,
    nonce: options.nonce ?? newNonce(),
    strict: options.strict ?? false,
    hung,
  };
  const capabilities = capabilityStatus(options.adapter);
  emit({
    type: "run:start",
    seed: options.seed,
    cases: options.cases.map(caseInfo),
    capabilities,
    required: options.require,
  });

  const results: CaseResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < options.cases.length) {
      const index = next++;
      const contractCase = options.cases[index]!;
      emit({ type: "case:start", case: caseInfo(contractCase) });
      const result = hung.stopped ? notRun(contractCase) : await runCase(options.adapter, contractCase, caseOptions);
      results[index] = result;
      emit({ type: "case:end", result });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));

  const unmetRequirements = capabilities.filter((c) => !c.supported && options.require.includes(c.name));
  const summary = summarize(
    results,
    { seed: options.seed, unmetRequirements, hung: hung.entries(), started },
    hung.stopped,
  );
  emit({ type: "run:end", summary, results });
  return summary;
}
