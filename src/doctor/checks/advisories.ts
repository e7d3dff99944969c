/**
 * Known advisories (src/catalog/advisories.data.ts) against the versions the
 * project resolves: its lockfile's copies of next-auth and @auth/core, its
 * own and the ones its packages pin. One check per advisory; a critical one
 * is an error, a high or moderate one a warning. Security problems: sign-in
 * works, an attacker gets further than they should.
 */
import { type Advisory, type AdvisorySeverity, advisories } from "../../catalog/advisories.js";
import type { ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding, type Severity } from "../../doctor-model/finding.js";
import { inRange } from "../../lib/semver.js";
import type { ResolvedCopy } from "../../workspace/lockfile-copies.js";

const severityOf: Record<AdvisorySeverity, Severity> = {
  critical: "error",
  high: "warning",
  moderate: "warning",
  low: "info",
};

const packagesOf = (advisory: Advisory) => [...new Set(advisory.rows.map((r) => r.package))];

const checks = advisories.map((advisory) =>
  defineCheck(
    `advisory.${advisory.id}`,
    severityOf[advisory.severity],
    `${packagesOf(advisory).join(" or ")} at a version with ${advisory.id} (${advisory.severity}): ${advisory.impact}.`,
    "security",
  ),
);

const affects = (advisory: Advisory, copy: ResolvedCopy) =>
  advisory.rows.some((r) => r.package === copy.name && inRange(copy.version, r.affected));

const describe = (copy: ResolvedCopy) =>
  `${copy.name} ${copy.version}${copy.dependents.length ? ` (pinned by ${copy.dependents.join(", ")})` : ""}`;

/** The fixed releases of the affected copies' lines: "next-auth 4.24.15". */
function fixedReleases(advisory: Advisory, copies: ResolvedCopy[]): string {
  const fixed = copies.flatMap((c) =>
    advisory.rows
      .filter((r) => r.package === c.name && inRange(c.version, r.affected))
      .map((r) => `${c.name} ${r.fixed}`),
  );
  return [...new Set(fixed)].join(", ");
}

function advisoryFindings(facts: ProjectFacts): Finding[] {
  const { copies, changes, manual, manager, source } = facts.advisories;
  const install = `\`${manager} install\``;
  const found: Finding[] = [];
  advisories.forEach((advisory, i) => {
    const affected = copies.filter((c) => affects(advisory, c));
    if (!affected.length) return;
    const fixedIn = fixedReleases(advisory, affected);
    const fix = changes.length
      ? `Fixed in ${fixedIn}: \`create-auth doctor --fix\` sets ${changes.join(", ")} in package.json, then run ${install}.`
      : manual.length
        ? `Fixed in ${fixedIn}: ${manual.join(" ")}`
        : `Fixed in ${fixedIn}, which package.json already asks for: ${install} moves the lockfile there.`;
    found.push(
      checks[i]!.report(
        `${affected.map(describe).join(" and ")} ${affected.length === 1 ? "has" : "have"} ${advisory.id} (${advisory.severity}): ${advisory.impact}.`,
        `${fix} https://github.com/advisories/${advisory.id}`,
        source,
      ),
    );
  });
  return found;
}

export const advisoryChecks: CheckGroup = { checks, run: advisoryFindings };
