/**
 * A plan's parts read into file changes: every planner (init, init on
 * next-auth v4, add-provider, upgrade, doctor --fix) ends here, so what is
 * left alone, written only where missing, merged or removed is decided once.
 */
import { isAbsolute, join } from "node:path";
import type { FilesPart } from "../render/parts.js";
import { changeFile, type FileChange, readIfExists } from "./plan.js";

/**
 * The one way a plan's parts become file changes, in the parts' order (in
 * each: files, files if missing, edits, removals). Paths are relative to
 * `root` or absolute. A file a part writes that exists with other contents
 * is left alone (listed, as the part gave its path) unless `force` or it
 * holds what the part `replaces`; an edit always applies; a file written
 * only where none is keeps what stands there; nothing that would not change
 * is a change.
 */
export function changesOfParts(
  root: string,
  parts: readonly FilesPart[],
  options: { force: boolean },
): { changes: FileChange[]; leftAlone: string[] } {
  const changes: FileChange[] = [];
  const leftAlone: string[] = [];
  const at = (path: string) => (isAbsolute(path) ? path : join(root, path));
  for (const part of parts) {
    for (const file of part.files ?? []) {
      const change = changeFile(at(file.path), file.contents);
      if (change?.before != null && !options.force && change.before !== file.replaces) leftAlone.push(file.path);
      else if (change) changes.push(change);
    }
    for (const file of part.ifMissing ?? []) {
      const change = changeFile(at(file.path), file.contents);
      if (change?.before === null) changes.push(change);
    }
    for (const edit of part.edits ?? []) {
      const change = changeFile(at(edit.path), edit.contents);
      if (change) changes.push(change);
    }
    for (const path of part.removed ?? []) {
      const before = readIfExists(at(path));
      if (before !== null) changes.push({ path: at(path), before, after: "", remove: true });
    }
  }
  return { changes, leftAlone };
}
