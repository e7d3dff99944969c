// An adapter module that wraps another and counts the calls made to it, for
// bench/versus-official.js: verify-adapter loads it like any user's module.
// BENCH_ADAPTER names the wrapped module (an absolute path); the count is
// written to BENCH_CALLS_FILE when teardown() runs.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

type Module = {
  default: () => unknown;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
};

const wrapped: Module = await import(pathToFileURL(process.env.BENCH_ADAPTER!).href);
let calls = 0;

export const setup = () => wrapped.setup?.();

export async function teardown() {
  if (process.env.BENCH_CALLS_FILE) writeFileSync(process.env.BENCH_CALLS_FILE, String(calls));
  await wrapped.teardown?.();
}

export default async function counted() {
  const adapter = (await wrapped.default()) as Record<string, (...args: unknown[]) => unknown>;
  const out: Record<string, (...args: unknown[]) => unknown> = {};
  for (const [name, method] of Object.entries(adapter)) {
    if (typeof method !== "function") continue;
    out[name] = (...args) => {
      calls++;
      return method.apply(adapter, args);
    };
  }
  return out;
}
