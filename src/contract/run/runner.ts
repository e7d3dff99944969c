/**
 * Runs contract cases against an adapter and reports through events. The
 * runner decides pass, fail or skip; reporters only present.
 *
 * Cases that let real time pass start first, one after another, and stop
 * where they wait; then what the caller runs beside them (verify-adapter's
 * exploration) prepares alone; then the other cases run, in as many lanes
 * as `concurrency` asks, beside it; then the waiting cases resume once
 * their time has come. Each verdict is then decided alone (turns.ts), so a
 * seed gives the same verdict whatever overlapped.
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
import { Turns } from "./turns.js";

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
  /** What ran so far is thrown away (it overlapped a hang): the run starts again, one call at a time. */
  | { type: "run:again"; reason: string }
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
  /** Runs beside the cases (verify-adapter's exploration), taking its turns (turns.ts). */
  beside?: Beside;
  /**
   * When the run overlapped (lanes, or work beside the cases) and a call never
   * settled or the adapter stopped answering, nothing is decided again: the
   * first hang stops the run and calls this at once (the caller may stop the
   * adapter's process: nothing after counts), the summary says so, and the
   * caller throws it away and starts again one call at a time on a fresh
   * adapter (verification.ts). Without it, cases in lanes run again one
   * after another on the same adapter.
   */
  endsOnHang?: () => void;
}

/** Work run beside the cases, on the same adapter: its verdict stands only when no case hung. */
export interface Beside {
  /**
   * Starts it with a record of hangs of its own (the cases' hangs stay theirs until the cases are decided),
   * or the cases' record when a hang ends the run (`endsOnHang`).
   */
  start(port: AdapterPort, hung: HungMethods, turns: Turns): Promise<void>;
}

/** Opens once the other cases are done: waiting cases resume after it, once their time has come. */
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
  let hung = options.hung ?? new HungMethods(options.endsOnHang);
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

  const turns = new Turns();
  // Where a hang voids the run, both sides share one record: a stop on either ends both at once.
  const besideHung = options.endsOnHang !== undefined ? hung : new HungMethods();
  const beside = options.beside && !hung.stopped ? options.beside.start(port, besideHung, turns) : undefined;
  const gate = new Gate();
  const waiting = await startAllWaiting(port, options, caseOptions, gate);
  turns.waitingParked();
  if (beside) await turns.untilPrepared(beside);
  // Cases beside each other or beside the exploration: a verdict is decided alone.
  const overlapped = (options.concurrency > 1 && options.cases.length > 1) || beside !== undefined;

  const results: CaseResult[] = [];
  const ended = new Set<number>();
  const record = (index: number, result: CaseResult, final = true) => {
    results[index] = result;
    if (!final || ended.has(index)) return;
    ended.add(index);
    emit({ type: "case:end", result });
  };
  await runTogether(port, options, caseOptions, gate, waiting, (index, result) =>
    record(index, result, !overlapped || result.status !== "failed"),
  );
  if (beside) await turns.untilTogetherDone(beside);
  const stopped = hung.stopped;
  if (overlapped && options.endsOnHang !== undefined && (stopped || hung.entries().length > 0)) {
    // What overlapped a hang is void: the caller starts again, one call at a time.
    turns.casesDone(false);
    await beside;
    return end(results, hung.entries(), stopped);
  }
  const alone = { ...caseOptions, nonce: `${caseOptions.nonce}.alone` };
  if (!overlapped || hung.ended) {
    // Nothing ran beside a case, or nothing can run again.
  } else if (options.concurrency > 1 && (hung.entries().length > 0 || hung.stopped)) {
    // A hang in lanes: which case hung first, and which were refused for it, is what a run one after another says.
    hung = new HungMethods();
    for (const [index, contractCase] of options.cases.entries())
      record(index, await inTurn(port, contractCase, { ...alone, hung }));
  } else if (!hung.stopped) {
    // In one lane the cases' hangs are their own (the exploration keeps its apart): they stand as they are.
    const hungHere = new Set(hung.entries().map((h) => h.caseId));
    for (const [index, result] of results.entries())
      if (result.status === "failed" && result.failure?.hungIn === undefined && !hungHere.has(result.case.id))
        record(index, await inTurn(port, options.cases[index]!, alone));
  }
  for (const [index, result] of results.entries()) record(index, result);

  const explorationStands = hung.entries().length === 0 && !hung.stopped;
  turns.casesDone(explorationStands);
  await beside;
  const hangs = hung.entries();
  if (explorationStands) hangs.push(...besideHung.entries().filter((h) => !hangs.some((c) => c.method === h.method)));
  return end(results, hangs, hung.stopped ?? (explorationStands ? besideHung.stopped : undefined));

  function end(results: CaseResult[], hangs: RunSummary["hung"], aborted: string | undefined): RunSummary {
    const unmetRequirements = capabilities.filter((c) => !c.supported && options.require.includes(c.name));
    const summary = summarize(results, { seed: options.seed, unmetRequirements, hung: hangs, started }, aborted);
    emit({ type: "run:end", summary, results });
    return summary;
  }
}

/** One case from start to end, its waits slept through; refused once the run stopped. */
function inTurn(port: AdapterPort, contractCase: ContractCase, options: CaseOptions): Promise<CaseResult> {
  if (options.hung.stopped) return Promise.resolve(notRun(contractCase, "not run: the run stopped"));
  return runCase(port, contractCase, options, contractCase.waits ? sleepUntil : undefined);
}

type Waiting = { index: number; resume(): Promise<CaseResult> };

/** The cases that let real time pass, one after another, each run to where it waits. */
async function startAllWaiting(
  port: AdapterPort,
  options: RunOptions,
  caseOptions: CaseOptions,
  gate: Gate,
): Promise<Waiting[]> {
  const emit = options.onEvent ?? (() => undefined);
  const waiting: Waiting[] = [];
  for (const [index, contractCase] of options.cases.entries()) {
    if (!contractCase.waits) continue;
    emit({ type: "case:start", case: caseInfo(contractCase) });
    waiting.push({ index, ...(await startWaiting(port, contractCase, caseOptions, gate)) });
  }
  return waiting;
}

/** Every other case once, in lanes; then the waiting ones resumed. */
async function runTogether(
  port: AdapterPort,
  options: RunOptions,
  caseOptions: CaseOptions,
  gate: Gate,
  waiting: Waiting[],
  record: (index: number, result: CaseResult) => void,
): Promise<void> {
  const emit = options.onEvent ?? (() => undefined);
  const indexed = options.cases.map((contractCase, index) => ({ contractCase, index }));
  const rest = indexed.filter((c) => !c.contractCase.waits);
  let next = 0;
  const lane = async () => {
    while (next < rest.length) {
      const { contractCase, index } = rest[next++]!;
      emit({ type: "case:start", case: caseInfo(contractCase) });
      record(
        index,
        caseOptions.hung.stopped
          ? notRun(contractCase, "not run: the run stopped")
          : await runCase(port, contractCase, caseOptions),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
  gate.open();
  for (const { index, resume } of waiting) record(index, await resume());
}
