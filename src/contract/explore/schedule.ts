/**
 * How the exploration's jobs (its fast-check batches and its crowds) share
 * the adapter: side by side, while the verdict stays the one a run of them
 * one after another gives.
 *
 * A job's sequences own their records (every value is salted per attempt),
 * so on a correct store jobs cannot see each other, and running them
 * together only overlaps the waits for the store's answers. Which job is
 * reported is still chosen in seed order, never in finishing order: the
 * jobs that failed together are run again alone, lowest first, and the
 * lowest that fails alone is the failure (and is shrunk alone). A fault
 * that shows only when sequences overlap (a delete that ignores its filter
 * takes another sequence's records) fails no job alone; then every job runs
 * again one after another, so the verdict is exactly the sequential one.
 */

/**
 * Jobs running at once. A store answering over the network (PostgreSQL)
 * spends most of a sequence waiting for replies, so a few sequences in
 * flight fill those waits; more than a handful only queues calls behind
 * each other on two cores and a connection pool of ten (pg's default), and
 * each call's time limit starts when it is made. Four runs the default
 * forty sequences as four batches of ten at once.
 */
export const jobsAtOnce = 4;

export type JobOutcome = "passed" | "failed";

/**
 * Runs jobs 0, 1, 2… at most `jobsAtOnce` at a time, starting another
 * while `more(index)` allows, and returns the indexes of those that failed,
 * lowest first. No job after a failed one is started: one after another,
 * it would never have run.
 */
export async function runSideBySide(
  more: (index: number) => boolean,
  run: (index: number) => Promise<JobOutcome>,
): Promise<number[]> {
  const failed: number[] = [];
  let next = 0;
  const lowestFailed = () => (failed.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...failed));
  const lane = async () => {
    while (next < lowestFailed() && more(next)) {
      const index = next++;
      if ((await run(index)) === "failed") failed.push(index);
    }
  };
  await Promise.all(Array.from({ length: jobsAtOnce }, lane));
  return failed.sort((a, b) => a - b);
}

export type Decision = { job: number; how: "alone" | "in order" } | undefined;

/**
 * The verdict in seed order: the lowest job of `failedTogether` that fails
 * again alone; if none does, the first job that fails when all run one
 * after another (`inOrder`), or none.
 */
export async function decideInSeedOrder(
  failedTogether: number[],
  alone: (index: number) => Promise<JobOutcome>,
  inOrder: () => Promise<number | undefined>,
): Promise<Decision> {
  if (failedTogether.length === 0) return undefined;
  for (const index of failedTogether) if ((await alone(index)) === "failed") return { job: index, how: "alone" };
  const first = await inOrder();
  return first === undefined ? undefined : { job: first, how: "in order" };
}

/** When the exploration runs beside the cases (run/turns.ts): where it waits for them. */
export interface ExplorationTurns {
  /**
   * Resolves once the cases that let real time pass have made the writes
   * they wait on: the preparation runs after them, alone, so their time
   * passes during it instead of after it.
   */
  mayPrepare(): Promise<void>;
  /** Its preparation is done: the cases may start beside it. */
  prepared(): void;
  /**
   * Its jobs side by side are done; resolves once the cases are done too,
   * true when it may decide its verdict, false when what it ran beside the
   * cases is void (a call hung: the whole run starts again, run/verification.ts).
   */
  alone(): Promise<boolean>;
}
