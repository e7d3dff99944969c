/**
 * The plumbing every upgrade edit shares: text-range edits against one
 * parse, then the imports a pass left unused removed and the ones it needs
 * added, each on a fresh parse, so positions stay true and every byte the
 * edit did not mean to change stays.
 */

import type { ImportSpec } from "../../render/parts.js";
import { isCommonJs } from "../bindings.js";
import { importStyle, planImports, removeUnused } from "../imports.js";
import { applyEdits, firstSyntaxError, parse, type SourceFile, type TextEdit } from "../parse.js";

/** What an edit gives back: the new text, and steps it could not take safely. */
export interface EditOutcome {
  text: string;
  manual: string[];
}

/** Removes the imports of `names` that nothing reads any more (one statement per round, so rounds). */
export function dropUnusedImports(text: string, fileName: string, names: Iterable<string>): string {
  const wanted = new Set(names);
  let next = text;
  for (let round = 0; round < 10 && wanted.size; round++) {
    const edits = removeUnused(parse(next, fileName), wanted);
    if (edits.length === 0) break;
    next = applyEdits(next, edits);
  }
  return next;
}

/** Adds `imports` in the file's own style; a name already bound another way is a conflict, returned as a reason. */
export function addImports(
  text: string,
  fileName: string,
  imports: ImportSpec[],
): { text: string } | { conflict: string } {
  const file = parse(text, fileName);
  const plan = planImports(file, imports, importStyle(file, isCommonJs(file)));
  if ("conflict" in plan) return { conflict: plan.conflict };
  return { text: applyEdits(text, plan.edits) };
}

/** Applies edits made against `file`, and refuses (undefined) when the result would not parse. */
export function applyChecked(file: SourceFile, edits: TextEdit[], fileName: string): string | undefined {
  const next = applyEdits(file.text, edits);
  return firstSyntaxError(parse(next, fileName)) ? undefined : next;
}
