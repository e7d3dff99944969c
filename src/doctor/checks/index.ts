/**
 * Every check doctor runs on the facts, one module per concern. Adding one is
 * writing its module (ids, severities, meanings, a pure run) and listing it
 * here; the database and --online checks, which need the network, are in
 * ../database.ts and ../online.ts.
 */
import { databaseChecks } from "../database.js";
import type { ProjectFacts } from "../facts.js";
import type { CheckDefinition, CheckGroup, Finding } from "../finding.js";
import { onlineChecks } from "../online.js";
import { configChecks } from "./config.js";
import { fileChecks } from "./files.js";
import { hostChecks } from "./host.js";
import { nameChecks } from "./names.js";
import { providerChecks } from "./providers.js";
import { secretChecks } from "./secret.js";
import { strategyChecks } from "./strategy.js";
import { wiringChecks } from "./wiring.js";

export const checkGroups: readonly CheckGroup[] = [
  configChecks,
  secretChecks,
  nameChecks,
  hostChecks,
  providerChecks,
  strategyChecks,
  wiringChecks,
  fileChecks,
];

export function runChecks(facts: ProjectFacts): Finding[] {
  return checkGroups.flatMap((group) => group.run(facts));
}

/** Every id doctor can report, with its severity and meaning (the README's table). */
export const allChecks: readonly CheckDefinition[] = [
  ...checkGroups.flatMap((group) => group.checks),
  ...databaseChecks,
  ...onlineChecks,
];
