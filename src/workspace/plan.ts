/**
 * Plan, then apply. Commands describe every file they would write as a
 * change (before and after; a planner's parts become changes in
 * parts-to-changes.ts); only `applyPlan` touches the disk, and it writes
 * all or nothing: each file goes to a private temporary sibling first and is
 * renamed into place once every write has succeeded.
 *
 * What it guarantees (README "Safety"): an env file is created 0600 and an
 * existing file keeps its mode; a symbolic link is written through to its
 * target, never replaced; a file that changed since it was read is not
 * overwritten; Ctrl-C or SIGTERM cannot stop it half-way (the signal takes
 * effect once the files are in place); on a failure nothing is written and
 * no folder it made is left behind; temporary files are 0600 and a later run
 * removes any that a killed run left.
 */
import {
  chmodSync,
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { CliError, ExitCode, UsageError } from "../lib/errors.js";
import { makeFolders } from "../lib/make-folders.js";
import { isEnvFile, isSecretEnvFile, maskEnvValues } from "../render/env-file.js";

export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Current contents, or null when the file does not exist yet. */
  before: string | null;
  after: string;
  /** The file goes (`after` is then ""): removed with the rest, put back if the plan fails. */
  remove?: true;
}

/** Far above any file create-auth reads (configs, package.json, env files, schemas); a bigger one is a mistake. */
export const maxReadBytes = 4 * 1024 * 1024;

/**
 * The text of a file, or null when there is none. What stands there is
 * checked before it is read: a folder, a FIFO or a device where a file
 * belongs, a file over `maxBytes` or one that is not text is a usage error,
 * so nothing hangs on a pipe or reads a device without end.
 */
export function readIfExists(path: string, maxBytes = maxReadBytes): string | null {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (isLink(path)) throw new UsageError(`${path} is a symbolic link to a missing file; fix or remove it first.`);
    return null;
  }
  if (!info.isFile()) {
    throw new UsageError(
      `${path} is a ${info.isDirectory() ? "folder" : "special file (a pipe or a device)"}, where a file belongs; nothing was written.`,
    );
  }
  if (info.size > maxBytes) {
    throw new UsageError(
      `${path} is ${megabytes(info.size)}, more than the ${megabytes(maxBytes)} such a file could need; nothing was written.`,
    );
  }
  const bytes = readFileSync(path);
  if (bytes.subarray(0, 8192).includes(0)) throw new UsageError(`${path} is not a text file; nothing was written.`);
  return bytes.toString("utf8");
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A change for `path` from its current contents to `after`; null when nothing would change. */
export function changeFile(path: string, after: string): FileChange | null {
  const before = readIfExists(path);
  return before === after ? null : { path, before, after };
}

const tempPattern = /\.create-auth-(\d+)-[0-9a-z]+\.tmp$/;

function tempName(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.create-auth-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Temporary files of ours that a killed run left in `dir`: owned by this user, from a process that is gone. */
function removeStaleTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = tempPattern.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    const path = join(dir, name);
    try {
      if (lstatSync(path).uid === process.getuid?.()) rmSync(path, { force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

let signalsHeld = false;
const signalExit: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Once a plan is being applied, Ctrl-C, SIGTERM and SIGHUP wait for it: with
 * a listener installed, Node delivers them between turns of the event loop,
 * and the apply is one synchronous turn. The process then ends with the
 * signal's usual exit code.
 */
function holdSignals(): void {
  if (signalsHeld) return;
  signalsHeld = true;
  for (const signal of Object.keys(signalExit) as NodeJS.Signals[]) {
    process.on(signal, () => process.exit(signalExit[signal]));
  }
}

/** The file a change really writes: a symbolic link's target, so the link stays a link. */
function writeTarget(change: FileChange): string {
  return change.before !== null && isLink(change.path) ? realpathSync(change.path) : change.path;
}

/** The mode a file gets: an existing file keeps its own; a new env file that holds values is 0600. */
function modeFor(target: string, existing: boolean): number {
  if (existing) return statSync(target).mode & 0o7777;
  return isSecretEnvFile(basename(target)) ? 0o600 : 0o666 & ~process.umask();
}

interface Staged {
  temp: string;
  target: string;
  change: FileChange;
  mode: number;
}

/** Puts back what the renames so far replaced: the old text (known from the plan) or no file. */
function rollBack(renamed: Staged[]): void {
  for (const { target, change, mode, temp: aside } of renamed.reverse()) {
    if (change.remove) {
      try {
        renameSync(aside, target);
      } catch {
        // Best effort, as below.
      }
      continue;
    }
    const temp = tempName(target);
    try {
      if (change.before === null) {
        rmSync(target, { force: true });
        continue;
      }
      writeFileSync(temp, change.before, { mode: 0o600, flag: "wx" });
      renameSync(temp, target);
      chmodSync(target, mode);
    } catch {
      // Best effort: the failure that started this is what gets reported; its temporary file goes.
      rmSync(temp, { force: true });
    }
  }
}

function writeFailure(error: unknown, path: string | undefined): CliError {
  if (error instanceof CliError) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  return new CliError(`Cannot write ${path ?? "a file"} (${code ?? message}); nothing was written.`, {
    exitCode: ExitCode.usage,
    hint: "Check the permissions of the project's folders and files, then run the command again.",
    cause: error,
  });
}

/** What an applied plan did: its changes, and the folders it made for them (outermost first). */
export interface AppliedPlan {
  changes: FileChange[];
  folders: string[];
}

export function applyPlan(changes: FileChange[]): AppliedPlan {
  holdSignals();
  const staged: Staged[] = [];
  const renamed: Staged[] = [];
  const madeFolders: string[] = [];
  const cleaned = new Set<string>();
  let current: string | undefined;
  try {
    for (const change of changes) {
      current = change.path;
      const target = writeTarget(change);
      if (!cleaned.has(dirname(target))) removeStaleTemps(dirname(target));
      cleaned.add(dirname(target));
      // Another run (or the user) changed the file since this run read it: its edit must not be lost.
      if (readIfExists(change.path) !== change.before) {
        throw new CliError(`${change.path} changed while create-auth was working; nothing was written.`, {
          exitCode: ExitCode.failed,
          hint: "Run the command again.",
        });
      }
      const temp = tempName(target);
      const mode = modeFor(target, change.before !== null);
      if (change.remove) {
        // Moved aside in the rename pass (so a failure can put it back), deleted once every file is in place.
        staged.push({ temp, target, change, mode });
        continue;
      }
      madeFolders.push(...makeFolders(dirname(target)));
      // Counted before the write: a write that fails part-way (a full disk) has created the file already.
      staged.push({ temp, target, change, mode });
      writeFileSync(temp, change.after, { mode: 0o600, flag: "wx" });
    }
    // Temporary files stay 0600; a file gets its own mode once in place.
    for (const entry of staged) {
      current = entry.change.path;
      if (entry.change.remove) {
        renameSync(entry.target, entry.temp);
        renamed.push(entry);
        continue;
      }
      renameSync(entry.temp, entry.target);
      renamed.push(entry);
      chmodSync(entry.target, entry.mode);
    }
    for (const entry of staged) if (entry.change.remove) rmSync(entry.temp, { force: true });
    return { changes, folders: madeFolders };
  } catch (error) {
    rollBack(renamed);
    for (const { temp, change } of staged)
      if (!change.remove || !renamed.some((r) => r.temp === temp)) rmSync(temp, { force: true });
    for (const dir of madeFolders.reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty: something else put a file there.
      }
    }
    throw writeFailure(error, current);
  }
}

/**
 * Puts back what an applied plan changed, when the step after it failed (an
 * install): each file as it was, files it created removed, files it removed
 * back, and the folders it made gone again when empty. All or nothing, as
 * applyPlan: a file changed since the plan wrote it stops the undo, with
 * nothing undone.
 */
export function undoPlan(applied: AppliedPlan): void {
  applyPlan(
    applied.changes.map((change): FileChange => {
      if (change.remove) return { path: change.path, before: null, after: change.before ?? "" };
      if (change.before === null) return { path: change.path, before: change.after, after: "", remove: true };
      return { path: change.path, before: change.after, after: change.before };
    }),
  );
  for (const dir of [...applied.folders].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty: something else put a file there since.
    }
  }
}

/** A unified diff of the plan, for --dry-run; values in env files are shown as <hidden>. */
export async function renderDiff(changes: FileChange[], cwd = process.cwd()): Promise<string> {
  const { createTwoFilesPatch } = await import("diff");
  return changes
    .map((change) => {
      const name = relative(cwd, change.path) || change.path;
      const shown = (text: string | null) =>
        text !== null && isEnvFile(basename(change.path)) ? maskEnvValues(text) : text;
      return createTwoFilesPatch(
        change.before === null ? "/dev/null" : `a/${name}`,
        change.remove ? "/dev/null" : `b/${name}`,
        shown(change.before) ?? "",
        shown(change.after) ?? "",
        undefined,
        undefined,
        { context: 3 },
      );
    })
    .join("\n");
}
