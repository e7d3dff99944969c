/**
 * What verify-adapter (the supervisor) and the process that loads the user's
 * module (the worker) say to each other, as frames (wire.ts): requests on
 * the worker's stdin, answers on file descriptor 3, written synchronously so
 * that an answer written just before the module ends the process arrives.
 *
 * The worker only loads the module and answers adapter calls. The cases, the
 * exploration and the verdict run in the supervisor, so nothing the module
 * writes to any descriptor can report a pass: a forged answer is one more
 * answer from the adapter, checked like the others.
 */
import type { Scribble } from "../access/answers.js";
import type { AdapterMethod } from "../spec/adapter.js";

export type WorkerRequest =
  /**
   * From the launcher, which starts the worker before the command line is parsed: the module to come is
   * TypeScript (by the look of the arguments), so its compiler may start before the "load" arrives.
   */
  | { type: "warm-up" }
  | {
      type: "load";
      /** As the user wrote it, resolved from `cwd`. */
      modulePath: string;
      cwd: string;
      exportName?: string;
    }
  /** `scribble`: after copying the answer, change these of the adapter's own objects, as a caller may. */
  | { type: "call"; id: number; method: AdapterMethod; args: unknown[]; scribble?: readonly Scribble[] }
  /** The run is over: run teardown() and say "done". */
  | { type: "teardown" };

/** The worker's answer channel. */
export const channelFd = 3;

export type WorkerPhase = "import" | "setup" | "factory" | "serving" | "teardown";

export type WorkerMessage =
  | { type: "phase"; phase: WorkerPhase }
  | { type: "ready"; exportName: string; methods: AdapterMethod[] }
  | { type: "load-error"; message: string; hint?: string }
  /** The copy of what the service would read (access/answers.ts). */
  | { type: "returned"; id: number; value: unknown }
  /** What the method threw, described in the worker without running the value's code (spec/thrown.ts). */
  | { type: "threw"; id: number; description: string }
  | { type: "teardown-error"; message: string }
  | { type: "done" }
  /** Sent from the worker's exit handler: the process is ending before "done". */
  | { type: "exit"; code: number; calledExit: boolean; crash?: string };
