/**
 * verify-adapter's side of the worker (worker.ts): it has the worker load
 * the user's module, then hands the run an adapter whose every method is a
 * request to the worker. The run and its verdict stay in this process, which
 * never loads the user's code; the worker only answers calls. How the worker
 * ends (process.exit, a crash, a signal) becomes the reason every later call
 * fails, so the run stops with it named; the worker is stopped when the run
 * is over, whatever the module left open.
 */
import type { Readable } from "node:stream";
import { DescribedThrow } from "../../lib/errors.js";
import { AdapterGone } from "../access/calls.js";
import type { AdapterMethod, AnyAdapter } from "../spec/adapter.js";
import { channelFd, type ThrownOnWire, type WorkerMessage, type WorkerPhase, type WorkerRequest } from "./protocol.js";
import { takeWorker } from "./spawn-worker.js";
import { FrameReader, FrameWriter } from "./wire.js";

interface Limits {
  /** Import, setup() and the factory together. */
  setupMs: number;
  teardownMs: number;
}

interface WorkerSession {
  /** The user's adapter, answered by the worker: only the methods it has. */
  adapter: AnyAdapter;
  exportName: string;
  /** Runs the module's teardown() and ends the worker: what went wrong, if anything. */
  close(): Promise<string | undefined>;
}

type OpenOutcome = { kind: "load-error"; message: string; hint?: string } | { kind: "ready"; session: WorkerSession };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function phaseName(phase: WorkerPhase, modulePath: string): string {
  if (phase === "import") return `the import of ${modulePath}`;
  if (phase === "setup") return "setup()";
  if (phase === "factory") return "the adapter export (its factory or promise)";
  if (phase === "teardown") return "teardown()";
  return "the run";
}

/** How the worker ended, in words; undefined when it simply ran out of work. */
function howItEnded(
  exit: Extract<WorkerMessage, { type: "exit" }> | undefined,
  code: number | null,
  signal: string | null,
): string | undefined {
  if (exit?.calledExit) return `the module called process.exit(${exit.code})`;
  if (exit?.crash) return `the module crashed the process (${exit.crash})`;
  if (signal) return `the process was killed (${signal})`;
  const status = exit?.code ?? code;
  return status === 0 ? undefined : `the process ended with exit code ${status}`;
}

function thrownFromWire(thrown: ThrownOnWire): Error {
  if ("description" in thrown) return new DescribedThrow(String(thrown.description));
  const error = new Error(String(thrown.message));
  error.name = String(thrown.name);
  return error;
}

interface PendingCall {
  method: AdapterMethod;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function openWorker(
  job: Extract<WorkerRequest, { type: "load" }>,
  limits: Limits,
  io: { env: NodeJS.ProcessEnv; err: NodeJS.WritableStream },
): Promise<OpenOutcome> {
  const child = takeWorker(io.env, job.cwd);
  const requests = new FrameWriter(
    (bytes) => {
      if (child.stdin!.writable) child.stdin!.write(bytes);
    },
    (flush) => queueMicrotask(flush),
  );
  const send = (request: WorkerRequest) => requests.send(request);
  child.stdin!.on("error", () => undefined); // a worker that died mid-write: its close says why
  send(job);
  // The module's own output goes to stderr, so stdout stays the report.
  child.stdout!.pipe(io.err, { end: false });
  child.stderr!.pipe(io.err, { end: false });

  let phase: WorkerPhase = "import";
  let exitMessage: Extract<WorkerMessage, { type: "exit" }> | undefined;
  let goneReason: string | undefined;
  let nextId = 0;
  const pending = new Map<number, PendingCall>();
  let onDone: ((problem: string | undefined) => void) | undefined;
  let teardownProblem: string | undefined;
  let outcome: (value: OpenOutcome) => void;
  const opened = new Promise<OpenOutcome>((resolve) => {
    outcome = resolve;
  });
  let decided = false;
  const decide = (value: OpenOutcome) => {
    if (decided) return;
    decided = true;
    clearTimeout(setupTimer);
    if (value.kind === "load-error") stop();
    outcome(value);
  };

  const stopOnSignal = (signal: NodeJS.Signals) => {
    child.kill("SIGKILL");
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  const stop = () => {
    process.off("SIGINT", stopOnSignal);
    process.off("SIGTERM", stopOnSignal);
    child.kill("SIGKILL");
  };

  /** The worker can answer no more: every call waiting and every later one fails with the reason. */
  const gone = (reason: string) => {
    goneReason ??= reason;
    for (const call of pending.values()) call.reject(new AdapterGone(goneReason));
    pending.clear();
  };

  const setupTimer = setTimeout(() => {
    const what = phaseName(phase, job.modulePath);
    decide({
      kind: "load-error",
      message:
        phase === "import"
          ? `${what} did not finish within ${seconds(limits.setupMs)}`
          : `${what} never settled within ${seconds(limits.setupMs)}`,
      hint: "Raise --setup-timeout if it is only slow (a database that takes long to start).",
    });
  }, limits.setupMs);

  const remote =
    (method: AdapterMethod) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        if (goneReason) return reject(new AdapterGone(goneReason));
        const id = nextId++;
        pending.set(id, { method, resolve, reject });
        send({ type: "call", id, method, args });
      });

  const handle = (message: WorkerMessage) => {
    switch (message.type) {
      case "phase":
        phase = message.phase;
        return;
      case "ready": {
        const adapter: AnyAdapter = {};
        for (const method of message.methods) adapter[method] = remote(method);
        return decide({ kind: "ready", session: { adapter, exportName: message.exportName, close } });
      }
      case "load-error":
        return decide({ kind: "load-error", message: message.message, hint: message.hint });
      case "returned":
      case "threw": {
        const call = pending.get(message.id);
        if (!call) return; // an answer after its time limit, or one the module made up
        pending.delete(message.id);
        if (message.type === "returned") call.resolve(message.value);
        else call.reject(thrownFromWire(message.thrown));
        return;
      }
      case "teardown-error":
        teardownProblem ??= message.message;
        return;
      case "done":
        return onDone?.(teardownProblem);
      case "exit":
        exitMessage = message;
    }
  };

  const reader = new FrameReader();
  const channel = child.stdio[channelFd] as Readable;
  channel.on("data", (chunk: Buffer) => {
    try {
      for (const message of reader.push(chunk)) handle(message as WorkerMessage);
    } catch (error) {
      // Something other than the worker's own frames was written to its channel.
      channel.destroy();
      gone(`the adapter's process wrote to verify-adapter's channel (${(error as Error).message})`);
      if (!decided) decide({ kind: "load-error", message: goneReason! });
      child.kill("SIGKILL");
    }
  });

  child.on("error", (error) =>
    decide({ kind: "load-error", message: `could not start the worker process: ${error.message}` }),
  );
  child.on("close", (code, signal) => {
    const how = howItEnded(exitMessage, code, signal);
    const what = phaseName(phase, job.modulePath);
    if (!decided) {
      return decide({
        kind: "load-error",
        message: how
          ? `${how} during ${what}`
          : `${what} never settled: the module left nothing running that could settle it`,
      });
    }
    if (phase === "teardown") {
      return onDone?.(
        teardownProblem ??
          (how
            ? `${how} during teardown()`
            : "teardown() never settled: the module left nothing running that could settle it"),
      );
    }
    const during = [...new Set([...pending.values()].map((c) => c.method))];
    const where = during.length > 0 ? during.join(", ") : "the run";
    gone(how ? `${how} during ${where}` : `the adapter's process stopped during ${where} with nothing left to run`);
  });

  /** After the run: teardown() within its limit, then the worker is ended. */
  function close(): Promise<string | undefined> {
    if (goneReason) {
      stop();
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => finish(teardownProblem ?? `teardown() never settled within ${seconds(limits.teardownMs)}`),
        limits.teardownMs,
      );
      const finish = (problem: string | undefined) => {
        clearTimeout(timer);
        onDone = undefined;
        stop();
        resolve(problem);
      };
      onDone = finish;
      send({ type: "teardown" });
    });
  }

  return opened;
}
