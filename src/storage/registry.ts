/**
 * Where the auth data can live, one module each: init's own adapter over a
 * database driver (sqlite, postgres, mysql), an in-process store or a
 * skeleton, or an ORM the project already talks to its database through
 * (prisma, drizzle), whose module detects itself. Adding one is its module
 * (storage.ts says what it declares), its templates and a line here.
 */
import type { Dialect } from "../catalog/sql-dialects.js";
import type { ProjectView } from "../workspace/project-view.js";
import { drizzleStorage } from "./drizzle/index.js";
import { memoryStorage } from "./memory.js";
import { prismaStorage } from "./prisma/index.js";
import { skeletonStorage } from "./skeleton.js";
import { mysqlStorage } from "./sql/mysql.js";
import { postgresStorage } from "./sql/postgres.js";
import { sqliteStorage } from "./sql/sqlite.js";
import { type StorageModule, storageModuleOf } from "./storage.js";

export const storageModules: readonly StorageModule[] = [
  sqliteStorage,
  postgresStorage,
  mysqlStorage,
  memoryStorage,
  skeletonStorage,
  prismaStorage,
  drizzleStorage,
].map(storageModuleOf);

/** --backend's values, in --help and prompt order. */
export const backends = storageModules.filter((s) => s.chosenBy === "backend").map((s) => s.id) as [
  string,
  ...string[],
];
/** --orm's values: the ORMs, and none (init's own adapter over the driver). */
export const orms = [...storageModules.filter((s) => s.chosenBy === "orm").map((s) => s.id), "none"] as unknown as [
  string,
  ...string[],
];

export function storageById(id: string): StorageModule {
  const found = storageModules.find((s) => s.id === id);
  if (!found) throw new Error(`No storage module "${id}"`);
  return found;
}

/** The dialect a backend writes, or undefined for memory and skeleton. */
export const dialectOf = (backend: string): Dialect | undefined => storageById(backend).dialect;

export interface OrmDetection {
  /** The ORM module, or undefined when the project shows none. */
  storage: StorageModule | undefined;
  facts: unknown;
  reason: string;
}

/** The ORM the project talks to its database through, and why; the first module that recognises it. */
export function detectOrm(project: ProjectView): OrmDetection {
  for (const storage of storageModules) {
    if (storage.chosenBy !== "orm") continue;
    const detected = storage.detect?.(project);
    if (detected) return { storage, ...detected };
  }
  const titles = storageModules.filter((s) => s.chosenBy === "orm").map((s) => s.title);
  return { storage: undefined, facts: undefined, reason: `no ${titles.join(" or ")} in this project` };
}
