/** The default reporter: for people reading a terminal or a CI log. */
import kleur from "kleur";
import type { CaseResult, RunEvent, RunSummary } from "../run/runner.js";
import { capabilityTitle, caseReproduction, inert, plural, type ReporterFactory, runProblems } from "./reporter.js";

export const prettyReporter: ReporterFactory = (context) => {
  const c = kleur;
  c.enabled = context.color;
  const titles = new Map<string, string>();
  let total = 0;
  let done = 0;

  const mark = (result: CaseResult) =>
    result.status === "passed"
      ? result.warnings.length
        ? c.yellow("!")
        : c.green("✓")
      : result.status === "failed"
        ? c.red("✗")
        : c.dim("-");

  function header(event: Extract<RunEvent, { type: "run:start" }>): string {
    total = event.cases.length;
    const lines = [
      c.bold(`create-auth verify-adapter ${context.modulePath}`) + c.dim(` (export ${context.exportName})`),
      c.dim(`seed ${event.seed} · ${plural(total, "case")}`),
      "",
      "Capabilities",
    ];
    for (const cap of event.capabilities) {
      titles.set(cap.name, cap.title);
      const required = event.required.includes(cap.name);
      if (cap.supported) lines.push(`  ${c.green("✓")} ${cap.title}`);
      else {
        const tag = required ? c.red("✗") : c.yellow("○");
        lines.push(
          `  ${tag} ${cap.title} ${c.dim(`— not supported, missing: ${cap.missing.join(", ")}`)}${required ? c.red(" (required)") : ""}`,
        );
      }
    }
    return `${lines.join("\n")}\n`;
  }

  function body(results: CaseResult[]): string[] {
    const groups = new Map<string, CaseResult[]>();
    for (const r of results) groups.set(r.case.capability, [...(groups.get(r.case.capability) ?? []), r]);
    const lines: string[] = [];
    for (const [capability, group] of groups) {
      lines.push("", c.bold(capabilityTitle(capability, titles)));
      for (const r of group) {
        const note = r.status === "skipped" ? c.dim(` (skipped: ${r.skipReason})`) : "";
        lines.push(`  ${mark(r)} ${r.case.id} ${c.dim(r.case.title)}${note}`);
      }
    }
    return lines;
  }

  function failures(results: CaseResult[], seed: number): string[] {
    const failed = results.filter((r) => r.status === "failed");
    const lines: string[] = [];
    if (failed.length > 0) lines.push("", c.red().bold("Failures"));
    failed.forEach((r, i) => {
      lines.push(
        "",
        `  ${i + 1}) ${c.bold(r.case.id)}`,
        `     ${r.case.title}`,
        `     ${c.red(inert(r.failure!.message))}`,
      );
      if (r.failure!.expected !== undefined) lines.push(`     expected: ${c.green(inert(r.failure!.expected))}`);
      if (r.failure!.received !== undefined) lines.push(`     received: ${c.red(inert(r.failure!.received))}`);
      lines.push(`     reproduce: ${inert(caseReproduction(context, seed, r))}`);
    });
    const warned = results.filter((r) => r.warnings.length > 0);
    if (warned.length > 0) lines.push("", c.yellow().bold("Warnings"));
    for (const r of warned) for (const w of r.warnings) lines.push(`  ${c.yellow("!")} ${r.case.id}: ${inert(w)}`);
    return lines;
  }

  function exploration(summary: RunSummary): string[] {
    const run = summary.exploration;
    if (!run) return [];
    const what = `${plural(run.runs, "random sequence")}, ${plural(run.steps, "step")}, ${(run.durationMs / 1000).toFixed(1)} s`;
    const lines = ["", `${c.bold("Exploration")} ${c.dim(`(${what})`)}`];
    const f = run.failure;
    if (!f) lines.push(`  ${c.green("✓")} the adapter agreed with the model of the contract at every step`);
    else {
      lines.push(`  ${c.red("✗")} ${c.red(inert(f.message))}`);
      if (f.expected !== undefined) lines.push(`     expected: ${c.green(inert(f.expected))}`);
      if (f.received !== undefined) lines.push(`     received: ${c.red(inert(f.received))}`);
      lines.push("     the smallest sequence that shows it:");
      for (const [i, step] of f.steps.entries()) lines.push(`       ${i + 1}. ${inert(step)}`);
      lines.push("     reproduce it with this script:");
      for (const line of f.snippet.split("\n")) lines.push(`       ${c.dim(inert(line))}`);
      lines.push(`     replay: create-auth verify-adapter ${context.modulePath} ${f.replay}`);
    }
    for (const w of run.warnings) lines.push(`  ${c.yellow("!")} ${inert(w)}`);
    return lines;
  }

  return (event) => {
    switch (event.type) {
      case "run:start":
        return header(event);
      case "case:end":
        done++;
        return context.interactive
          ? `\r${c.dim(`  running ${done}/${total}`)}${done === total ? "\r\u001b[K" : ""}`
          : undefined;
      case "run:again":
        done = 0;
        return context.interactive
          ? `\r\u001b[K${c.dim("  a call never settled: running again, one call at a time")}`
          : undefined;
      case "exploration:progress":
        return context.interactive
          ? `\r\u001b[K${c.dim(`  exploring ${event.runs}${event.of ? `/${event.of}` : ""} sequences, ${event.steps} steps`)}`
          : undefined;
      case "run:end": {
        const { summary, results } = event;
        const counts = [
          summary.failed ? c.red(`${summary.failed} failed`) : "0 failed",
          c.green(`${summary.passed} passed`),
          `${summary.skipped} skipped`,
          summary.warnings ? c.yellow(plural(summary.warnings, "warning")) : "0 warnings",
        ];
        if (summary.exploration)
          counts.push(summary.exploration.ok ? c.green("exploration passed") : c.red("exploration failed"));
        const lines = [...body(results), ...failures(results, summary.seed), ...exploration(summary), ""];
        // A progress line may still be on screen.
        if (context.interactive) lines[0] = `\r\u001b[K${lines[0] ?? ""}`;
        const problems = runProblems(summary);
        for (const problem of problems.failures) lines.push(c.red(`✗ ${inert(problem)}`));
        for (const warning of problems.warnings) lines.push(`${c.yellow("!")} ${inert(warning)}`);
        for (const note of summary.notes) lines.push(`${c.cyan("note")} ${note}`);
        for (const cap of summary.unmetRequirements)
          lines.push(
            c.red(
              `✗ required capability "${cap.name}" (${cap.title}) is not supported: missing ${cap.missing.join(", ")}`,
            ),
          );
        const verdict = summary.ok ? c.green().bold("PASS") : c.red().bold("FAIL");
        lines.push(
          `${verdict} ${plural(results.length, "case")}: ${counts.join(", ")} ${c.dim(`(${Math.round(summary.durationMs)} ms)`)}`,
        );
        lines.push(c.dim(`Rerun with the same data: --seed ${summary.seed}`));
        return `${lines.join("\n")}\n`;
      }
      default:
        return undefined;
    }
  };
};
