/**
 * Every check doctor runs on the facts, one module per concern. Adding one is
 * writing its module (ids, severities, meanings, a pure run) and listing it
 * here; the database and --online checks, which need the network, are in
 * ../database.ts and ../online.ts.
 */

import type { ProjectFacts } from "../../doctor-model/facts.js";
import type { CheckDefinition, CheckGroup, Finding } from "../../doctor-model/finding.js";
import type { WiringDoctor } from "../../frameworks/framework.js";
import { frameworkModules } from "../../frameworks/registry.js";
import { databaseChecks } from "../database.js";
import { onlineChecks } from "../online.js";
import { advisoryChecks } from "./advisories.js";
import { configChecks } from "./config.js";
import { fileChecks } from "./files.js";
import { hostChecks } from "./host.js";
import { nameChecks } from "./names.js";
import { providerChecks } from "./providers.js";
import { secretChecks } from "./secret.js";
import { strategyChecks } from "./strategy.js";
import { upgradeChecks } from "./upgrade.js";

export const checkGroups: readonly CheckGroup[] = [
  configChecks,
  secretChecks,
  nameChecks,
  hostChecks,
  providerChecks,
  strategyChecks,
  fileChecks,
  upgradeChecks,
  advisoryChecks,
];

/** Every check's findings; the framework's wiring checks when its doctor part is given (gather loads it). */
export function runChecks(facts: ProjectFacts, wiring?: WiringDoctor): Finding[] {
  return [...checkGroups.flatMap((group) => group.run(facts)), ...(wiring?.run(facts) ?? [])];
}

/** Every id doctor can report, with its severity and meaning (the README's table), the frameworks' included. */
export async function allChecks(): Promise<CheckDefinition[]> {
  const wiring = await Promise.all(frameworkModules.map((f) => f.doctor.load()));
  return [
    ...checkGroups.flatMap((group) => group.checks),
    ...wiring.flatMap((w) => w.checks),
    ...databaseChecks,
    ...onlineChecks,
  ];
}
