/** How a dialect's module reaches its driver (the project's, else create-auth's own) and reads what it answers. */
import { createRequire } from "node:module";
import { join } from "node:path";
import { CliError, ExitCode } from "../../../lib/errors.js";
import type { Columns } from "./dialect.js";

/**
 * The driver `name` as the project resolves it (the one its adapter uses),
 * else, with `orOwn`, create-auth's own (a development install has all
 * three); undefined when neither has it.
 */
export function loadDriver<T = unknown>(root: string, name: string, options: { orOwn?: boolean } = {}): T | undefined {
  const from = [join(root, "package.json"), ...(options.orOwn ? [import.meta.url] : [])];
  for (const base of from) {
    try {
      return createRequire(base)(name) as T;
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  return undefined;
}

/** The project's driver `name`, or a usage error saying to install the dependencies. */
export function projectDriver<T>(root: string, name: string): T {
  const driver = loadDriver<T>(root, name);
  if (driver === undefined)
    throw new CliError(`${name} is not installed in ${root}; install the dependencies first (npm install).`, {
      exitCode: ExitCode.usage,
    });
  return driver;
}

/** Whether the project resolves the package `name`. */
export function resolvable(root: string, name: string): boolean {
  try {
    createRequire(join(root, "package.json")).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Rows of (table, column) as table -> columns. */
export function group(rows: { t: string; c: string }[]): Columns {
  const out: Columns = {};
  for (const { t, c } of rows) {
    out[t] ??= [];
    out[t].push(c);
  }
  return out;
}
