/**
 * Runs a verify-adapter job in a worker process and turns what it reports
 * into runner events. The verdict comes only from a run the worker finished:
 * the module ending the process, crashing, going silent or blocking it is
 * reported with the phase it happened in, and the worker is stopped once
 * the run is over, whatever the module left open.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { CaseInfo } from "./case.js";
import { channelFd, type WorkerJob, type WorkerMessage, type WorkerPhase } from "./protocol.js";
import type { RunEvent } from "./runner.js";
import { takeWorker } from "./spawn-worker.js";
import { type CaseResult, type RunSummary, summarize } from "./summary.js";

export interface Limits {
  /** Import, setup() and the factory together. */
  setupMs: number;
  /** Each case (the worker enforces it; the supervisor notices a worker that cannot). */
  caseMs: number;
  teardownMs: number;
}

export interface SupervisorHooks {
  /** The module was imported and holds an adapter export: reporters can start. */
  loaded(exportName: string): void;
  event(event: RunEvent): void;
}

export type SupervisedOutcome =
  | { kind: "usage-error" | "load-error"; message: string; hint?: string }
  | { kind: "finished" };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function phaseName(phase: WorkerPhase, modulePath: string): string {
  if (phase === "import") return `the import of ${modulePath}`;
  if (phase === "setup") return "setup()";
  if (phase === "factory") return "the adapter export (its factory or promise)";
  if (phase === "teardown") return "teardown()";
  if (phase === "exploration") return "the exploration";
  return "the run";
}

/** How the worker ended, in words; undefined when it simply ran out of work. */
function howItEnded(
  exit: Extract<WorkerMessage, { type: "exit" }> | undefined,
  code: number | null,
  signal: string | null,
) {
  if (exit?.calledExit) return `the module called process.exit(${exit.code})`;
  if (exit?.crash) return `the module crashed the process (${exit.crash})`;
  if (signal) return `the process was killed (${signal})`;
  const status = exit?.code ?? code;
  return status === 0 ? undefined : `the process ended with exit code ${status}`;
}

export function supervise(
  job: WorkerJob,
  limits: Limits,
  io: { env: NodeJS.ProcessEnv; err: NodeJS.WritableStream },
  hooks: SupervisorHooks,
): Promise<SupervisedOutcome> {
  return new Promise((resolve) => {
    const child = takeWorker(io.env, job.cwd);
    child.stdin!.end(`${JSON.stringify(job)}\n`);
    // The module's own output goes to stderr, so stdout stays the report.
    child.stdout!.pipe(io.err, { end: false });
    child.stderr!.pipe(io.err, { end: false });

    const started = performance.now();
    let phase: WorkerPhase = "import";
    let exitMessage: Extract<WorkerMessage, { type: "exit" }> | undefined;
    let runStart: Extract<RunEvent, { type: "run:start" }> | undefined;
    let runEnd: Extract<RunEvent, { type: "run:end" }> | undefined;
    let teardownProblem: string | undefined;
    const results = new Map<string, CaseResult>();
    const running = new Set<string>();
    const timers = new Set<NodeJS.Timeout>();
    let watchdog: NodeJS.Timeout | undefined;
    let settled = false;

    const stopOnSignal = (signal: NodeJS.Signals) => {
      child.kill("SIGKILL");
      process.kill(process.pid, signal);
    };
    process.once("SIGINT", stopOnSignal);
    process.once("SIGTERM", stopOnSignal);

    const after = (ms: number, action: () => void) => {
      const timer = setTimeout(action, ms);
      timers.add(timer);
      return timer;
    };
    const settle = (outcome: SupervisedOutcome) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      process.off("SIGINT", stopOnSignal);
      process.off("SIGTERM", stopOnSignal);
      child.kill("SIGKILL");
      resolve(outcome);
    };
    const loadError = (message: string, hint?: string) => settle({ kind: "load-error", message, hint });

    /** The run is over: its summary, with what teardown did folded in. */
    const complete = () => {
      if (!runEnd) return abort("the worker finished without a summary");
      const summary: RunSummary = teardownProblem
        ? { ...runEnd.summary, teardownError: teardownProblem, ok: false }
        : runEnd.summary;
      hooks.event({ ...runEnd, summary });
      settle({ kind: "finished" });
    };

    /** The run stopped midway: report what finished, and why the rest did not. */
    const abort = (reason: string) => {
      if (!runStart) {
        runStart = { type: "run:start", seed: job.seed, cases: [], capabilities: [], required: job.require };
        hooks.event(runStart);
      }
      const stopped = (info: CaseInfo, status: "failed" | "skipped"): CaseResult => ({
        case: info,
        status,
        durationMs: 0,
        failure: status === "failed" ? { message: reason } : undefined,
        skipReason: status === "skipped" ? "not run: the run stopped" : undefined,
        warnings: [],
        notes: [],
        leftovers: {},
      });
      const all = runStart.cases.map(
        (info) => results.get(info.id) ?? stopped(info, running.has(info.id) ? "failed" : "skipped"),
      );
      const summary = summarize(all, { seed: job.seed, unmetRequirements: [], hung: [], started }, reason);
      hooks.event({ type: "run:end", summary, results: all });
      settle({ kind: "finished" });
    };

    const silenceLimit = limits.caseMs * 2 + 5000;
    const armWatchdog = () => {
      if (watchdog) clearTimeout(watchdog);
      if (phase !== "cases" && phase !== "exploration") return;
      watchdog = after(silenceLimit, () => {
        const where = running.size > 0 ? `case ${[...running][0]}` : phaseName(phase, job.modulePath);
        abort(
          `${where} stopped responding: nothing for ${seconds(silenceLimit)} though a call may take ${limits.caseMs} ms; the adapter blocks the process (a loop that never yields?)`,
        );
      });
    };

    const setupTimer = after(limits.setupMs, () => {
      const what = phaseName(phase, job.modulePath);
      loadError(
        phase === "import"
          ? `${what} did not finish within ${seconds(limits.setupMs)}`
          : `${what} never settled within ${seconds(limits.setupMs)}`,
        "Raise --setup-timeout if it is only slow (a database that takes long to start).",
      );
    });

    const handle = (message: WorkerMessage) => {
      armWatchdog();
      switch (message.type) {
        case "phase":
          phase = message.phase;
          if (phase === "cases") {
            clearTimeout(setupTimer);
            armWatchdog();
          }
          if (phase === "teardown") {
            if (watchdog) clearTimeout(watchdog);
            after(limits.teardownMs, () => {
              teardownProblem = `teardown() never settled within ${seconds(limits.teardownMs)}`;
              complete();
            });
          }
          return;
        case "loaded":
          hooks.loaded(message.exportName);
          return;
        case "load-error":
          return loadError(message.message, message.hint);
        case "usage-error":
          return settle({ kind: "usage-error", message: message.message, hint: message.hint });
        case "teardown-error":
          teardownProblem = message.message;
          return;
        case "done":
          return complete();
        case "exit":
          exitMessage = message;
          return;
        case "event": {
          const event = message.event;
          if (event.type === "run:end") {
            runEnd = event; // held until teardown is over
            return;
          }
          if (event.type === "run:start") runStart = event;
          if (event.type === "case:start") running.add(event.case.id);
          if (event.type === "case:end") {
            running.delete(event.result.case.id);
            results.set(event.result.case.id, event.result);
          }
          hooks.event(event);
        }
      }
    };

    const lines = createInterface({ input: child.stdio[channelFd] as Readable });
    lines.on("line", (line) => {
      if (settled) return;
      try {
        handle(JSON.parse(line) as WorkerMessage);
      } catch {
        // Not a message; nothing but the worker writes here.
      }
    });

    child.on("error", (error) => loadError(`could not start the worker process: ${error.message}`));
    child.on("close", (code, signal) => {
      if (settled) return;
      const how = howItEnded(exitMessage, code, signal);
      const what = phaseName(phase, job.modulePath);
      if (phase === "import" || phase === "setup" || phase === "factory") {
        return loadError(
          how ? `${how} during ${what}` : `${what} never settled: the module left nothing running that could settle it`,
        );
      }
      if (phase === "teardown" && runEnd) {
        teardownProblem = how
          ? `${how} during teardown()`
          : "teardown() never settled: the module left nothing running that could settle it";
        return complete();
      }
      const where =
        exitMessage?.during ?? (running.size > 0 ? `case ${[...running][0]}` : phaseName(phase, job.modulePath));
      abort(how ? `${how} during ${where}` : `the process stopped during ${where} with nothing left to run`);
    });
  });
}
