/**
 * The one way into the adapter, for the cases and the exploration alike:
 * every call is counted, a method that never settles is found once, named
 * in the report and not called again (one hang costs one timeout, not one
 * per case), and an adapter that stops answering altogether ends the run.
 */
import type { AdapterMethod } from "../spec/adapter.js";
import type { AdapterPort, CallOptions } from "./port.js";

/**
 * The adapter cannot answer any more (its process ended, or it stopped
 * answering): the run stops, and the message says why.
 */
export class AdapterGone extends Error {
  override name = "AdapterGone";
}

/** Methods that did not settle within their time limit, and whether the adapter as a whole stopped answering. */
export class HungMethods {
  private readonly hung = new Map<AdapterMethod, string>();
  private calls = 0;
  private settledSinceHang = 0;
  /** Hangs marked so far: a call made before the latest one ran beside it, not after it. */
  hangs = 0;
  /** Why the run must stop: two hangs in a row with no call settling between them. */
  stopped: string | undefined;
  /** Set when the adapter's process ended: nothing can be called again, not even to decide a verdict anew. */
  ended = false;

  /**
   * `onFirstHang`, when given: the first hang stops the run and is told at
   * once (an overlapped run that a hang voids: nothing it does after one
   * counts, run/verification.ts).
   */
  constructor(private readonly onFirstHang?: () => void) {}

  /** A call returned or threw: the adapter still answers. */
  settled(): void {
    this.calls++;
    this.settledSinceHang++;
  }

  /**
   * `hangsWhenMade`: `hangs` when the call that hung was made. A call made
   * before the latest hang was marked overlapped it (the exploration runs
   * sequences side by side): two such hangs are not "in a row", or two
   * methods hanging at once in two sequences would end the run.
   */
  mark(methods: Iterable<AdapterMethod>, where: string, hangsWhenMade?: number): void {
    const fresh = [...methods].filter((m) => !this.hung.has(m));
    if (fresh.length === 0) return;
    const overlapped = hangsWhenMade !== undefined && hangsWhenMade < this.hangs;
    const answeredBefore = this.hung.size === 0 || this.settledSinceHang > 0 || overlapped;
    for (const method of fresh) this.hung.set(method, where);
    this.hangs++;
    this.settledSinceHang = 0;
    if (this.onFirstHang && !this.stopped) {
      this.stopped = `${fresh.join(", ")} never settled beside other work`;
      this.onFirstHang();
    }
    if (answeredBefore || this.stopped) return;
    const names = [...this.hung.keys()];
    this.stopped = `${names.length} methods never settled after ${this.calls} calls (${names.join(", ")}); the adapter stopped answering`;
  }

  /** The adapter cannot answer any more (its process ended): the first reason given stands. */
  gone(reason: string): void {
    this.ended = true;
    this.stopped ??= reason;
  }

  /** Where `method` first hung, if it did. */
  where(method: AdapterMethod): string | undefined {
    return this.hung.get(method);
  }

  entries(): Array<{ method: AdapterMethod; caseId: string }> {
    return [...this.hung].map(([method, caseId]) => ({ method, caseId }));
  }
}

export const timedOut = Symbol("timed out");

/**
 * Calls that go out together (a sweep's lookups, a crowd, a cleanup) go at
 * most this many at a time: each call's limit starts when it is made, and a
 * correct store that writes to disk one insert at a time (SQLite) must not
 * see hundreds queued behind each other and time out.
 */
export const callsAtOnce = 16;

/** `fn` over `items`, at most `callsAtOnce` at a time; results in the items' order. */
export async function inFlight<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(callsAtOnce, items.length) }, lane));
  return results;
}

/**
 * Calls a method with a limit of its own: the result, what it threw, or
 * `timedOut` (and the method is marked hung). Every call has the limit: the
 * cases' (AdapterCalls), the exploration's steps and the cleanups.
 */
export async function callWithin(
  port: AdapterPort,
  hung: HungMethods,
  method: AdapterMethod,
  args: unknown[],
  limitMs: number,
  where: string,
  options?: CallOptions,
): Promise<{ threw: false; value: unknown } | { threw: true; error: unknown } | typeof timedOut> {
  if (hung.stopped) throw new AdapterGone(hung.stopped);
  const hangsWhenMade = hung.hangs;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), limitMs);
  });
  try {
    const settled = await Promise.race([
      port.call(method, args, options).then(
        (value) => ({ threw: false as const, value }),
        (error: unknown) => ({ threw: true as const, error }),
      ),
      limit,
    ]);
    if (settled === timedOut) hung.mark([method], where, hangsWhenMade);
    else if (settled.threw && settled.error instanceof AdapterGone) {
      hung.gone(settled.error.message);
      throw settled.error;
    } else hung.settled();
    return settled;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A call that did not settle within its limit: its method is marked hung
 * and the case fails on it. The limit is per call, not per case: a slow
 * store that answers every call in time passes however many calls a case
 * makes, on a loaded machine too.
 */
export class CallTimedOut extends Error {
  override name = "CallTimedOut";
  constructor(
    readonly method: AdapterMethod,
    readonly limitMs: number,
  ) {
    super(`${method} never settled within ${limitMs} ms`);
  }
}

/** One case's view of the adapter; each call has the time limit. */
export class AdapterCalls {
  constructor(
    readonly port: AdapterPort,
    readonly hung: HungMethods,
    readonly caseId: string,
    readonly limitMs: number,
  ) {}

  has(method: AdapterMethod): boolean {
    return this.port.methods.has(method);
  }

  /** Why `method` must not be called again, when it hung before. */
  refusal(method: AdapterMethod): string | undefined {
    const where = this.hung.where(method);
    return where === undefined ? undefined : `${method} never settled in ${where}; not called again`;
  }

  /** Calls the method as it is; whatever it throws is thrown, and CallTimedOut when it does not settle in time. */
  async invoke(method: AdapterMethod, args: unknown[], options?: CallOptions): Promise<unknown> {
    const settled = await callWithin(this.port, this.hung, method, args, this.limitMs, this.caseId, options);
    if (settled === timedOut) throw new CallTimedOut(method, this.limitMs);
    if (settled.threw) throw settled.error;
    return settled.value;
  }
}
