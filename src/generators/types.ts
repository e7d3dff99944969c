/**
 * The shapes `init` plans with. Each generator turns validated options into
 * planned files; nothing here touches the disk (see src/workspace/plan.ts).
 */
import type { DependencyName } from "../catalog/dependencies.js";

export const backends = ["sqlite", "postgres", "mysql", "memory", "skeleton"] as const;
export type Backend = (typeof backends)[number];

export const schemaFlavours = ["sql", "prisma", "drizzle", "typeorm"] as const;
export type SchemaFlavour = (typeof schemaFlavours)[number];

/** SQL dialects the entity schemas are written for. */
export const dialects = ["postgres", "mysql", "sqlite"] as const;
export type Dialect = (typeof dialects)[number];

const sqlBackends: Partial<Record<Backend, Dialect>> = { sqlite: "sqlite", postgres: "postgres", mysql: "mysql" };

/** The dialect a backend writes, or undefined for memory and skeleton. */
export function dialectOf(backend: Backend): Dialect | undefined {
  return sqlBackends[backend];
}

export interface PlannedFile {
  /** Path relative to the project root, POSIX separators. */
  path: string;
  contents: string;
}

export interface GeneratedPart {
  files: PlannedFile[];
  /** Runtime and dev dependencies the files import; versions come from src/catalog/dependencies.ts. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  /** Environment variables the files read (e.g. DATABASE_URL), with an example value. */
  env: { name: string; description: string; example: string }[];
  /** package.json scripts to add (name -> command). */
  scripts: Record<string, string>;
}

/** Where generated auth files live, relative to the project root. */
export const authDir = "auth";
