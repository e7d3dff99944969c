/**
 * One verify-adapter run, whatever the adapter is: a remote one answered by
 * the worker (the CLI) or an object in this process (the library API). The
 * exploration runs beside the cases and each decides its verdict alone
 * afterwards (turns.ts), and one run:end carries the verdict of all of it.
 */
import { isAbsolute } from "node:path";
import type { HungMethods } from "../access/calls.js";
import { addLeftovers } from "../access/ledger.js";
import type { AdapterPort } from "../access/port.js";
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
  let end: Extract<RunEvent, { type: "run:end" }> | undefined;
  let exploration: ExplorationReport | undefined;
  const budget = options.explore;
  const explores = budget !== null && options.selection.parts.includes(explorePart);
  await runContract({
    adapter: options.adapter,
    cases: options.selection.cases,
    seed: options.seed,
    nonce: options.nonce,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    require: options.require,
    strict: options.strict,
    onEvent: (event) => {
      if (event.type === "run:end") end = event;
      else options.onEvent(event);
    },
    // Beside the cases, taking its turns (turns.ts); again after them when a case hung.
    beside: explores
      ? {
          start: async (port, hung, turns) => {
            const report = await explorationOf(options, port, hung, turns);
            // It may have ended before the cases did: its report counts once they are decided.
            if (await turns.decided()) exploration = report;
          },
          again: async (port, hung) => {
            exploration = await explorationOf(options, port, hung);
          },
        }
      : undefined,
  });
  let summary: RunSummary = end!.summary;
  if (exploration) {
    summary = {
      ...summary,
      exploration,
      leftovers: addLeftovers({ ...summary.leftovers }, exploration.leftovers),
      ok: summary.ok && exploration.ok,
    };
  }
  return { ...end!, summary };
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
