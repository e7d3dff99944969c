/**
 * The stores init can generate an adapter for, one module each: adding a
 * backend is writing its module and listing it here. init's --backend, its
 * prompt, .gitignore and the adapter generator read this list.
 */
import type { Dialect } from "../catalog/backends.js";
import type { BackendModule } from "./backend.js";
import { memoryBackend } from "./memory.js";
import { mysqlBackend } from "./mysql.js";
import { postgresBackend } from "./postgres.js";
import { skeletonBackend } from "./skeleton.js";
import { sqliteBackend } from "./sqlite.js";

const backendModules = [sqliteBackend, postgresBackend, mysqlBackend, memoryBackend, skeletonBackend] as const;

export type Backend = (typeof backendModules)[number]["name"];

/** The backends in --help and prompt order. */
export const backends = backendModules.map((b) => b.name) as [Backend, ...Backend[]];

export function backendEntry(backend: Backend): BackendModule<Backend> {
  return backendModules.find((b) => b.name === backend)!;
}

/** The dialect a backend writes, or undefined for memory and skeleton. */
export function dialectOf(backend: Backend): Dialect | undefined {
  return backendEntry(backend).dialect;
}

/** The hints init's prompt shows beside the backends that have one. */
export const backendHints = (): Record<string, string> =>
  Object.fromEntries(backendModules.flatMap((b) => (b.hint ? [[b.name, b.hint]] : [])));
