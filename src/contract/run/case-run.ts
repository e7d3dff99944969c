/**
 * One case against the adapter: its own data, a time limit on each call it
 * makes, then the removal of every record it wrote and a count of what
 * would not go.
 */
import { describeThrown } from "../../lib/errors.js";
import { AdapterCalls, AdapterGone, CallTimedOut, type HungMethods } from "../access/calls.js";
import { CaseContext, type Later } from "../access/context.js";
import { type Leftovers, quietCalls } from "../access/ledger.js";
import type { AdapterPort } from "../access/port.js";
import { randomFor } from "../access/random.js";
import { type ContractCase, caseInfo } from "../spec/case.js";
import { ContractFailure } from "../spec/failure.js";
import type { CaseResult } from "./summary.js";

export interface CaseOptions {
  seed: number;
  /** Mixed into every unique value, so concurrent runs never share records. */
  nonce: string;
  /** Each adapter call's limit: a call that has not settled by then is a hang. */
  timeoutMs: number;
  /** Warnings fail the case (--strict). */
  strict: boolean;
  hung: HungMethods;
}

function failureOf(error: unknown): NonNullable<CaseResult["failure"]> {
  if (error instanceof CallTimedOut)
    return { message: `${error.message}; later cases will not call it (raise --timeout for a slow database)` };
  if (error instanceof AdapterGone) return { message: error.message };
  if (error instanceof ContractFailure)
    return { message: error.message, expected: error.expected, received: error.received };
  return { message: `the case stopped on an unexpected error: ${describeThrown(error)}` };
}

/** A result for a case that did not run (a missing method, or the run stopped before it). */
export function notRun(contractCase: ContractCase, skipReason: string): CaseResult {
  return {
    case: caseInfo(contractCase),
    status: "skipped",
    durationMs: 0,
    skipReason,
    warnings: [],
    notes: [],
    leftovers: {},
  };
}

export async function runCase(
  port: AdapterPort,
  contractCase: ContractCase,
  options: CaseOptions,
  waitUntil?: Later,
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
  const missing = contractCase.needs.filter((method) => !port.methods.has(method));
  if (missing.length > 0) return notRun(contractCase, `not implemented: ${missing.join(", ")}`);
  const hungBefore = contractCase.needs.find((method) => options.hung.where(method) !== undefined);
  if (hungBefore) {
    return finish({
      status: "failed",
      failure: {
        message: `${hungBefore} never settled in ${options.hung.where(hungBefore)}; not called again`,
        hungIn: options.hung.where(hungBefore),
      },
    });
  }

  const calls = new AdapterCalls(port, options.hung, contractCase.id, options.timeoutMs);
  const context = new CaseContext(
    calls,
    randomFor(options.seed, contractCase.id),
    randomFor(options.seed, `${options.nonce}:${contractCase.id}`),
    waitUntil,
  );
  let failure: CaseResult["failure"];
  try {
    await contractCase.run(context);
  } catch (error) {
    failure = failureOf(error);
  }
  // Clean up even after a failure; each call has the limit, and a method that hung is not called again.
  const quiet = quietCalls(port, options.hung, options.timeoutMs, `the cleanup of ${contractCase.id}`);
  const leftovers: Leftovers = await context.ledger.clear(quiet, (method) => calls.has(method));
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
