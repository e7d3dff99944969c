/**
 * One verify-adapter run, whatever the adapter is: a remote one answered by
 * the worker (the CLI) or an object in this process (the library API). The
 * cases run, then the exploration, against one record of hung methods, and
 * one run:end carries the verdict of both.
 */
import { isAbsolute } from "node:path";
import { HungMethods } from "../access/calls.js";
import type { RecordKind } from "../access/cleanup.js";
import type { AnyAdapter } from "../spec/adapter.js";
import type { CapabilityName } from "../spec/capabilities.js";
import type { ExploreBudget } from "./exploration.js";
import { type RunEvent, runContract } from "./runner.js";
import type { Selection } from "./select.js";
import type { RunSummary } from "./summary.js";

/** The exploration's name for --only/--skip. */
export const explorePart = "explore";

export interface VerificationOptions {
  adapter: AnyAdapter;
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
  const hung = new HungMethods();
  let end: Extract<RunEvent, { type: "run:end" }> | undefined;
  await runContract({
    adapter: options.adapter,
    cases: options.selection.cases,
    seed: options.seed,
    nonce: options.nonce,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    require: options.require,
    strict: options.strict,
    hung,
    onEvent: (event) => {
      if (event.type === "run:end") end = event;
      else options.onEvent(event);
    },
  });
  let summary: RunSummary = end!.summary;
  const budget = options.explore;
  if (budget && options.selection.parts.includes(explorePart) && !hung.stopped) {
    const { runExploration } = await import("./exploration.js");
    const modulePath = options.modulePath;
    const exploration = await runExploration({
      adapter: options.adapter,
      budget,
      seed: options.seed,
      nonce: options.nonce,
      callTimeoutMs: options.timeoutMs,
      strict: options.strict,
      hung,
      replayPath: options.explorePath,
      onProgress: (progress) => options.onEvent({ type: "exploration:progress", ...progress, of: budget.runs }),
      // As an import from the folder verify-adapter ran in: "./x.ts", never the bare "x.ts".
      modulePath: isAbsolute(modulePath) || modulePath.startsWith(".") ? modulePath : `./${modulePath}`,
      exportName: options.exportName,
    });
    const leftovers = { ...summary.leftovers };
    for (const [kind, n] of Object.entries(exploration.leftovers) as Array<[RecordKind, number]>)
      leftovers[kind] = (leftovers[kind] ?? 0) + n;
    summary = {
      ...summary,
      exploration,
      leftovers,
      hung: hung.entries(),
      ok: summary.ok && exploration.ok && !hung.stopped,
    };
  }
  if (hung.stopped && !summary.aborted) summary = { ...summary, aborted: hung.stopped, ok: false };
  return { ...end!, summary };
}
