/**
 * What doctor reports: findings with a stable id, and the checks that make
 * them. A check is pure: it reads the ProjectFacts the planner gathered and
 * returns findings, so each is tested without a project on disk.
 */
import type { ProjectFacts } from "./facts.js";

export const severities = ["error", "warning", "info"] as const;
export type Severity = (typeof severities)[number];

/**
 * What an error costs: sign-in fails ("sign-in"), or sign-in works but is
 * open to attack or exposes a secret ("security"). Only the first is
 * reported as breaking sign-in.
 */
export type Concern = "sign-in" | "security";

export interface Finding {
  /** Stable: scripts and the README key on it. */
  id: string;
  severity: Severity;
  /** Present on security problems: sign-in works, but is exposed. */
  security?: true;
  /** One line: what is wrong. Never holds a secret value. */
  message: string;
  /** What to do: a command, a line to add, or a link to the Auth.js docs. */
  fix: string;
  /** The file it is about, relative to the project. */
  file?: string;
}

export interface CheckDefinition {
  id: string;
  severity: Severity;
  /** The README's one-line meaning of the id. */
  meaning: string;
  concern: Concern;
}

/** A group of related checks (one module): their ids and one pure function that returns their findings. */
export interface CheckGroup {
  checks: readonly CheckDefinition[];
  run(facts: ProjectFacts): Finding[];
}

/** Declares a check; `report` makes its findings with the id, severity and concern filled in. */
export function defineCheck(id: string, severity: Severity, meaning: string, concern: Concern = "sign-in") {
  const definition: CheckDefinition = { id, severity, meaning, concern };
  return Object.assign(definition, {
    report: (message: string, fix: string, file?: string): Finding => ({
      id,
      severity,
      ...(concern === "security" ? { security: true as const } : {}),
      message,
      fix,
      ...(file === undefined ? {} : { file }),
    }),
  });
}

const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then advice; by id within each. */
export const bySeverity = (a: Finding, b: Finding) => order[a.severity] - order[b.severity] || a.id.localeCompare(b.id);
