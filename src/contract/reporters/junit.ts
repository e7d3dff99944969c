/** JUnit XML, the format CI test-report pages read. One suite per capability. */
import type { CaseResult } from "../run/runner.js";
import { capabilityTitle, caseReproduction, type ReporterFactory, runProblems } from "./reporter.js";

const escapeXml = (text: string) =>
  text
    .replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!)
    // XML 1.0 forbids most control characters even when escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(r: CaseResult, suite: string, reproduction: (r: CaseResult) => string): string {
  const open = `    <testcase name="${escapeXml(r.case.id)}" classname="${escapeXml(suite)}" time="${seconds(r.durationMs)}">`;
  const inner: string[] = [];
  if (r.status === "failed") {
    const details = [
      r.case.title,
      r.failure!.expected !== undefined ? `expected: ${r.failure!.expected}` : "",
      r.failure!.received !== undefined ? `received: ${r.failure!.received}` : "",
      `reproduce: ${reproduction(r)}`,
    ];
    inner.push(
      `      <failure message="${escapeXml(r.failure!.message)}" type="ContractFailure">${escapeXml(details.filter(Boolean).join("\n"))}</failure>`,
    );
  }
  if (r.status === "skipped") inner.push(`      <skipped message="${escapeXml(r.skipReason ?? "")}"/>`);
  if (r.warnings.length > 0)
    inner.push(`      <system-out>${escapeXml(r.warnings.map((w) => `warning: ${w}`).join("\n"))}</system-out>`);
  return [open, ...inner, "    </testcase>"].join("\n");
}

export const junitReporter: ReporterFactory = (context) => {
  const titles = new Map<string, string>();
  return (event) => {
    if (event.type === "run:start") for (const cap of event.capabilities) titles.set(cap.name, cap.title);
    if (event.type !== "run:end") return undefined;
    const { summary, results } = event;
    const groups = new Map<string, CaseResult[]>();
    for (const r of results) groups.set(r.case.capability, [...(groups.get(r.case.capability) ?? []), r]);
    const suites = [...groups].map(([capability, group]) => {
      const name = `${context.modulePath}: ${capabilityTitle(capability, titles)}`;
      const count = (s: string) => group.filter((r) => r.status === s).length;
      const time = seconds(group.reduce((t, r) => t + r.durationMs, 0));
      return [
        `  <testsuite name="${escapeXml(name)}" tests="${group.length}" failures="${count("failed")}" skipped="${count("skipped")}" errors="0" time="${time}">`,
        ...group.map((r) => testcase(r, name, (failed) => caseReproduction(context, summary.seed, failed))),
        "  </testsuite>",
      ].join("\n");
    });
    const requirementSuite = summary.unmetRequirements.length
      ? [
          `  <testsuite name="${escapeXml(`${context.modulePath}: required capabilities`)}" tests="${summary.unmetRequirements.length}" failures="${summary.unmetRequirements.length}" errors="0" skipped="0">`,
          ...summary.unmetRequirements.map(
            (cap) =>
              `    <testcase name="require.${cap.name}" classname="required capabilities"><failure message="${escapeXml(`missing ${cap.missing.join(", ")}`)}"/></testcase>`,
          ),
          "  </testsuite>",
        ]
      : [];
    // A run that stopped or a teardown that failed is an error of the run itself.
    const problems = runProblems(summary);
    const runSuite = problems.failures.length
      ? [
          `  <testsuite name="${escapeXml(`${context.modulePath}: the run`)}" tests="${problems.failures.length}" failures="0" errors="${problems.failures.length}" skipped="0">`,
          ...problems.failures.map(
            (problem, i) =>
              `    <testcase name="run.${i + 1}" classname="the run"><error message="${escapeXml(problem)}"/></testcase>`,
          ),
          "  </testsuite>",
        ]
      : [];
    const explored = summary.exploration;
    const exploreSuite = explored
      ? [
          `  <testsuite name="${escapeXml(`${context.modulePath}: exploration`)}" tests="1" failures="${explored.failure ? 1 : 0}" errors="0" skipped="0" time="${seconds(explored.durationMs)}">`,
          `    <testcase name="explore" classname="exploration" time="${seconds(explored.durationMs)}">`,
          ...(explored.failure
            ? [
                `      <failure message="${escapeXml(explored.failure.message)}" type="ContractFailure">${escapeXml(
                  [...explored.failure.steps.map((step, i) => `${i + 1}. ${step}`), "", explored.failure.snippet].join(
                    "\n",
                  ),
                )}</failure>`,
              ]
            : []),
          "    </testcase>",
          "  </testsuite>",
        ]
      : [];
    const failures = summary.failed + summary.unmetRequirements.length + (explored?.failure ? 1 : 0);
    const tests = results.length + summary.unmetRequirements.length + problems.failures.length + (explored ? 1 : 0);
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="create-auth verify-adapter" tests="${tests}" failures="${failures}" skipped="${summary.skipped}" errors="${problems.failures.length}" time="${seconds(summary.durationMs)}">`,
      ...suites,
      ...requirementSuite,
      ...exploreSuite,
      ...runSuite,
      "</testsuites>",
      "",
    ].join("\n");
  };
};
