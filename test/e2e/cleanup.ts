/**
 * Per-test teardown: every server, temp dir, env change and fetch re-route a
 * test sets up is registered here and undone after it, last first, even when
 * the test failed half way.
 */
import { afterEach } from "vitest";

export function useCleanup(): (fn: () => unknown) => void {
  const pending: (() => unknown)[] = [];
  afterEach(async () => {
    const errors: unknown[] = [];
    for (const fn of pending.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length) throw new AggregateError(errors, "cleanup failed");
  });
  return (fn) => void pending.push(fn);
}

/** Generous for a loopback flow that takes well under a second, but a hang fails instead of stalling CI. */
export const FLOW_TIMEOUT = 20_000;
