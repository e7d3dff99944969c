/**
 * V8 code caching for the heavy modules (ts-morph bundles the whole
 * TypeScript compiler: ~400 ms to compile cold here, ~190 ms from cache).
 * Node 22.1+ has it built in for ESM and CommonJS; on Node 20 the
 * v8-compile-cache package does the same for CommonJS `require`.
 */
import module, { createRequire } from "node:module";

type WithCache = typeof module & { enableCompileCache?: () => unknown };

/** Built-in cache where Node has one; cheap, so the CLI turns it on at start. */
export function enableBuiltinCompileCache(): boolean {
  const builtin = (module as WithCache).enableCompileCache;
  if (typeof builtin !== "function") return false;
  builtin();
  return true;
}

/**
 * Requires a large CommonJS package through a V8 code cache. Node 22.1+
 * caches by itself; on Node 20 v8-compile-cache-lib does it, under a fixed
 * key (its default keys by the main module, which an ESM entry lacks, so it
 * would write a blob per working directory), and only for this one require.
 */
export function requireWithCompileCache<T>(id: string): T {
  const require = createRequire(import.meta.url);
  if (enableBuiltinCompileCache()) return require(id) as T;
  let cache: { uninstall(): void } | undefined;
  try {
    cache = (require("v8-compile-cache-lib") as { install(options: { prefix: string }): { uninstall(): void } | undefined }).install({ prefix: "create-auth" });
  } catch {
    // Without the cache the require is slower, not wrong.
  }
  try {
    return require(id) as T;
  } finally {
    cache?.uninstall();
  }
}
