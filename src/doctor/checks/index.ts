/**
 * Every check doctor runs on the facts, one module per concern. Adding one is
 * writing its module (ids, severities, meanings, a pure run) and listing it
 * here; the database and --online checks, which need the network, are in
 * ../database.ts and ../online.ts.
 */
import type { ProjectFacts } from "../facts.js";
import type { CheckGroup, Finding } from "../finding.js";
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
