/**
 * The worker: the only process that loads the user's module. It imports the
 * module, runs setup() and the factory, then answers the adapter calls the
 * supervisor sends, one frame each, until it is told to tear down. It never
 * judges an answer: the cases and the verdict live in the supervisor.
 *
 * What the worker itself relies on is captured before the module loads, so
 * a module that replaces Promise, JSON, timers, Date or Buffer methods in
 * this process garbles nothing but its own answers.
 */
import { writeSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { LoadError } from "../../lib/errors.js";
import { answerCopy, scribbleAfter, type UnreadableResult } from "../access/answers.js";
import { type AnyAdapter, presentMethods } from "../spec/adapter.js";
import { describeThrownValue } from "../spec/thrown.js";
import { loadAdapterModule } from "./loader.js";
import { channelFd, type WorkerMessage, type WorkerRequest } from "./protocol.js";
import { projectTsx } from "./typescript.js";
import { FrameReader, FrameWriter } from "./wire.js";

const apply = Reflect.apply;
const { then } = Promise.prototype;
const resolveWith = Promise.resolve.bind(Promise);
const pause = new Int32Array(new SharedArrayBuffer(4));
const wait = Atomics.wait;
const later = queueMicrotask;

function writeAll(bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(channelFd, bytes, offset);
    } catch (error) {
      // A full pipe: wait for the supervisor to read, without returning to the event loop.
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      wait(pause, 0, 0, 2);
    }
  }
}

const channel = new FrameWriter(writeAll, (flush) => later(flush));

function send(message: WorkerMessage): void {
  try {
    channel.send(message);
  } catch (error) {
    // Answers are plain copies; should one still not clone, the call fails rather than the worker.
    if (message.type !== "returned") throw error;
    channel.send({ type: "threw", id: message.id, description: "the result could not be copied" });
  }
}

/** For what must arrive before this process ends: no deferred write would run. */
function sendNow(message: WorkerMessage): void {
  send(message);
  channel.flush();
}

let calledExit = false;
let crash: string | undefined;
let finished = false;

function watchTheExit(): void {
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    calledExit = true;
    return exit.call(process, code as number);
  }) as typeof process.exit;
  process.on("uncaughtExceptionMonitor", (error) => {
    crash = describeThrownValue(error);
  });
  process.on("exit", (code) => {
    if (!finished) sendNow({ type: "exit", code, calledExit, crash });
  });
}

/**
 * One adapter call: the copy of its result, or what it threw, goes back under the call's id; a call that
 * never settles, never. The copy is made before the adapter's own objects are scribbled on, if asked.
 */
function answer(adapter: AnyAdapter, call: Extract<WorkerRequest, { type: "call" }>): void {
  const { id, method, args, scribble } = call;
  const threw = (thrown: unknown) => send({ type: "threw", id, description: describeThrownValue(thrown) });
  const returned = (value: unknown) => {
    let copy: unknown;
    try {
      copy = answerCopy(method, value);
    } catch (error) {
      send({ type: "threw", id, description: (error as UnreadableResult).description });
      return;
    }
    scribbleAfter(scribble, value, args);
    send({ type: "returned", id, value: copy });
  };
  let result: unknown;
  try {
    result = apply(adapter[method]!, adapter, args);
  } catch (error) {
    threw(error);
    return;
  }
  apply(then, resolveWith(result), [returned, threw]);
}

type Loaded = Awaited<ReturnType<typeof loadAdapterModule>>;

async function load(
  request: Extract<WorkerRequest, { type: "load" }>,
): Promise<(Loaded & { ready: AnyAdapter }) | undefined> {
  let loaded: Loaded | undefined;
  let phase: "import" | "setup" | "factory" = "import";
  const enter = (next: typeof phase) => {
    phase = next;
    send({ type: "phase", phase });
  };
  try {
    loaded = await loadAdapterModule(request.modulePath, { exportName: request.exportName, cwd: request.cwd });
    enter("setup");
    await loaded.setup();
    enter("factory");
    const adapter = await loaded.adapter();
    send({ type: "phase", phase: "serving" });
    send({ type: "ready", exportName: loaded.exportName, methods: presentMethods(adapter) });
    // Serving: the supervisor's calls keep the process alive now.
    process.stdin.ref();
    return Object.assign(loaded, { ready: adapter });
  } catch (error) {
    const message = error instanceof LoadError ? error.message : describeThrownValue(error);
    // teardown() still runs (it may close a pool or drop a schema); its own failure must not hide this one.
    if (phase !== "import") await loaded?.close().catch(() => undefined);
    sendNow({ type: "load-error", message, hint: error instanceof LoadError ? error.hint : undefined });
    finished = true;
    return undefined;
  }
}

async function tearDown(loaded: Loaded): Promise<void> {
  send({ type: "phase", phase: "teardown" });
  process.stdin.unref();
  try {
    await loaded.close();
  } catch (error) {
    // close() throws only LoadErrors of its own.
    send({ type: "teardown-error", message: (error as LoadError).message });
  }
  sendNow({ type: "done" });
  finished = true;
  // The supervisor ends this process now, whatever the module left open.
}

/**
 * tsx's module hooks take long to start (tens of milliseconds): told the module is TypeScript before it
 * arrives, the worker starts the project's tsx meanwhile. A module of plain JavaScript never loads tsx,
 * and one that arrives at once is loaded at once (importTypeScript starts tsx itself).
 */
function warmUpTypeScript(): void {
  const warm = projectTsx(process.cwd()).then((tsx) => tsx?.register({ namespace: "create-auth-warm-up" }));
  warm.catch(() => undefined);
}

/**
 * A method that blocks this process's one thread (a loop) leaves nothing here to notice that the supervisor
 * is gone (killed, crashed) and the process would spin on the machine for good: a thread of its own, which
 * the module cannot reach, ends the process once it has another parent. Started while the worker waits for
 * its job, and never what keeps the process alive.
 */
function endWithTheSupervisor(): void {
  const watch = `const parent = ${process.ppid};
setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, "SIGKILL"); }, 500);`;
  new Worker(watch, { eval: true }).unref();
}

export function startWorker(): void {
  endWithTheSupervisor();
  watchTheExit();
  const reader = new FrameReader();
  let adapter: AnyAdapter | undefined;
  let loading: Promise<(Loaded & { ready: AnyAdapter }) | undefined> | undefined;
  const early: Array<Extract<WorkerRequest, { type: "call" }>> = [];
  const handle = (request: WorkerRequest) => {
    if (request.type === "load" && !loading) {
      // Until the module is ready, only what it started may keep this process alive: when nothing
      // is left, the process ends and the supervisor can say the import or setup never settled.
      process.stdin.unref();
      loading = load(request);
      void loading.then((loaded) => {
        adapter = loaded?.ready;
        if (adapter) for (const call of early.splice(0)) answer(adapter, call);
      });
    } else if (request.type === "call") {
      if (adapter) answer(adapter, request);
      else early.push(request);
    } else if (request.type === "teardown") {
      void loading?.then((loaded) => loaded && tearDown(loaded));
    } else if (request.type === "warm-up") {
      // The "load" often follows in the same read: then the warm-up would only add a registration.
      setImmediate(() => {
        if (!loading) warmUpTypeScript();
      });
    }
  };
  process.stdin.on("data", (chunk: Buffer) => {
    for (const request of reader.push(chunk)) handle(request as WorkerRequest);
  });
  // No request ever came (the command ended before a run): end plainly.
  process.stdin.on("end", () => {
    if (!loading) {
      finished = true;
      process.exit(0);
    }
  });
}
