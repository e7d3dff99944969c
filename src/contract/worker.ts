/**
 * The worker: the only process that loads the user's module. It runs the
 * whole job and reports every step to the supervisor, which alone decides
 * the verdict. Whatever the module does here (process.exit, a promise that
 * never settles, a loop, a handle left open) can end or stall this process,
 * never the command's exit code.
 */
import { writeSync } from "node:fs";
import { isAbsolute } from "node:path";
import { describeThrown, LoadError, UsageError } from "../lib/errors.js";
import type { AdapterMethod } from "./adapter.js";
import { callsInFlight } from "./calls.js";
import { allCases } from "./cases/index.js";
import type { RecordKind } from "./cleanup.js";
import { runExploration } from "./exploration.js";
import { loadAdapterModule } from "./loader.js";
import { channelFd, type WorkerJob, type WorkerMessage, type WorkerPhase } from "./protocol.js";
import { type RunEvent, runContract } from "./runner.js";
import { type Selection, selectRun } from "./select.js";

const pause = new Int32Array(new SharedArrayBuffer(4));

function send(message: WorkerMessage): void {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(channelFd, bytes, offset);
    } catch (error) {
      // A full pipe: wait for the supervisor to read, without returning to the event loop.
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

let phase: WorkerPhase = "import";
let calledExit = false;
let crash: string | undefined;
let finished = false;

function enter(next: WorkerPhase): void {
  phase = next;
  send({ type: "phase", phase });
}

function watchTheExit(): void {
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    calledExit = true;
    return exit.call(process, code as number);
  }) as typeof process.exit;
  process.on("uncaughtExceptionMonitor", (error) => {
    crash = describeThrown(error);
  });
  process.on("exit", (code) => {
    if (finished) return;
    const call = [...callsInFlight].at(-1);
    send({
      type: "exit",
      code,
      calledExit,
      during: call ? `${call.method} in case ${call.caseId}` : undefined,
      crash,
    });
  });
}

/** The exploration's name for --only/--skip. */
const explorePart = "explore";

async function run(job: WorkerJob): Promise<void> {
  watchTheExit();
  let selection: Selection;
  try {
    selection = await selectRun(allCases, job.only, job.skip, job.explore ? [explorePart] : []);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    send({ type: "usage-error", message: error.message, hint: error.hint });
    finished = true;
    return;
  }
  let loaded: Awaited<ReturnType<typeof loadAdapterModule>>;
  let adapter: Awaited<ReturnType<typeof loaded.adapter>>;
  try {
    loaded = await loadAdapterModule(job.modulePath, { exportName: job.exportName, cwd: job.cwd });
    send({ type: "loaded", exportName: loaded.exportName });
    enter("setup");
    await loaded.setup();
    enter("factory");
    adapter = await loaded.adapter();
  } catch (error) {
    const message = error instanceof LoadError ? error.message : describeThrown(error);
    // teardown() still runs (it may close a pool or drop a schema); its own failure must not hide this one.
    if (phase !== "import") await loaded!.close().catch(() => undefined);
    send({ type: "load-error", message, hint: error instanceof LoadError ? error.hint : undefined });
    finished = true;
    return;
  }

  enter("cases");
  // Only a turning event loop sends these: the supervisor takes silence for a blocked process.
  const heartbeat = setInterval(() => send({ type: "alive" }), 1000);
  let end: Extract<RunEvent, { type: "run:end" }> | undefined;
  await runContract({
    adapter,
    cases: selection.cases,
    seed: job.seed,
    nonce: job.nonce,
    timeoutMs: job.timeoutMs,
    concurrency: job.concurrency,
    require: job.require,
    strict: job.strict,
    onEvent: (event) => {
      if (event.type === "run:end") end = event;
      else send({ type: "event", event });
    },
  });
  if (end && job.explore && selection.parts.includes(explorePart)) {
    enter("exploration");
    const exploration = await runExploration({
      adapter,
      budget: job.explore,
      seed: job.seed,
      nonce: job.nonce,
      callTimeoutMs: job.timeoutMs,
      strict: job.strict,
      exclude: end.summary.hung.map((h) => h.method as AdapterMethod),
      replayPath: job.explorePath,
      // As an import from the folder verify-adapter ran in: "./x.ts", never the bare "x.ts".
      modulePath: isAbsolute(job.modulePath) || job.modulePath.startsWith(".") ? job.modulePath : `./${job.modulePath}`,
      exportName: loaded.exportName,
    });
    const leftovers = { ...end.summary.leftovers };
    for (const [kind, n] of Object.entries(exploration.leftovers) as Array<[RecordKind, number]>)
      leftovers[kind] = (leftovers[kind] ?? 0) + n;
    end = { ...end, summary: { ...end.summary, exploration, leftovers, ok: end.summary.ok && exploration.ok } };
  }
  clearInterval(heartbeat);
  if (end) send({ type: "event", event: end });

  enter("teardown");
  try {
    await loaded.close();
  } catch (error) {
    send({ type: "teardown-error", message: error instanceof Error ? error.message : describeThrown(error) });
  }
  send({ type: "done" });
  finished = true;
  // The supervisor ends this process now, whatever the module left open.
}

/** The job arrives on stdin, as one JSON line, once the command has parsed its flags. */
async function readJob(): Promise<WorkerJob | undefined> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.trim() ? (JSON.parse(text) as WorkerJob) : undefined;
}

export async function startWorker(): Promise<void> {
  // tsx's module hooks take longest to start: start them while the job is on its way.
  const warm = import("tsx/esm/api").then((tsx) => tsx.register({ namespace: "create-auth-warm-up" }));
  warm.catch(() => undefined);
  const job = await readJob();
  // No job: the command ended without a run (a usage error, say).
  if (!job) {
    finished = true;
    process.exit(0);
  }
  await run(job);
}
