import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

/**
 * Each call made after a random number of turns of the event loop, as on a loaded machine: the jobs
 * interleave and finish in another order on every run (turns, not timers, so the test stays quick).
 */
export function underLoad(adapter: AnyAdapter): AnyAdapter {
  const slowed: Record<string, unknown> = {};
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  for (const [name, method] of Object.entries(adapter as Record<string, (...args: unknown[]) => unknown>))
    slowed[name] = async (...args: unknown[]) => {
      for (let turns = Math.floor(Math.random() * 4); turns > 0; turns--) await turn();
      return method.apply(adapter, args);
    };
  return slowed as AnyAdapter;
}
