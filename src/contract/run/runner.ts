/**
 * Runs contract cases against an adapter and reports through events. The
 * runner decides pass, fail or skip; reporters only present.
 *
 * The order of calls is fixed by the seed alone: cases that let real time
 * pass start first, one after another, and stop where they wait; then the
 * other cases run; then whatever the caller runs meanwhile (the
 * exploration); then the waiting cases resume, one after another, once
 * their time has come.
 */
import { HungMethods } from "../access/calls.js";
import type { Later } from "../access/context.js";
import { type AdapterPort, toPort } from "../access/port.js";
import { newNonce } from "../access/random.js";
import type { AnyAdapter } from "../spec/adapter.js";
import { type CapabilityName, type CapabilityStatus, capabilityStatus } from "../spec/capabilities.js";
import { type CaseInfo, type ContractCase, caseInfo } from "../spec/case.js";
import { type CaseOptions, notRun, runCase } from "./case-run.js";
import { type CaseResult, type RunSummary, summarize } from "./summary.js";

export type { CaseOptions } from "./case-run.js";
export { runCase } from "./case-run.js";
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

export interface RunOptions extends Omit<CaseOptions, "hung" | "nonce" | "strict"> {
  /** Shared with an exploration that follows, so a method that hung is not called again. */
  hung?: HungMethods;
  /** Default: a fresh random nonce. */
  nonce?: string;
  strict?: boolean;
  /** An adapter object in this process, or the worker's port to one. */
  adapter: AnyAdapter | AdapterPort;
  cases: ContractCase[];
  concurrency: number;
  require: CapabilityName[];
  onEvent?: (event: RunEvent) => void;
  /** Runs after the cases, while the cases that wait for time still wait (verify-adapter's exploration). */
  meanwhile?: (port: AdapterPort, hung: HungMethods) => Promise<void>;
}

/** Opens once the run's other work is done: waiting cases resume after it. */
class Gate {
  open!: () => void;
  readonly opened = new Promise<void>((resolve) => {
    this.open = resolve;
  });
}

const sleepUntil: Later = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** A waiting case run to the point where it waits; `finished` settles once it has resumed and ended. */
async function startWaiting(
  port: AdapterPort,
  contractCase: ContractCase,
  options: CaseOptions,
  gate: Gate,
): Promise<{ resume(): Promise<CaseResult> }> {
  let parked!: () => void;
  const atPark = new Promise<void>((resolve) => {
    parked = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const later: Later = async (at) => {
    parked();
    await released;
    await gate.opened;
    await sleepUntil(at);
  };
  const finished = runCase(port, contractCase, options, later);
  await Promise.race([atPark, finished]);
  return {
    resume() {
      release();
      return finished;
    },
  };
}

export async function runContract(options: RunOptions): Promise<RunSummary> {
  const emit = options.onEvent ?? (() => undefined);
  const started = performance.now();
  const port = toPort(options.adapter);
  const hung = options.hung ?? new HungMethods();
  const caseOptions: CaseOptions = {
    seed: options.seed,
    timeoutMs: options.timeoutMs,
    nonce: options.nonce ?? newNonce(),
    strict: options.strict ?? false,
    hung,
  };
  const capabilities = capabilityStatus(port.methods);
  emit({
    type: "run:start",
    seed: options.seed,
    cases: options.cases.map(caseInfo),
    capabilities,
    required: options.require,
  });

  const results: CaseResult[] = [];
  const record = (index: number, result: CaseResult) => {
    results[index] = result;
    emit({ type: "case:end", result });
  };
  const indexed = options.cases.map((contractCase, index) => ({ contractCase, index }));
  const gate = new Gate();
  const waiting: Array<{ index: number; resume(): Promise<CaseResult> }> = [];
  for (const { contractCase, index } of indexed.filter((c) => c.contractCase.waits)) {
    emit({ type: "case:start", case: caseInfo(contractCase) });
    waiting.push({ index, ...(await startWaiting(port, contractCase, caseOptions, gate)) });
  }

  const rest = indexed.filter((c) => !c.contractCase.waits);
  let next = 0;
  const lane = async () => {
    while (next < rest.length) {
      const { contractCase, index } = rest[next++]!;
      emit({ type: "case:start", case: caseInfo(contractCase) });
      record(
        index,
        hung.stopped
          ? notRun(contractCase, "not run: the run stopped")
          : await runCase(port, contractCase, caseOptions),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  if (options.meanwhile && !hung.stopped) await options.meanwhile(port, hung);
  gate.open();
  for (const { index, resume } of waiting) record(index, await resume());

  const unmetRequirements = capabilities.filter((c) => !c.supported && options.require.includes(c.name));
  const summary = summarize(
    results,
    { seed: options.seed, unmetRequirements, hung: hung.entries(), started },
    hung.stopped,
  );
  emit({ type: "run:end", summary, results });
  return summary;
}
