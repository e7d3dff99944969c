/**
 * A contract case is data plus one small async function. Cases share no
 * state: each creates what it needs through the case context.
 */

import type { CaseContext } from "../access/context.js";
import type { AdapterMethod } from "./adapter.js";
import type { CapabilityName } from "./capabilities.js";

/** What reports need to know about a case: everything but its code. */
export interface CaseInfo {
  /** Stable id, e.g. `session.get.unknown-token-is-null`; used by --only/--skip. */
  id: string;
  title: string;
  /** Where the rule comes from in the spec, e.g. "§4.2". */
  section: string;
  /** Grouping in reports. */
  capability: CapabilityName | "flows";
  /** Methods the case calls; when one is absent the case is skipped (§4.2: all optional). */
  needs: AdapterMethod[];
}

export interface ContractCase extends CaseInfo {
  /**
   * The case lets real time pass (`t.later`): it starts before the other
   * cases, writes what it needs, and finishes after them and after the
   * exploration, so the waiting costs the run nothing it would not spend
   * anyway. The wait is no adapter call, so no time limit runs through it.
   */
  waits?: boolean;
  /**
   * The case belongs to a group of checks a run leaves out unless --only
   * (or `only` in create-auth/vitest) names it: checks for what some
   * services add to Auth.js rather than what it needs of every adapter.
   */
  optIn?: boolean;
  run(t: CaseContext): Promise<void>;
}

export function caseInfo({ id, title, section, capability, needs }: ContractCase): CaseInfo {
  return { id, title, section, capability, needs };
}

/** Identity function that gives case literals their type. */
export function defineCases(cases: ContractCase[]): ContractCase[] {
  return cases;
}

/** A group of cases runs only when named (see `optIn`). */
export function optInCases(cases: ContractCase[]): ContractCase[] {
  return cases.map((c) => ({ ...c, optIn: true }));
}
