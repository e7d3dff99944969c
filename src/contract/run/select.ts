/**
 * --only/--skip: case ids or globs, matched against the case ids and the
 * names of the run's other parts (`explore`). A pattern that matches nothing
 * is a typo; a selection of nothing is a mistake.
 */
import { UsageError } from "../../lib/errors.js";
import type { ContractCase } from "../spec/case.js";

export interface Selection {
  cases: ContractCase[];
  /** The other parts (of `parts`) still selected. */
  parts: string[];
}

export async function selectRun(
  cases: ContractCase[],
  only: string[],
  skip: string[],
  parts: string[] = [],
): Promise<Selection> {
  if (only.length === 0 && skip.length === 0) return { cases, parts };
  // Loaded only when there are patterns: every full run would pay for it otherwise.
  const { default: picomatch } = await import("picomatch");
  const ids = [...cases.map((c) => c.id), ...parts];
  const matcher = (flag: string, pattern: string) => {
    const isMatch = picomatch(pattern);
    if (!ids.some((id) => isMatch(id)))
      throw new UsageError(
        `${flag} ${pattern} matches no case.`,
        "List the case ids with: create-auth verify-adapter --list",
      );
    return isMatch;
  };
  const included = only.map((p) => matcher("--only", p));
  const excluded = skip.map((p) => matcher("--skip", p));
  const selected = (id: string) =>
    (included.length === 0 || included.some((m) => m(id))) && !excluded.some((m) => m(id));
  const selection = { cases: cases.filter((c) => selected(c.id)), parts: parts.filter(selected) };
  if (selection.cases.length === 0 && selection.parts.length === 0)
    throw new UsageError(
      "--only and --skip leave nothing to run.",
      "List the case ids with: create-auth verify-adapter --list",
    );
  return selection;
}
