/**
 * The cases and the exploration share the adapter: side by side first, then
 * each decides its verdict alone, so what is reported depends on the seed
 * only, never on which calls happened to overlap.
 *
 * 1. The cases that let real time pass make the writes they wait on, one
 *    after another; then the exploration prepares alone (its collation probe
 *    decides how every later sequence compares keys, so nothing may run
 *    beside it) while their time passes.
 * 2. Together: the cases (in their lanes) and the exploration's jobs.
 * 3. The cases alone: a case that failed beside other work runs again alone
 *    and that run is its verdict.
 * 4. The exploration alone: its jobs that failed together run again alone
 *    (explore/schedule.ts).
 *
 * A call that never settled on either side, or an adapter that stopped
 * answering, voids all of it (which calls were in flight beside the hang is
 * chance): verification.ts starts the whole run again one call at a time on
 * a fresh adapter, and the exploration's verdict here is not decided.
 */

import type { ExplorationTurns } from "../explore/schedule.js";

function signal<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export class Turns implements ExplorationTurns {
  private readonly parked = signal();
  private readonly ready = signal();
  private readonly together = signal();
  private readonly cases = signal<boolean>();

  mayPrepare(): Promise<void> {
    return this.parked.promise;
  }

  /** The waiting cases have made their writes (or there are none): the exploration may prepare. */
  waitingParked(): void {
    this.parked.resolve();
  }

  prepared(): void {
    this.ready.resolve();
  }

  alone(): Promise<boolean> {
    this.together.resolve();
    return this.cases.promise;
  }

  /** Resolves once the cases are decided: whether what the exploration ran beside them stands. */
  decided(): Promise<boolean> {
    return this.cases.promise;
  }

  /** Waits until the exploration has prepared (or ended without doing so). */
  async untilPrepared(exploration: Promise<unknown>): Promise<void> {
    await Promise.race([this.ready.promise, exploration.catch(() => undefined)]);
  }

  /** Waits until the exploration's side-by-side phase is over (or it ended). */
  async untilTogetherDone(exploration: Promise<unknown>): Promise<void> {
    await Promise.race([this.together.promise, exploration.catch(() => undefined)]);
  }

  /** The cases are decided: the exploration may decide (true) or its run is void (false). */
  casesDone(explorationStands: boolean): void {
    this.cases.resolve(explorationStands);
  }
}
