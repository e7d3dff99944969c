/**
 * What the verify-adapter command (the supervisor) and the process that
 * loads the user's module (the worker) say to each other. The job goes to
 * the worker's stdin as one JSON line. The worker writes
 * one JSON message per line on file descriptor 3, synchronously, so that a
 * message written just before the module ends the process still arrives.
 */
import type { CapabilityName } from "./capabilities.js";
import type { ExploreBudget } from "./exploration.js";
import type { RunEvent } from "./runner.js";

export interface WorkerJob {
  /** As the user wrote it, resolved from `cwd`. */
  modulePath: string;
  cwd: string;
  exportName?: string;
  /** --only and --skip patterns; the worker selects the cases (a usage error comes back before any import). */
  only: string[];
  skip: string[];
  seed: number;
  nonce: string;
  timeoutMs: number;
  concurrency: number;
  require: CapabilityName[];
  strict: boolean;
  /** null: no exploration. */
  explore: ExploreBudget;
  /** Replays one exploration sequence (from a failure's replay flags). */
  explorePath?: string;
}

/** The worker's message channel. */
export const channelFd = 3;

export type WorkerPhase = "import" | "setup" | "factory" | "cases" | "exploration" | "teardown";

export type WorkerMessage =
  | { type: "phase"; phase: WorkerPhase }
  /** Sent every second while the worker's event loop turns: silence means it is blocked. */
  | { type: "alive" }
  | { type: "usage-error"; message: string; hint?: string }
  | { type: "loaded"; exportName: string }
  | { type: "load-error"; message: string; hint?: string }
  | { type: "event"; event: RunEvent }
  | { type: "teardown-error"; message: string }
  | { type: "done" }
  /** Sent from the worker's exit handler: the process is ending before "done". */
  | { type: "exit"; code: number; calledExit: boolean; during?: string; crash?: string };
