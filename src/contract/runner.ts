/**
 * Runs contract cases against an adapter and reports through events. The
 * runner decides pass, fail or skip; reporters only present.
 */
import { describeThrown } from "../lib/errors.js";
import { type AnyAdapter, hasMethod } from "./adapter.js";
import { AdapterCalls, HungMethods } from "./calls.js";
import { type CapabilityName, type CapabilityStatus, capabilityStatus } from "./capabilities.js";
import { type CaseInfo, type ContractCase, caseInfo } from "./case.js";
import { type Leftovers, recordKinds } from "./cleanup.js";
import { CaseContext } from "./context.js";
import type { ExplorationReport } from "./exploration.js";
import { ContractFailure } from "./failure.js";
import { newNonce, randomFor } from "./random.js";

export type CaseStatus = "passed" | "failed" | "skipped";

export interface CaseResult {
  case: CaseInfo;
  status: CaseStatus;
  durationMs: number;
  /** Set when failed. */
  failure?: { message: string; expected?: string; received?: string };
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
  | { type: "run:end"; summary: RunSummary; results: CaseResult[] };

export interface CaseOptions {
  seed: number;
  /** Mixed into every unique value, so concurrent runs never share records. */
  nonce: string;
  timeoutMs: number;
  /** Warnings fail the case (--strict). */
  strict: boolean;
  hung: HungMethods;
}

export interface RunOptions extends Omit<CaseOptions, "hung" | "nonce" | "strict"> {
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

export function summarize(
  results: CaseResult[],
  context: { seed: number; unmetRequirements: CapabilityStatus[]; hung: HungMethods; started: number },
  aborted?: string,
): RunSummary {
  const count = (status: CaseStatus) => results.filter((r) => r.status === status).length;
  const leftovers: Leftovers = {};
  for (const kind of recordKinds) {
    const total = results.reduce((n, r) => n + (r.leftovers[kind] ?? 0), 0);
    if (total > 0) leftovers[kind] = total;
  }
  return {
    seed: context.seed,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    warnings: results.reduce((n, r) => n + r.warnings.length, 0),
    notes: [...new Set(results.flatMap((r) => r.notes))],
    unmetRequirements: context.unmetRequirements,
    leftovers,
    hung: context.hung.entries(),
    aborted,
    durationMs: performance.now() - context.started,
    ok: !aborted && count("failed") === 0 && context.unmetRequirements.length === 0,
  };
}

export async function runContract(options: RunOptions): Promise<RunSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const started = performance.now();
  const hung = new HungMethods();
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
      const result = await runCase(options.adapter, contractCase, caseOptions);
      results[index] = result;
      emit({ type: "case:end", result });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));

  const unmetRequirements = capabilities.filter((c) => !c.supported && options.require.includes(c.name));
  const summary = summarize(results, { seed: options.seed, unmetRequirements, hung, started });
  emit({ type: "run:end", summary, results });
  return summary;
}
