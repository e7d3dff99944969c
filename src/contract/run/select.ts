/**
 * --only/--skip: case ids or globs, matched against the case ids and the
 * names of the run's other parts (`explore`). A pattern that matches nothing
 * is a typo; a selection of nothing is a mistake. Cases of an opt-in group
 * run only when an --only pattern names them. The CLI, the library API and
 * create-auth/vitest all select through here.
 */
import { UsageError } from "../../lib/errors.js";
import type { ContractCase } from "../spec/case.js";

export interface Selection {
  cases: ContractCase[];
  /** The other parts (of `parts`) still selected. */
  parts: string[];
}

/** Compiles a glob into a test of an id (picomatch). */
export type Glob = (pattern: string) => (id: string) => boolean;

/** The selection, with the glob compiler given: for callers that already hold one. */
export function selectWith(
  glob: Glob,
  cases: ContractCase[],
  only: string[],
  skip: string[],
  parts: string[] = [],
): Selection {
  const ids = [...cases.map((c) => c.id), ...parts];
  const matcher = (flag: string, pattern: string) => {
    const isMatch = glob(pattern);
    if (!ids.some((id) => isMatch(id)))
      throw new UsageError(
        `${flag} ${pattern} matches no case.`,
        "List the case ids with: create-auth verify-adapter --list",
      );
    return isMatch;
  };
  const included = only.map((p) => matcher("--only", p));
  const excluded = skip.map((p) => matcher("--skip", p));
  const named = (id: string) => included.some((m) => m(id));
  const selected = (id: string, optIn = false) =>
    (included.length === 0 ? !optIn : named(id)) && !excluded.some((m) => m(id));
  const selection = { cases: cases.filter((c) => selected(c.id, c.optIn)), parts: parts.filter((p) => selected(p)) };
  if (selection.cases.length === 0 && selection.parts.length === 0)
    throw new UsageError(
      "--only and --skip leave nothing to run.",
      "List the case ids with: create-auth verify-adapter --list",
    );
  return selection;
}

export async function selectRun(
  cases: ContractCase[],
  only: string[],
  skip: string[],
  parts: string[] = [],
): Promise<Selection> {
  if (only.length === 0 && skip.length === 0) return { cases: cases.filter((c) => !c.optIn), parts };
  // Loaded only when there are patterns: every full run would pay for it otherwise.
  const { default: picomatch } = await import("picomatch");
  return selectWith(picomatch, cases, only, skip, parts);
}
