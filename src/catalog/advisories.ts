/**
 * Questions asked of the advisory table (advisories.data.ts): which
 * advisories a version of a package has, and the version within its major
 * that has none of them.
 */
import { compareVersions, inRange, parseVersion } from "../lib/semver.js";
import { type AdvisoryRow, type AdvisorySeverity, advisoryRows } from "./advisories.data.js";

export type { AdvisorySeverity };

export interface Advisory {
  id: string;
  severity: AdvisorySeverity;
  impact: string;
  rows: AdvisoryRow[];
}

/** The table grouped by advisory, in its order. */
export const advisories: readonly Advisory[] = [...new Set(advisoryRows.map((r) => r.id))].map((id) => {
  const rows = advisoryRows.filter((r) => r.id === id);
  return { id, severity: rows[0]!.severity, impact: rows[0]!.impact, rows };
});

/** The packages the table names. */
export const advisoryPackages: readonly string[] = [...new Set(advisoryRows.map((r) => r.package))];

/** The rows whose range holds `version` of `name`. */
export function rowsAffecting(name: string, version: string): AdvisoryRow[] {
  return advisoryRows.filter((r) => r.package === name && inRange(version, r.affected));
}

export const isAffected = (name: string, version: string) => rowsAffecting(name, version).length > 0;

/**
 * The first version of the same major that no advisory affects, when
 * `version` is affected: each affecting row's fix, the highest taken, until
 * none applies. Undefined when `version` is not affected, or when the fix
 * lies in another major (no fix within it).
 */
export function fixedVersion(name: string, version: string): string | undefined {
  const major = parseVersion(version)?.major;
  if (major === undefined) return undefined;
  let current = version;
  for (let rows = rowsAffecting(name, current); rows.length; rows = rowsAffecting(name, current)) {
    const next = rows
      .map((r) => r.fixed)
      .sort(compareVersions)
      .at(-1)!;
    if (parseVersion(next)?.major !== major || compareVersions(next, current) <= 0) return undefined;
    current = next;
  }
  return current === version ? undefined : current;
}
