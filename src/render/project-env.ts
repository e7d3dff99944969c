/**
 * The env files a project loads, in the order its tools load them, as
 * facts: is NAME set, where, and with what value. The files are read once,
 * before planning (src/workspace/read-env.ts); every writer (init,
 * add-provider) asks these facts before it adds a line, and every reader
 * (migrate, doctor, the generated load-env module) uses the same files in
 * the same order, so what create-auth sees is what the app sees.
 *
 * How the tools load them (each read from its source):
 * - Next.js (@next/env): `.env.$(mode).local`, `.env.local` (not in test),
 *   `.env.$(mode)`, `.env`; the first file that assigns a name wins, and a
 *   variable already in the environment wins over every file. dotenv-flow
 *   and create-auth's own load-env module read the same list.
 * - Vite's loadEnv (SvelteKit): `.env`, `.env.local`, `.env.$(mode)`,
 *   `.env.$(mode).local`, a later file winning, so `.env.$(mode)` beats
 *   `.env.local`; `.env.local` is read in test too; the environment wins.
 * - Prisma's CLI (up to 6, without a prisma.config) and drizzle-kit (dotenv
 *   at start) read `.env` alone; Prisma 7 reads what its config loads.
 * The mode is `development` unless NODE_ENV says `production` or `test`
 * (`next dev` and `vite dev` run in development, builds in production).
 * Values are taken as written: like dotenv-flow and Node's own loader, and
 * unlike Next.js and Vite, `$NAME` references are not expanded.
 */
import type { EnvEntry } from "./env-file.js";

export type EnvMode = "development" | "production" | "test";

/** Whose precedence: Next.js's (also dotenv-flow's and the generated load-env's) or Vite's (SvelteKit). */
export type EnvOrder = "next" | "vite";

/** The file Prisma's CLI and drizzle-kit read by themselves: where an ORM project keeps its database. */
export const toolEnvFile = ".env";

/** The mode a script runs in, from NODE_ENV, as the generated load-env module decides it. */
export function envModeOf(environment: NodeJS.ProcessEnv): EnvMode {
  const nodeEnv = environment.NODE_ENV;
  return nodeEnv === "production" || nodeEnv === "test" ? nodeEnv : "development";
}

/** The files `order` reads in `mode`, the one that wins first. */
export function envFileNames(order: EnvOrder, mode: EnvMode): string[] {
  if (order === "vite") return [`.env.${mode}.local`, `.env.${mode}`, ".env.local", ".env"];
  return [`.env.${mode}.local`, ...(mode === "test" ? [] : [".env.local"]), `.env.${mode}`, ".env"];
}

/** One place a variable is assigned. */
export interface EnvSetting {
  name: string;
  /** As dotenv reads it; "" for `NAME=`, which the loaders keep as a value. */
  value: string;
  /** The file (relative to the project), or "environment". */
  source: string;
  /** The assignment in its file; absent for the environment. */
  entry?: EnvEntry;
}

export interface EnvFile {
  name: string;
  /** null when the file does not exist. */
  text: string | null;
  entries: EnvEntry[];
}

export class ProjectEnv {
  constructor(
    /** The files read, the one that wins first (missing ones included, with no text). */
    readonly files: readonly EnvFile[],
    readonly environment: NodeJS.ProcessEnv = {},
    /** Other files read with them that the app does not load (.env.example), by name: null when missing. */
    readonly others: ReadonlyMap<string, string | null> = new Map(),
  ) {}

  /** Every place `name` is assigned, the one that wins first: the environment, then each file's last assignment. */
  settings(name: string): EnvSetting[] {
    const found: EnvSetting[] = [];
    const fromEnvironment = this.environment[name];
    if (fromEnvironment !== undefined) found.push({ name, value: fromEnvironment, source: "environment" });
    for (const file of this.files) {
      const entry = file.entries.findLast((e) => e.name === name);
      if (entry) found.push({ name, value: entry.value, source: file.name, entry });
    }
    return found;
  }

  /** What the app sees for `name`: the first setting, an empty value included (every loader keeps it). */
  get(name: string): EnvSetting | undefined {
    return this.settings(name)[0];
  }

  /** Whether some file read assigns `name` (the environment aside). */
  inFiles(name: string): boolean {
    return this.settings(name).some((s) => s.source !== "environment");
  }

  /** The names of the files read, the one that wins first. */
  get names(): string[] {
    return this.files.map((f) => f.name);
  }

  /** The text of a file read (null when it does not exist); a file that was not read is a mistake of the caller's. */
  text(name: string): string | null {
    const file = this.files.find((f) => f.name === name);
    if (file) return file.text;
    const other = this.others.get(name);
    if (other === undefined) throw new Error(`${name} was not read with the project's env files.`);
    return other;
  }
}

/**
 * The files a project loads in development and in production, the
 * development ones first: what "set in any loaded file" means to the
 * writers (test files are the test runner's).
 */
export function loadedEnvFiles(order: EnvOrder): string[] {
  return [...new Set([...envFileNames(order, "development"), ...envFileNames(order, "production")])];
}

/** A variable still to fill in by hand, and where. */
export interface EnvToFill {
  name: string;
  file: string;
  /** Written commented out (`# NAME=`): the line is to be uncommented. */
  commented: boolean;
}

/** "Fill in A, B in .env.local." for the next steps, one line per file. */
export function fillInSteps(toFill: readonly EnvToFill[]): string[] {
  const byFile = new Map<string, EnvToFill[]>();
  for (const variable of toFill) byFile.set(variable.file, [...(byFile.get(variable.file) ?? []), variable]);
  return [...byFile].map(([file, variables]) => {
    const commented = variables.filter((v) => v.commented).length;
    const uncomment =
      commented === 0
        ? ""
        : commented === variables.length
          ? " (uncomment their lines)"
          : " (uncomment the lines that are commented out)";
    return `Fill in ${variables.map((v) => v.name).join(", ")} in ${file}${uncomment}.`;
  });
}
