/**
 * A reporter turns runner events into text. It never decides an outcome;
 * the runner's summary does. Where the text goes (stdout or a file) is the
 * caller's business, so every reporter can do both.
 */
import { shellQuote } from "../../lib/shell.js";
import type { CaseResult, RunEvent, RunSummary } from "../run/runner.js";

interface ReporterContext {
  /** The module under test, as the user named it. */
  modulePath: string;
  exportName: string;
  color: boolean;
  /** True when the output is a terminal: live progress is worth drawing. */
  interactive: boolean;
  /**
   * The options of this run a case's verdict depends on, as flags (--export,
   * --timeout, --strict): a re-run without them could pass where this run failed.
   */
  verdictFlags: string[];
}

/** Returns the text to emit for an event, if any. */
type Reporter = (event: RunEvent) => string | undefined;

export type ReporterFactory = (context: ReporterContext) => Reporter;

export function capabilityTitle(capability: string, titles: Map<string, string>): string {
  return titles.get(capability) ?? (capability === "flows" ? "Sign-in flows" : capability);
}

/**
 * Adapter text (error messages, values) shown as one inert line: control
 * characters escaped, so it cannot move the cursor, colour the log or start
 * a line of its own, and `::` broken up, so CI runners cannot take it for a
 * workflow command.
 */
export function inert(text: string): string {
  return escapeControls(text).replace(/::/g, ":\u200b:");
}

/** Control characters as visible escapes (`\n`, `\u001b`). */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) =>
    ch === "\n" ? "\\n" : ch === "\t" ? "\\t" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The command that runs a failed case again on its own, in a fresh process:
 * the same seed gives it the same data. A case refused because a method hung
 * in an earlier case runs after that case, which is what its failure says.
 */
export function caseReproduction(context: ReporterContext, seed: number, result: CaseResult): string {
  const ids = [result.failure?.hungIn, result.case.id].filter((id) => id !== undefined).join(",");
  const words = ["create-auth", "verify-adapter", context.modulePath, "--seed", String(seed), "--only", ids];
  return [...words, ...context.verdictFlags].map(shellQuote).join(" ");
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What went wrong with the run as a whole, beside its cases: each a line, failures first. */
export function runProblems(summary: RunSummary): { failures: string[]; warnings: string[] } {
  const failures: string[] = [];
  if (summary.aborted) failures.push(`the run stopped: ${summary.aborted}`);
  if (summary.teardownError) failures.push(summary.teardownError);
  const warnings: string[] = [];
  const left = Object.entries(summary.leftovers).map(([kind, n]) => `${n} ${n === 1 ? kind.replace(/s$/, "") : kind}`);
  if (left.length > 0)
    warnings.push(
      `the run left ${left.join(", ")} it created and could not remove (its delete methods did not remove them); verify-adapter writes to the database it is given: point it at a test database`,
    );
  for (const { method, caseId } of summary.hung)
    warnings.push(`${method} never settled (first in ${caseId}); cases after that did not call it`);
  return { failures, warnings };
}
