// The advisory table is data: every range must parse and every fix lie outside its range, or doctor misjudges.
import { describe, expect, it } from "vitest";
import { advisoryRows } from "../../src/catalog/advisories.data.js";
import { advisories, fixedVersion, isAffected, rowsAffecting } from "../../src/catalog/advisories.js";
import { dependencyVersions, pinnedDependencies } from "../../src/catalog/dependencies.js";
import { compareVersions, inRange, parseRange, parseVersion, specFloor } from "../../src/lib/semver.js";

describe("the advisory table", () => {
  it("parses every range; each fix is a version of the range's major, above it and outside it", () => {
    expect(advisoryRows.length).toBeGreaterThan(0);
    for (const row of advisoryRows) {
      const label = `${row.id} ${row.package} ${row.affected}`;
      expect(() => parseRange(row.affected), label).not.toThrow();
      expect(parseVersion(row.fixed), label).toBeDefined();
      expect(inRange(row.fixed, row.affected), label).toBe(false);
      const upper = parseRange(row.affected).find((c) => c.op === "<" || c.op === "<=");
      expect(upper, `${label}: an open-ended range would flag every later version`).toBeDefined();
      expect(compareVersions(row.fixed, upper!.version), label).toBeGreaterThanOrEqual(upper!.op === "<" ? 0 : 1);
      expect(parseVersion(row.fixed)!.major, label).toBe(upper!.version.major);
      expect(row.id, label).toMatch(/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/);
      expect(["critical", "high", "moderate", "low"]).toContain(row.severity);
      expect(row.impact, label).not.toMatch(/\n/);
    }
  });

  it("gives one severity and one impact per advisory", () => {
    for (const advisory of advisories)
      for (const row of advisory.rows) expect([row.severity, row.impact]).toEqual([advisory.severity, advisory.impact]);
  });

  it("answers which advisories a version has and its fix within the major", () => {
    expect(rowsAffecting("next-auth", "4.24.11").map((r) => r.id)).toEqual([
      "GHSA-7rqj-j65f-68wh",
      "GHSA-xmf8-cvqr-rfgj",
      "GHSA-x445-f3h2-j279",
    ]);
    expect(rowsAffecting("next-auth", "5.0.0-beta.29").map((r) => r.id)).toContain("GHSA-8fpg-xm3f-6cx3");
    expect(fixedVersion("next-auth", "4.24.11")).toBe("4.24.15");
    expect(fixedVersion("next-auth", "5.0.0-beta.29")).toBe("5.0.0-beta.32");
    expect(fixedVersion("@auth/core", "0.41.1")).toBe("0.41.3");
    expect(fixedVersion("next-auth", "4.24.15")).toBeUndefined();
    expect(isAffected("next-auth", "4.24.15")).toBe(false);
    // v3 has no fixed release in its major.
    expect(isAffected("next-auth", "3.29.10")).toBe(true);
    expect(fixedVersion("next-auth", "3.29.10")).toBeUndefined();
  });

  it("the catalog installs no affected version: its floors, and what its exact pins depend on, are flagged", () => {
    for (const [name, spec] of Object.entries(dependencyVersions)) {
      const floor = specFloor(spec);
      if (floor) expect(isAffected(name, floor), `${name}@${spec}`).toBe(false);
    }
    for (const [name, entry] of Object.entries(pinnedDependencies)) {
      // An exact catalog version, so that what it pins is known; a bump of the catalog revisits the entry.
      expect(dependencyVersions[name as keyof typeof dependencyVersions], name).toBe(entry!.version);
      for (const [pinned, version] of Object.entries(entry!.pins)) expect(parseVersion(version), pinned).toBeDefined();
    }
  });
});
