import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { onTestFinished, type TestContext } from "vitest";
import type { Io } from "../src/lib/io.js";

// execa and the CLI load when a test first runs a command: every test file's setup
// (test/setup/temp-dirs.ts) imports this module, most of them for tempDir() alone.

export const root = fileURLToPath(new URL("..", import.meta.url));
export const fixture = (...parts: string[]) => join(root, "fixtures", ...parts);

/** Folders made outside any test (at collection or in beforeAll): removed when the file ends (test/setup/temp-dirs.ts). */
const fileTempDirs: string[] = [];

/** Removes `dir`, or keeps it for a look when something failed and says where. */
function removeOrKeep(dir: string, failed: boolean): void {
  if (failed) process.stderr.write(`kept ${dir} (a test that used it failed)\n`);
  else rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * A fresh folder under the system's temp dir. Made in a test, it is removed
 * when the test ends; made outside one, when its file's tests end. Either
 * way it is kept, with its path printed, when a test failed. A concurrent
 * test passes its context: vitest cannot tell which of them is running.
 */
export function tempDir(prefix = "create-auth-", test?: Pick<TestContext, "onTestFinished">): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    (test?.onTestFinished ?? onTestFinished)(({ task }) => removeOrKeep(dir, task.result?.state === "fail"));
  } catch {
    // Not inside a test: the file's end removes it.
    fileTempDirs.push(dir);
  }
  return dir;
}

/** For test/setup/temp-dirs.ts, when a test file's tests have all run. */
export function removeFileTempDirs(anyFailed: boolean): void {
  for (const dir of fileTempDirs.splice(0)) removeOrKeep(dir, anyFailed);
}

/** An unprivileged user for tests that need one (root writes anywhere). */
export const nobody = 65534;
export const isRoot = process.getuid?.() === 0;

/**
 * Runs the built CLI as a user would: no terminal, colour off; throws only
 * when it outlives its limit (said as such, rather than as the half-written
 * output a test would then misread). With `uid` (as root), it runs as that
 * user; with `node`, on that Node binary.
 */
export async function cli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; uid?: number; node?: string; timeoutMs?: number } = {},
) {
  const { execa } = await import("execa");
  const asUser =
    options.uid === undefined ? [] : ["setpriv", `--reuid=${options.uid}`, `--regid=${options.uid}`, "--clear-groups"];
  const command = [...asUser, options.node ?? process.execPath, join(root, "bin", "create-auth.js"), ...args];
  const limitMs = options.timeoutMs ?? 60_000;
  const result = await execa(command[0]!, command.slice(1), {
    cwd: options.cwd ?? root,
    env: { NO_COLOR: "1", ...options.env },
    reject: false,
    timeout: limitMs,
  });
  if (result.timedOut)
    throw new Error(
      `create-auth ${args.join(" ")} did not finish within ${limitMs / 1000} s (stopped); its output so far:\n${result.stdout}\n${result.stderr}`,
    );
  return result;
}

/** An Io for running a command in-process: no terminal, its output captured. */
export function capturedIo(cwd: string, env: Record<string, string> = {}) {
  const sink = () => {
    let text = "";
    const stream = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    return { stream, text: () => text };
  };
  const out = sink();
  const err = sink();
  const io: Io = { cwd, out: out.stream, err: err.stream, interactive: false, env: { NO_COLOR: "1", ...env } };
  return { io, stdout: out.text, stderr: err.text };
}

/**
 * The CLI in this process (src/cli.ts's run): for usage errors and other
 * quick cases, without a process per case. Same result shape as cli().
 */
export async function inProcess(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  // The environment a child process would get from cli(): this one's, then the test's.
  const env = { ...(process.env as Record<string, string>), CI: "true", ...options.env };
  const { io, stdout, stderr } = capturedIo(options.cwd ?? root, env);
  const { run } = await import("../src/cli.js");
  const exitCode = await run(["node", "create-auth", ...args], io);
  // Without the final newline, as execa gives a process's output.
  return { exitCode, stdout: stdout().replace(/\n$/, ""), stderr: stderr().replace(/\n$/, "") };
}

/** Every file under `dir` and its text: to prove a command changed nothing. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

export const keys = { down: "\u001b[B", space: " ", enter: "\r", ctrlC: "\u0003" } as const;

/** A prompt's text to wait for, then the keys to type at it. */
export type Step = readonly [prompt: string | RegExp, ...keys: string[]];

const withoutEscapes = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");

/**
 * Runs the CLI in a real pseudo-terminal (util-linux `script`) in `cwd`. For
 * each step it waits until the prompt's text is on screen, then types the
 * keys one at a time, each once the screen has answered the previous one.
 */
export async function inTerminal(args: string[], steps: Step[], cwd: string) {
  // A fresh pty is 0 columns wide; give it a real size so prompts are drawn as text.
  const { execa } = await import("execa");
  const command = `stty cols 160 rows 40; ${[process.execPath, join(root, "bin", "create-auth.js"), ...args].map((a) => `'${a}'`).join(" ")}`;
  const child = execa("script", ["-qfec", command, "/dev/null"], {
    cwd,
    env: { CI: "", NO_COLOR: "1", TERM: "xterm" },
    reject: false,
    timeout: 30_000,
  });
  let screen = "";
  let changed = () => {};
  child.stdout!.on("data", (chunk: Buffer) => {
    screen += withoutEscapes(chunk.toString("utf8"));
    changed();
  });
  /** Resolves once `test` holds for the screen; fails with the screen so far after 10 s. */
  const until = (test: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} never appeared; the screen:\n${screen}`)), 10_000);
      changed = () => {
        if (!test()) return;
        clearTimeout(timer);
        changed = () => {};
        resolve();
      };
      changed();
    });
  let seen = 0;
  for (const [prompt, ...input] of steps) {
    await until(() => {
      const rest = screen.slice(seen);
      const found = typeof prompt === "string" ? rest.indexOf(prompt) : rest.search(prompt);
      if (found >= 0) seen += found;
      return found >= 0;
    }, String(prompt));
    for (const key of input) {
      const before = screen.length;
      child.stdin!.write(key);
      await until(() => screen.length > before, `an answer to ${JSON.stringify(key)}`);
    }
  }
  const result = await child;
  return { result, screen, read: (path: string) => readFileSync(join(cwd, path), "utf8") };
}
