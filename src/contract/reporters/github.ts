/**
 * GitHub Actions workflow commands: each failure becomes an error annotation
 * on the adapter file, each warning a warning annotation.
 */
import { relative } from "node:path";
import { caseReproduction, escapeControls, type ReporterFactory, runProblems } from "./reporter.js";

// Workflow command data and properties have their own escaping rules.
// Line breaks stay line breaks in the annotation; other control characters become visible escapes.
const escapeData = (s: string) => escapeControls(s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export const githubReporter: ReporterFactory = (context) => (event) => {
  if (event.type !== "run:end") return undefined;
  const file = escapeProperty(relative(process.cwd(), context.modulePath) || context.modulePath);
  const lines: string[] = [];
  for (const r of event.results) {
    if (r.status === "failed") {
      const f = r.failure!;
      const message = [
        f.message,
        f.expected !== undefined ? `expected: ${f.expected}` : "",
        f.received !== undefined ? `received: ${f.received}` : "",
        `reproduce: ${caseReproduction(context, event.summary.seed, r)}`,
      ]
        .filter(Boolean)
        .join("\n");
      lines.push(
        `::error file=${file},title=${escapeProperty(`adapter contract: ${r.case.id}`)}::${escapeData(message)}`,
      );
    }
    for (const w of r.warnings)
      lines.push(`::warning file=${file},title=${escapeProperty(`adapter contract: ${r.case.id}`)}::${escapeData(w)}`);
  }
  for (const cap of event.summary.unmetRequirements) {
    lines.push(
      `::error file=${file},title=${escapeProperty(`required capability: ${cap.name}`)}::${escapeData(`missing ${cap.missing.join(", ")}`)}`,
    );
  }
  const explored = event.summary.exploration;
  if (explored?.failure) {
    const f = explored.failure;
    const message = [
      f.message,
      f.expected !== undefined ? `expected: ${f.expected}` : "",
      f.received !== undefined ? `received: ${f.received}` : "",
      ...f.steps.map((step, i) => `${i + 1}. ${step}`),
      `replay: ${f.replay}`,
    ].filter(Boolean);
    lines.push(`::error file=${file},title=adapter contract: exploration::${escapeData(message.join("\n"))}`);
  }
  for (const w of explored?.warnings ?? [])
    lines.push(`::warning file=${file},title=adapter contract: exploration::${escapeData(w)}`);
  const problems = runProblems(event.summary);
  for (const problem of problems.failures)
    lines.push(`::error file=${file},title=adapter contract run::${escapeData(problem)}`);
  for (const warning of problems.warnings)
    lines.push(`::warning file=${file},title=adapter contract run::${escapeData(warning)}`);
  for (const note of event.summary.notes)
    lines.push(`::notice file=${file},title=adapter contract note::${escapeData(note)}`);
  const s = event.summary;
  lines.push(
    `::notice title=adapter contract::${escapeData(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.warnings} warnings (seed ${s.seed})`)}`,
  );
  return `${lines.join("\n")}\n`;
};
