/**
 * doctor's output: plain text grouped by severity (colour only on a terminal
 * that wants it), or the documented JSON shape. Every text shown passes
 * through `printable`, and any secret value that slipped into one is hidden.
 */
import kleur from "kleur";
import { type Finding, type Severity, severities } from "../doctor-model/finding.js";
import { printable } from "../lib/errors.js";

export interface DoctorReport {
  /** Bumped when the shape changes incompatibly. */
  version: 1;
  project: { dir: string; framework: string; config: string };
  findings: Finding[];
  /** With --fix: what was changed, one line each. */
  fixed?: string[];
  summary: { errors: number; warnings: number; info: number };
}

export function summarize(findings: Finding[]): DoctorReport["summary"] {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return { errors: count("error"), warnings: count("warning"), info: count("info") };
}

/** Replaces each secret value in `text` with <hidden>; the longest first, so no part of one survives. */
export function hideSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of [...secrets].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length))
    out = out.split(secret).join("<hidden>");
  return out;
}

const headings: Record<Severity, string> = { error: "Errors", warning: "Warnings", info: "Info" };
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function renderText(report: DoctorReport, color: boolean): string {
  const c = kleur;
  c.enabled = color;
  const paint: Record<Severity, (s: string) => string> = { error: c.red, warning: c.yellow, info: c.cyan };
  const mark: Record<Severity, string> = { error: "✖", warning: "!", info: "i" };
  const lines = [
    c.bold(`create-auth doctor ${printable(report.project.dir)}`) +
      c.dim(` (${report.project.framework}, config ${printable(report.project.config)})`),
  ];
  if (report.fixed?.length) {
    lines.push("", c.bold("Fixed"));
    for (const line of report.fixed) lines.push(`  ${c.green("✓")} ${printable(line)}`);
  } else if (report.fixed) lines.push("", "Nothing to fix safely.");
  for (const severity of severities) {
    const group = report.findings.filter((f) => f.severity === severity);
    if (!group.length) continue;
    lines.push("", c.bold(paint[severity](`${headings[severity]} (${group.length})`)));
    for (const finding of group) {
      const tag = finding.security ? c.dim(" (security)") : "";
      lines.push(`  ${paint[severity](mark[severity])} ${c.bold(finding.id)}${tag}  ${printable(finding.message)}`);
      if (finding.file) lines.push(c.dim(`    in ${printable(finding.file)}`));
      lines.push(`    fix: ${printable(finding.fix)}`);
    }
  }
  const { errors, warnings, info } = report.summary;
  lines.push(
    "",
    errors || warnings || info
      ? `${plural(errors, "error")}, ${plural(warnings, "warning")}, ${info} info.${errorsCost(report.findings)}`
      : "No problems found.",
  );
  return `${lines.join("\n")}\n`;
}

/** What the errors cost, in the summary line: only the ones that do break sign-in say so. */
function errorsCost(findings: Finding[]): string {
  const errors = findings.filter((f) => f.severity === "error");
  const exposed = errors.filter((f) => f.security).length;
  const breaking = errors.length - exposed;
  const problems = (n: number) => (n === 1 ? "1 is a security problem" : `${n} are security problems`);
  if (breaking && !exposed) return " Sign-in will break until the errors are fixed.";
  if (breaking)
    return ` Sign-in will break until ${breaking === 1 ? "1 of them is" : `${breaking} of them are`} fixed; ${problems(exposed)}.`;
  if (exposed)
    return ` ${exposed === 1 ? "The error is a security problem" : "The errors are security problems"}: sign-in works, but stays exposed until ${exposed === 1 ? "it is" : "they are"} fixed.`;
  return "";
}

export function renderJson(report: DoctorReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
