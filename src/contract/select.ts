/** --only/--skip: case ids or globs; a pattern that matches nothing is a typo. */
import { UsageError } from "../lib/errors.js";
import type { ContractCase } from "./case.js";

export async function selectCases(cases: ContractCase[], only: string[], skip: string[]): Promise<ContractCase[]> {
  if (only.length === 0 && skip.length === 0) return cases;
  // Loaded only when there are patterns: every full run would pay for it otherwise.
  const { default: picomatch } = await import("picomatch");
  const matcher = (flag: string, pattern: string) => {
    const isMatch = picomatch(pattern);
    if (!cases.some((c) => isMatch(c.id)))
      throw new UsageError(
        `${flag} ${pattern} matches no case.`,
        "List the case ids with: create-auth verify-adapter --list",
      );
    return isMatch;
  };
  const included = only.map((p) => matcher("--only", p));
  const excluded = skip.map((p) => matcher("--skip", p));
  const selected = cases.filter(
    (c) => (included.length === 0 || included.some((m) => m(c.id))) && !excluded.some((m) => m(c.id)),
  );
  if (selected.length === 0)
    throw new UsageError(
      "--only and --skip leave no case to run.",
      "List the case ids with: create-auth verify-adapter --list",
    );
  return selected;
}
