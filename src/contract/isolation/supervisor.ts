/**
 * verify-adapter's side of the worker (worker.ts): it has the worker load
 * the user's module, then hands the run a port (access/port.ts) whose every
 * call is a request to the worker. The run and its verdict stay in this
 * process, which never loads the user's code; the worker only answers calls.
 * How the worker ends (process.exit, a crash, a signal) becomes the reason
 * every later call fails, so the run stops with it named; the worker is
 * stopped when the run is over, whatever the module left open.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { DescribedThrow } from "../../lib/errors.js";
import { AdapterGone } from "../access/calls.js";
import { type AdapterPort, type CallOptions, definePort } from "../access/port.js";
import type { AdapterMethod, AnyAdapter } from "../spec/adapter.js";
import { channelFd, type WorkerMessage, type WorkerPhase, type WorkerRequest } from "./protocol.js";
import { takeWorker } from "./spawn-worker.js";
import { FrameReader, FrameWriter } from "./wire.js";

interface Limits {
  /** Import, setup() and the factory together. */
  setupMs: number;
  teardownMs: number;
}

export interface WorkerSession {
  /** The user's adapter, answered by the worker: what the run calls. */
  port: AdapterPort;
  /** The same as an adapter object (only the methods it has), for scripts that call it directly. */
  adapter: AnyAdapter;
  exportName: string;
  /** Runs the module's teardown() and ends the worker: what went wrong, if anything. */
  close(): Promise<string | undefined>;
  /** Ends the worker at once, without teardown() (it may be blocked): for a run started again in a new one. */
  stop(): void;
}

type OpenOutcome = { kind: "load-error"; message: string; hint?: string } | { kind: "ready"; session: WorkerSession };

type Exit = Extract<WorkerMessage, { type: "exit" }>;
type Job = Extract<WorkerRequest, { type: "load" }>;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function phaseName(phase: WorkerPhase, modulePath: string): string {
  if (phase === "import") return `the import of ${modulePath}`;
  if (phase === "setup") return "setup()";
  if (phase === "factory") return "the adapter export (its factory or promise)";
  if (phase === "teardown") return "teardown()";
  return "the run";
}

/** How the worker ended, in words; undefined when it simply ran out of work. */
function howItEnded(exit: Exit | undefined, code: number | null, signal: string | null): string | undefined {
  if (exit?.calledExit) return `the module called process.exit(${exit.code})`;
  if (exit?.crash) return `the module crashed the process (${exit.crash})`;
  if (signal) return `the process was killed (${signal})`;
  const status = exit?.code ?? code;
  return status === 0 ? undefined : `the process ended with exit code ${status}`;
}

/** Calls sent to the worker and not answered yet; once the worker is gone, every one fails with the reason. */
class PendingCalls {
  private readonly calls = new Map<number, { method: AdapterMethod; settle(answer: WorkerMessage): void }>();
  private nextId = 0;
  goneReason: string | undefined;

  add(method: AdapterMethod, resolve: (value: unknown) => void, reject: (error: unknown) => void): number {
    const id = this.nextId++;
    const settle = (answer: WorkerMessage) => {
      if (answer.type === "returned") resolve(answer.value);
      else if (answer.type === "threw") reject(new DescribedThrow(String(answer.description)));
      else reject(new AdapterGone(this.goneReason!));
    };
    this.calls.set(id, { method, settle });
    return id;
  }

  /** An answer under a call's id; one after its time limit, or made up by the module, finds no call. */
  answer(message: Extract<WorkerMessage, { type: "returned" | "threw" }>): void {
    const call = this.calls.get(message.id);
    if (!call) return;
    this.calls.delete(message.id);
    call.settle(message);
  }

  gone(reason: string): void {
    this.goneReason ??= reason;
    for (const call of this.calls.values()) call.settle({ type: "done" });
    this.calls.clear();
  }

  methodsInFlight(): AdapterMethod[] {
    return [...new Set([...this.calls.values()].map((c) => c.method))];
  }
}

/** The one outcome of opening: a load error or the ready session, whichever comes first. */
class Opening {
  decided = false;
  private settle!: (outcome: OpenOutcome) => void;
  readonly outcome = new Promise<OpenOutcome>((resolve) => {
    this.settle = resolve;
  });

  decide(outcome: OpenOutcome): boolean {
    if (this.decided) return false;
    this.decided = true;
    this.settle(outcome);
    return true;
  }
}

class Supervisor {
  private readonly child: ChildProcess;
  private readonly requests: FrameWriter;
  private readonly pending = new PendingCalls();
  private readonly opening = new Opening();
  private phase: WorkerPhase = "import";
  private exit: Exit | undefined;
  private teardownProblem: string | undefined;
  private onDone: ((problem: string | undefined) => void) | undefined;
  private readonly setupTimer: NodeJS.Timeout;
  private readonly stopOnSignal = (signal: NodeJS.Signals) => {
    this.child.kill("SIGKILL");
    process.kill(process.pid, signal);
  };

  constructor(
    private readonly job: Job,
    private readonly limits: Limits,
    io: { env: NodeJS.ProcessEnv; err: NodeJS.WritableStream },
  ) {
    this.child = takeWorker(io.env, job.cwd);
    const stdin = this.child.stdin!;
    this.requests = new FrameWriter(
      (bytes) => {
        if (stdin.writable) stdin.write(bytes);
      },
      (flush) => queueMicrotask(flush),
    );
    stdin.on("error", () => undefined); // a worker that died mid-write: its close says why
    // The module's own output goes to stderr, so stdout stays the report.
    this.child.stdout!.pipe(io.err, { end: false });
    this.child.stderr!.pipe(io.err, { end: false });
    process.once("SIGINT", this.stopOnSignal);
    process.once("SIGTERM", this.stopOnSignal);
    this.setupTimer = setTimeout(() => this.setupTimedOut(), limits.setupMs);
    this.listen();
    this.requests.send(job);
  }

  get outcome(): Promise<OpenOutcome> {
    return this.opening.outcome;
  }

  private listen(): void {
    const reader = new FrameReader();
    const channel = this.child.stdio[channelFd] as Readable;
    channel.on("data", (chunk: Buffer) => {
      try {
        for (const message of reader.push(chunk)) this.handle(message as WorkerMessage);
      } catch (error) {
        // Something other than the worker's own frames was written to its channel.
        channel.destroy();
        this.pending.gone(`the adapter's process wrote to verify-adapter's channel (${(error as Error).message})`);
        this.loadError(this.pending.goneReason!);
        this.child.kill("SIGKILL");
      }
    });
    this.child.on("error", (error) => this.loadError(`could not start the worker process: ${error.message}`));
    this.child.on("close", (code, signal) => this.closed(code, signal));
  }

  private handle(message: WorkerMessage): void {
    switch (message.type) {
      case "phase":
        this.phase = message.phase;
        return;
      case "ready":
        this.ready(message.exportName, message.methods);
        return;
      case "load-error":
        this.loadError(message.message, message.hint);
        return;
      case "returned":
      case "threw":
        this.pending.answer(message);
        return;
      case "teardown-error":
        this.teardownProblem ??= message.message;
        return;
      case "done":
        this.onDone?.(this.teardownProblem);
        return;
      case "exit":
        this.exit = message;
    }
  }

  private ready(exportName: string, methods: AdapterMethod[]): void {
    const port = definePort(new Set(methods), (method, args, options) => this.call(method, args, options));
    const adapter: AnyAdapter = {};
    for (const method of methods) adapter[method] = (...args: unknown[]) => port.call(method, args);
    clearTimeout(this.setupTimer);
    this.opening.decide({
      kind: "ready",
      session: { port, adapter, exportName, close: () => this.close(), stop: () => this.stop() },
    });
  }

  private loadError(message: string, hint?: string): void {
    clearTimeout(this.setupTimer);
    if (this.opening.decide({ kind: "load-error", message, hint })) this.stop();
  }

  private setupTimedOut(): void {
    const what = phaseName(this.phase, this.job.modulePath);
    const within = seconds(this.limits.setupMs);
    this.loadError(
      this.phase === "import" ? `${what} did not finish within ${within}` : `${what} never settled within ${within}`,
      "Raise --setup-timeout if it is only slow (a database that takes long to start).",
    );
  }

  private call(method: AdapterMethod, args: unknown[], options?: CallOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.pending.goneReason) return reject(new AdapterGone(this.pending.goneReason));
      const id = this.pending.add(method, resolve, reject);
      this.requests.send({ type: "call", id, method, args, scribble: options?.scribble });
    });
  }

  private closed(code: number | null, signal: string | null): void {
    const how = howItEnded(this.exit, code, signal);
    const what = phaseName(this.phase, this.job.modulePath);
    if (!this.opening.decided) {
      const never = `${what} never settled: the module left nothing running that could settle it`;
      this.loadError(how ? `${how} during ${what}` : never);
      return;
    }
    if (this.phase === "teardown") {
      const never = "teardown() never settled: the module left nothing running that could settle it";
      this.onDone?.(this.teardownProblem ?? (how ? `${how} during teardown()` : never));
      return;
    }
    const during = this.pending.methodsInFlight();
    const where = during.length > 0 ? during.join(", ") : "the run";
    this.pending.gone(
      how ? `${how} during ${where}` : `the adapter's process stopped during ${where} with nothing left to run`,
    );
  }

  private stop(): void {
    process.off("SIGINT", this.stopOnSignal);
    process.off("SIGTERM", this.stopOnSignal);
    this.child.kill("SIGKILL");
  }

  /** After the run: teardown() within its limit, then the worker is ended. */
  private close(): Promise<string | undefined> {
    if (this.pending.goneReason) {
      this.stop();
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const limit = this.limits.teardownMs;
      const timer = setTimeout(
        () => finish(this.teardownProblem ?? `teardown() never settled within ${seconds(limit)}`),
        limit,
      );
      const finish = (problem: string | undefined) => {
        clearTimeout(timer);
        this.onDone = undefined;
        this.stop();
        resolve(problem);
      };
      this.onDone = finish;
      this.requests.send({ type: "teardown" });
    });
  }
}

export function openWorker(
  job: Job,
  limits: Limits,
  io: { env: NodeJS.ProcessEnv; err: NodeJS.WritableStream },
): Promise<OpenOutcome> {
  return new Supervisor(job, limits, io).outcome;
}
