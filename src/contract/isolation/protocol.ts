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
import type { AdapterMethod } from "../spec/adapter.js";

export type WorkerRequest =
  | {
      type: "load";
      /** As the user wrote it, resolved from `cwd`. */
      modulePath: string;
      cwd: string;
      exportName?: string;
    }
  | { type: "call"; id: number; method: AdapterMethod; args: unknown[] }
  /** The run is over: run teardown() and say "done". */
  | { type: "teardown" };

/** The worker's answer channel. */
export const channelFd = 3;

export type WorkerPhase = "import" | "setup" | "factory" | "serving" | "teardown";

/** How a thrown value looks on the wire: an Error's name and message, else its description. */
export type ThrownOnWire = { name: string; message: string } | { description: string };

export type WorkerMessage =
  | { type: "phase"; phase: WorkerPhase }
  | { type: "ready"; exportName: string; methods: AdapterMethod[] }
  | { type: "load-error"; message: string; hint?: string }
  | { type: "returned"; id: number; value: unknown }
  | { type: "threw"; id: number; thrown: ThrownOnWire }
  | { type: "teardown-error"; message: string }
  | { type: "done" }
  /** Sent from the worker's exit handler: the process is ending before "done". */
  | { type: "exit"; code: number; calledExit: boolean; crash?: string };
