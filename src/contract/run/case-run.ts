/**
 * One case against the adapter: its own data, its time limit (which does
 * not run while the case waits for real time to pass), then the removal of
 * every record it wrote and a count of what would not go.
 */
import { describeThrown } from "../../lib/errors.js";
import { AdapterCalls, AdapterGone, type HungMethods } from "../access/calls.js";
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
  timeoutMs: number;
  /** Warnings fail the case (--strict). */
  strict: boolean;
  hung: HungMethods;
}

class Timeout extends Error {}

/** A time limit that can stand still (while the case waits for time to pass on purpose). */
class CaseLimit {
  private timer: NodeJS.Timeout | undefined;
  private left: number;
  private since = 0;
  private fire!: (error: Timeout) => void;
  readonly expired = new Promise<never>((_, reject) => {
    this.fire = reject;
  });

  constructor(ms: number) {
    this.left = ms;
    this.expired.catch(() => undefined);
    this.resume();
  }

  pause(): void {
    clearTimeout(this.timer);
    this.left -= performance.now() - this.since;
  }

  resume(): void {
    this.since = performance.now();
    this.timer = setTimeout(() => this.fire(new Timeout()), Math.max(0, this.left));
  }

  stop(): void {
    clearTimeout(this.timer);
  }
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

  const calls = new AdapterCalls(port, options.hung, contractCase.id);
  const limit = new CaseLimit(options.timeoutMs);
  const later: Later | undefined =
    waitUntil &&
    (async (at) => {
      limit.pause();
      try {
        await waitUntil(at);
      } finally {
        limit.resume();
      }
    });
  const context = new CaseContext(
    calls,
    randomFor(options.seed, contractCase.id),
    randomFor(options.seed, `${options.nonce}:${contractCase.id}`),
    later,
  );
  let failure: CaseResult["failure"];
  try {
    await Promise.race([contractCase.run(context), limit.expired]);
  } catch (error) {
    failure = failureOf(error, calls, options.timeoutMs);
  } finally {
    limit.stop();
  }
  // Clean up even after a failure; each call has the case's limit, and a method that hung is not called again.
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
