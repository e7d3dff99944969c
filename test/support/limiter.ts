/**
 * At most `count` of the given jobs at a time: the process tests that start a fresh Node per check (each compiling
 * TypeScript) would otherwise start them all at once on a machine of two cores.
 */
export function limiter(count: number): <T>(work: () => Promise<T>) => Promise<T> {
  const slots = { free: count, waiting: [] as Array<() => void> };
  return async (work) => {
    if (slots.free === 0) await new Promise<void>((resolve) => slots.waiting.push(resolve));
    else slots.free--;
    try {
      return await work();
    } finally {
      const next = slots.waiting.shift();
      if (next) next();
      else slots.free++;
    }
  };
}
