import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

/** Every method of `adapter`, each call made once `wait()` has settled. */
export function slowed(adapter: AnyAdapter, wait: () => Promise<unknown>): AnyAdapter {
  const slow: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(adapter as Record<string, (...args: unknown[]) => unknown>))
    slow[name] = async (...args: unknown[]) => {
      await wait();
      return method.apply(adapter, args);
    };
  return slow as AnyAdapter;
}

/**
 * Each call made after a random number of turns of the event loop, as on a loaded machine: the jobs
 * interleave and finish in another order on every run (turns, not timers, so the test stays quick).
 */
export function underLoad(adapter: AnyAdapter): AnyAdapter {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return slowed(adapter, async () => {
    for (let turns = Math.floor(Math.random() * 4); turns > 0; turns--) await turn();
  });
}
