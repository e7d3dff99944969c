/**
 * Two-factor sign-in's store in a project init already set up: which store
 * the adapter's folder shows (a SQL backend's schema.<dialect>.sql beside
 * db.ts, or the in-memory adapter), its two-factor-store.ts, and the SQL of
 * the two tables for a schema file written before them. Prisma, Drizzle and
 * the skeleton have none yet.
 */
import { join } from "node:path";
import { type Dialect, dialects } from "../catalog/sql-dialects.js";
import type { PlannedFile } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";
import { readIfExists } from "../workspace/plan.js";
import { renderSqlSchema, sqlDialectContext, sqlSchemaPath } from "./sql/schema.js";

/** A store two-factor can keep its state in, as found in a project. */
export interface FoundTwoFactorStore {
  /** The database of a SQL backend; undefined for the in-memory adapter. */
  dialect?: Dialect;
}

/** The store the adapter in `dir` (absolute) goes with, when two-factor has one for it. */
export function findTwoFactorStore(dir: string): FoundTwoFactorStore | undefined {
  const dialect = dialects.find((d) => readIfExists(join(dir, `schema.${d}.sql`)) !== null);
  if (dialect && readIfExists(join(dir, "db.ts")) !== null) return { dialect };
  if (/In-memory Auth\.js adapter/.test(readIfExists(join(dir, "adapter.ts")) ?? "")) return {};
  return undefined;
}

/** two-factor-store.ts for `store`, in `authDir` (from the project's root). */
export async function twoFactorStoreFile(
  store: FoundTwoFactorStore,
  authDir: string,
  ext: "" | ".js",
): Promise<PlannedFile> {
  const path = `${authDir}/two-factor-store.ts`;
  if (!store.dialect)
    return { path, contents: await renderTemplate("adapters/two-factor-store-memory.ts.hbs", { skeleton: false }) };
  const context = { ...sqlDialectContext(store.dialect), ext, sql: true };
  return { path, contents: await renderTemplate("adapters/two-factor-store.ts.hbs", context) };
}

/**
 * The schema file with the two tables added at its end when it lacks them (every byte it has stays), or
 * undefined when it has them or the store has no schema file.
 */
export async function schemaWithTwoFactor(
  store: FoundTwoFactorStore,
  root: string,
  authDir: string,
): Promise<PlannedFile | undefined> {
  if (!store.dialect) return undefined;
  const path = sqlSchemaPath(store.dialect, authDir);
  const schema = readIfExists(join(root, path)) ?? "";
  if (/CREATE TABLE IF NOT EXISTS two_factor\b/.test(schema)) return undefined;
  const full = await renderSqlSchema(store.dialect);
  const tables = full.slice(full.indexOf("-- Two-factor sign-in"));
  const glue = schema === "" || schema.endsWith("\n\n") ? "" : schema.endsWith("\n") ? "\n" : "\n\n";
  return { path, contents: `${schema}${glue}${tables}` };
}
