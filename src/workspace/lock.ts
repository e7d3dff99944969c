/**
 * One create-auth edit of a project at a time. Two runs that read the same
 * config, each add their provider and write it back would lose one provider;
 * with the lock, the second waits, then plans from what the first wrote.
 * proper-lockfile makes the lock a folder (atomic to create), refreshes it
 * while held, treats one not refreshed for 10 s as left by a dead run, and
 * removes it when the process exits, even on a signal.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CliError, ExitCode } from "../lib/errors.js";

const lockName = ".create-auth.lock";

/** Runs `work` holding the project's lock; a project folder that does not exist yet needs none. */
export async function withProjectLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  if (!existsSync(root)) return work();
  // CommonJS: its functions are on the default export.
  const { lock } = (await import("proper-lockfile")).default;
  let release: () => Promise<void>;
  try {
    release = await lock(root, {
      lockfilePath: join(root, lockName),
      realpath: false,
      stale: 10_000,
      // Another run's edit takes well under a second; wait up to ~15 s for it.
      retries: { retries: 60, minTimeout: 50, maxTimeout: 250, factor: 1.2 },
    });
  } catch (error) {
    // Only a lock held by another run means waiting helps; anything else (a folder this user may not write)
    // goes to the error sink as the system error it is.
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    throw new CliError(`Another create-auth run is changing ${root}; nothing was written.`, {
      exitCode: ExitCode.failed,
      hint: `Wait for it to finish and run the command again (${(error as Error).message}).`,
    });
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
