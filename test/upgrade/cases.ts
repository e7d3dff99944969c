/**
 * The upgrade's folder cases (fixtures/upgrade/<case>/): `input/` is a
 * next-auth v4 app as its author wrote it (dot-x stored for .x), `expected/`
 * holds every file the upgrade creates or changes, as it must be, and
 * expected.json the files it removes and the notes and manual steps it
 * gives. A file in neither stays byte for byte.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { fixture } from "../helpers.js";

export interface ExpectedUpgrade {
  removed: string[];
  notes: string[];
  manual: string[];
}

export const upgradeCases = () =>
  readdirSync(fixture("upgrade")).filter((n) => existsSync(fixture("upgrade", n, "input")));

/** dot-x → .x, recursively, so a fixture's own .env or .gitignore does not act on this repository. */
export function restoreDotfiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) restoreDotfiles(path);
    else if (name.startsWith("dot-")) renameSync(path, join(dir, `.${name.slice(4)}`));
  }
}

/** Copies a case's input into `dir`. */
export function copyInput(name: string, dir: string): void {
  cpSync(fixture("upgrade", name, "input"), dir, { recursive: true });
  restoreDotfiles(dir);
}

/** Every file under `dir`, relative, POSIX, sorted; node_modules and build output left out. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((f) => !/^(?:node_modules|\.next|generated)\//.test(f) && !f.endsWith(".db"))
    .sort();
}

/** The expected tree of a case, with dot-x read as .x. */
export function expectedFiles(name: string): Map<string, string> {
  const base = fixture("upgrade", name, "expected");
  const files = new Map<string, string>();
  if (!existsSync(base)) return files;
  for (const file of filesUnder(base)) {
    const real = file.replace(/(^|\/)dot-/g, "$1.");
    files.set(real, readFileSync(join(base, file), "utf8"));
  }
  return files;
}

export const readExpected = (name: string): ExpectedUpgrade =>
  JSON.parse(readFileSync(fixture("upgrade", name, "expected.json"), "utf8")) as ExpectedUpgrade;
