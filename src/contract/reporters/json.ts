/** Machine-readable report: one JSON document at the end of the run. */
import { caseReproduction, type ReporterFactory } from "./reporter.js";

export const jsonReporter: ReporterFactory = (context) => {
  let capabilities: unknown;
  return (event) => {
    if (event.type === "run:start") capabilities = event.capabilities;
    if (event.type !== "run:end") return undefined;
    const report = {
      module: context.modulePath,
      export: context.exportName,
      ...event.summary,
      capabilities,
      cases: event.results.map((r) => ({
        id: r.case.id,
        title: r.case.title,
        capability: r.case.capability,
        status: r.status,
        durationMs: Math.round(r.durationMs * 10) / 10,
        failure: r.failure,
        reproduction: r.status === "failed" ? caseReproduction(context, event.summary.seed, r) : undefined,
        skipReason: r.skipReason,
        warnings: r.warnings,
      })),
    };
    return `${JSON.stringify(report, null, 2)}\n`;
  };
};
