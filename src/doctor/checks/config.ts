/** The config itself: doctor must be able to read it for the other checks to mean anything. */
import type { ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";

const unreadable = defineCheck(
  "config.unreadable",
  "warning",
  "The auth config has a syntax error or no config object doctor recognises; the checks that read it were skipped.",
);

function configFindings(facts: ProjectFacts): Finding[] {
  const { config } = facts;
  if (config.syntaxError)
    return [
      unreadable.report(
        `${config.file} does not parse (${config.syntaxError}); provider and strategy checks were skipped.`,
        "Fix the syntax error (your editor or `npx tsc --noEmit` shows it), then run doctor again.",
        config.file,
      ),
    ];
  if (!config.found)
    return [
      unreadable.report(
        `No Auth.js config object (NextAuth({...}), SvelteKitAuth({...}) or an object with providers) was found in ${config.file}; provider and strategy checks were skipped.`,
        "Pass the file that holds the config with --config.",
        config.file,
      ),
    ];
  return [];
}

export const configChecks: CheckGroup = { checks: [unreadable], run: configFindings };
