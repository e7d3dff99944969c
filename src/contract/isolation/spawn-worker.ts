/**
 * Starting the worker process (src/contract/isolation/worker.ts). The launcher may
 * start it before the command line is even parsed (`prestartWorker`), so
 * that the worker's own start — Node, then tsx's module hooks, the slowest
 * part — overlaps the CLI's; the supervisor then takes that process and
 * sends it the job on stdin. A worker nobody takes sees its stdin close and
 * ends.
 *
 * This module is loaded by the launcher: it imports only Node's modules, the
 * private-cache module and the frames of the worker's protocol.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { privateTempFolder } from "../../lib/private-cache.js";
import type { WorkerRequest } from "./protocol.js";
import { encodeFrame } from "./wire.js";

/** dist/cli/verify-worker.js, from this module in src/contract/isolation/, dist/contract/isolation/ or the bundle in dist/cli/. */
export function workerPath(): string {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const root = basename(here) === "cli" ? join(here, "..", "..") : join(here, "..", "..", "..");
  return join(root, "dist", "cli", "verify-worker.js");
}

export function spawnWorker(env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const temp = privateTempFolder(env);
  return spawn(process.execPath, [workerPath()], {
    cwd,
    env: {
      ...env,
      // tsx caches compiled modules under the temp folder and runs them from there.
      ...(temp ? { TMPDIR: temp } : { TSX_DISABLE_CACHE: "1" }),
    },
    stdio: ["pipe", "pipe", "pipe", "pipe"],
  });
}

let early: { child: ChildProcess; cwd: string } | undefined;

/**
 * Whether the arguments name a TypeScript module, read before commander parses them: any word with a
 * TypeScript extension. Wrong either way costs only time (a JavaScript module's worker starts tsx for
 * nothing; a TypeScript one's starts it when the module arrives), never the result.
 */
const namesTypeScript = (args: string[]) => args.some((a) => /\.[cm]?ts$/i.test(a));

/** From the launcher, with verify-adapter's own arguments: a run (not --help or --list) starts the worker at once. */
export function prestartWorker(args: string[]): void {
  if (args.some((a) => a === "--help" || a === "-h" || a === "--list")) return;
  early = { child: spawnWorker(process.env, process.cwd()), cwd: process.cwd() };
  if (namesTypeScript(args)) early.child.stdin?.write(encodeFrame({ type: "warm-up" } satisfies WorkerRequest));
  // Until the supervisor takes it, it must not keep this process alive.
  early.child.unref();
  for (const stream of early.child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
}

/** The prestarted worker, if it was started for this environment and folder; else a new one. */
export function takeWorker(env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const started = early;
  early = undefined;
  if (started && env === process.env && cwd === started.cwd) {
    started.child.ref();
    for (const stream of started.child.stdio) (stream as { ref?: () => void } | null)?.ref?.();
    return started.child;
  }
  started?.child.kill();
  return spawnWorker(env, cwd);
}
