/**
 * A reporter turns runner events into text. It never decides an outcome;
 * the runner's summary does. Where the text goes (stdout or a file) is the
 * caller's business, so every reporter can do both.
 */
import type { RunEvent } from "../runner.js";

export interface ReporterContext {
  /** The module under test, as the user named it. */
  modulePath: string;
  exportName: string;
  color: boolean;
  /** True when the output is a terminal: live progress is worth drawing. */
  interactive: boolean;
}

/** Returns the text to emit for an event, if any. */
export type Reporter = (event: RunEvent) => string | undefined;

export type ReporterFactory = (context: ReporterContext) => Reporter;

export function capabilityTitle(capability: string, titles: Map<string, string>): string {
  return titles.get(capability) ?? (capability === "flows" ? "Sign-in flows" : capability);
}
