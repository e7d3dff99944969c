/**
 * Creates a folder and the missing ones above it, one by one, and returns
 * those it made (outermost first) so a failed run can remove them again.
 * Not `mkdirSync(…, { recursive: true })`: on some paths (under /proc) Node's
 * recursive mkdir never returns; here every step either succeeds or throws
 * the system's own error.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

export function makeFolders(dir: string, mode?: number): string[] {
  const made: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (statSync(d, { throwIfNoEntry: false })) break;
    made.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of made) mkdirSync(d, { mode });
  return made;
}
