/**
 * One verify-adapter run, whatever the adapter is: a remote one answered by
 * the worker (the CLI) or an object in this process (the library API). The
 * exploration runs beside the cases and each decides its verdict alone
 * afterwards (turns.ts), and one run:end carries the verdict of all of it.
 * A run that overlapped and saw a call never settle (or the adapter stop)
 * is thrown away whole and run again one call at a time on a fresh adapter:
 * which calls happened to be in flight beside a hang is chance, so only
 * that run is the verdict. A correct adapter never pays for it.
 */
import { isAbsolute } from "node:path";
import { HungMethods } from "../access/calls.js";
import { addLeftovers } from "../access/ledger.js";
import { type AdapterPort, toPort } from "../access/port.js";
import type { AnyAdapter } from "../spec/adapter.js";
import type { CapabilityName } from "../spec/capabilities.js";
import type { ExplorationReport, ExploreBudget } from "./exploration.js";
import { type RunEvent, runContract } from "./runner.js";
import type { Selection } from "./select.js";
import type { RunSummary } from "./summary.js";
import type { Turns } from "./turns.js";

/** The exploration's name for --only/--skip. */
export const explorePart = "explore";

export interface VerificationOptions {
  /** An adapter object in this process (the library API), or the worker's port (the CLI). */
  adapter: AnyAdapter | AdapterPort;
  /**
   * A fresh adapter (the CLI: a new worker, the old one stopped) for the run
   * again one call at a time after an overlapped run saw a hang; without it,
   * that run uses `adapter` again.
   */
  fresh?: () => Promise<AnyAdapter | AdapterPort>;
  selection: Selection;
  seed: number;
  nonce: string;
  timeoutMs: number;
  concurrency: number;
  require: CapabilityName[];
  strict: boolean;
  explore: ExploreBudget;
  /** Replays one exploration sequence (from a failure's replay flags). */
  explorePath?: string;
  /** How a reproduction imports the module, as the user named it. */
  modulePath: string;
  exportName: string;
  onEvent(event: RunEvent): void;
}

/** Runs the selection and returns the final run:end; every other event goes to onEvent as it happens. */
export async function runVerification(options: VerificationOptions): Promise<Extract<RunEvent, { type: "run:end" }>> {
  const started = performance.now();
  const explores = options.explore !== null && options.selection.parts.includes(explorePart);
  const overlaps = explores || (options.concurrency > 1 && options.selection.cases.length > 1);
  if (!overlaps) return oneCallAtATime(options, options.adapter, options.onEvent);
  // Asked for at the first hang: the old worker stops then, so what was in flight beside it ends at once.
  let fresh: Promise<AnyAdapter | AdapterPort | undefined> | undefined;
  const freshOne = () => {
    fresh ??= Promise.resolve(options.fresh?.());
    fresh.catch(() => undefined); // awaited below
    return fresh;
  };
  const end = await overlapped(options, freshOne);
  const { hung, aborted } = end.summary;
  if (hung.length === 0 && aborted === undefined) return end;
  // A call never settled or the adapter stopped: what the overlap saw is thrown away (which calls were in
  // flight beside a hang, how far a leak got, is chance). A fresh adapter runs it all one call at a time,
  // and that run is the verdict and the report.
  options.onEvent({ type: "run:again", reason: aborted ?? `${hung[0]!.method} never settled` });
  const again = await oneCallAtATime(options, (await freshOne()) ?? options.adapter, (event) => {
    if (event.type !== "run:start") options.onEvent(event);
  });
  return { ...again, summary: { ...again.summary, durationMs: performance.now() - started } };
}

/** The exploration beside the cases, the cases in lanes; every verdict decided alone, but a hang ends it (runner.ts). */
async function overlapped(
  options: VerificationOptions,
  onHang: () => void,
): Promise<Extract<RunEvent, { type: "run:end" }>> {
  let end: Extract<RunEvent, { type: "run:end" }> | undefined;
  let exploration: ExplorationReport | undefined;
  const explores = options.explore !== null && options.selection.parts.includes(explorePart);
  await runContract({
    ...common(options),
    adapter: options.adapter,
    concurrency: options.concurrency,
    endsOnHang: onHang,
    onEvent: (event) => {
      if (event.type === "run:end") end = event;
      else options.onEvent(event);
    },
    // Beside the cases, taking its turns (turns.ts).
    beside: explores
      ? {
          start: async (port, hung, turns) => {
            const report = await explorationOf(options, port, hung, turns);
            // It may have ended before the cases did: its report counts once they are decided.
            if (await turns.decided()) exploration = report;
          },
        }
      : undefined,
  });
  return withExploration(end!, exploration);
}

/** The cases one after another, then the exploration, their hangs known (none when the adapter stopped). */
async function oneCallAtATime(
  options: VerificationOptions,
  adapter: AnyAdapter | AdapterPort,
  onEvent: (event: RunEvent) => void,
): Promise<Extract<RunEvent, { type: "run:end" }>> {
  let end: Extract<RunEvent, { type: "run:end" }> | undefined;
  const port = toPort(adapter);
  const hung = new HungMethods();
  await runContract({
    ...common(options),
    adapter: port,
    concurrency: 1,
    hung,
    onEvent: (event) => {
      if (event.type === "run:end") end = event;
      else onEvent(event);
    },
  });
  const explores = options.explore !== null && options.selection.parts.includes(explorePart);
  if (!explores || hung.stopped) return end!;
  const exploration = await explorationOf({ ...options, onEvent }, port, hung);
  // What the exploration found hung, or why the adapter stopped in it, is the run's too.
  const hangs = hung.entries();
  const summary = { ...end!.summary, hung: hangs, aborted: hung.stopped, ok: end!.summary.ok && !hung.stopped };
  return withExploration({ ...end!, summary }, exploration);
}

function common(options: VerificationOptions) {
  return {
    cases: options.selection.cases,
    seed: options.seed,
    nonce: options.nonce,
    timeoutMs: options.timeoutMs,
    require: options.require,
    strict: options.strict,
  };
}

function withExploration(
  end: Extract<RunEvent, { type: "run:end" }>,
  exploration: ExplorationReport | undefined,
): Extract<RunEvent, { type: "run:end" }> {
  if (!exploration) return end;
  const summary: RunSummary = {
    ...end.summary,
    exploration,
    leftovers: addLeftovers({ ...end.summary.leftovers }, exploration.leftovers),
    ok: end.summary.ok && exploration.ok,
  };
  return { ...end, summary };
}

async function explorationOf(
  options: VerificationOptions,
  port: AdapterPort,
  hung: HungMethods,
  turns?: Turns,
): Promise<ExplorationReport> {
  const { runExploration } = await import("./exploration.js");
  const budget = options.explore!;
  const modulePath = options.modulePath;
  return runExploration({
    adapter: port,
    budget,
    seed: options.seed,
    nonce: options.nonce,
    callTimeoutMs: options.timeoutMs,
    strict: options.strict,
    hung,
    turns,
    replayPath: options.explorePath,
    onProgress: (progress) => options.onEvent({ type: "exploration:progress", ...progress, of: budget.runs }),
    // As an import from the folder verify-adapter ran in: "./x.ts", never the bare "x.ts".
    modulePath: isAbsolute(modulePath) || modulePath.startsWith(".") ? modulePath : `./${modulePath}`,
    exportName: options.exportName,
  });
}
