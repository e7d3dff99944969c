/**
 * The package.json edits that keep an install clear of the known advisories:
 * raises of the project's own entries, and each package manager's override
 * of a copy another package pins.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import {
  applyOverrides,
  applyRaises,
  describeSecurity,
  type OverrideManager,
  planSecurity,
} from "../../src/render/package-security.js";
import { copiesFromPackageLock, type ResolvedCopy } from "../../src/workspace/lockfile-readers.js";
import { fixture } from "../helpers.js";

const copy = (name: string, version: string, more: Partial<ResolvedCopy> = {}): ResolvedCopy => ({
  name,
  version,
  dependents: [],
  direct: false,
  ...more,
});

describe("overrides of a pinned copy, per package manager", () => {
  const fields: [OverrideManager, string[]][] = [
    ["npm", ["overrides"]],
    ["bun", ["overrides"]],
    ["pnpm", ["pnpm", "overrides"]],
    ["yarn", ["resolutions"]],
  ];
  it.each(fields)(
    "%s: @auth/qwik's pinned @auth/core overridden with the spec the project's entry gets",
    (manager, path) => {
      const text = '{\n  "name": "app",\n  "dependencies": {\n    "@builder.io/qwik": "1.20.1"\n  }\n}\n';
      const plan = planSecurity({ pkg: JSON.parse(text), copies: [], adding: ["@auth/core", "@auth/qwik"], manager });
      expect(plan.raises).toEqual([]);
      expect(plan.overrides).toEqual([
        {
          name: "@auth/core",
          spec: dependencyVersions["@auth/core"],
          pinnedBy: ["@auth/qwik@0.9.1"],
          pinned: ["0.41.1"],
          ids: ["GHSA-7rqj-j65f-68wh", "GHSA-xmf8-cvqr-rfgj", "GHSA-x445-f3h2-j279"],
        },
      ]);
      const after = applyOverrides(text, plan, manager);
      const json = JSON.parse(after);
      expect(path.reduce((at, key) => at[key], json)).toEqual({ "@auth/core": "^0.41.3" });
      // Every other byte: the edit only appends.
      expect(
        after.startsWith('{\n  "name": "app",\n  "dependencies": {\n    "@builder.io/qwik": "1.20.1"\n  },\n'),
      ).toBe(true);
      expect(describeSecurity(plan, manager)[0]).toBe(
        `package.json: ${path.join(".")} sets @auth/core to "^0.41.3" (@auth/qwik@0.9.1 pins @auth/core 0.41.1, which has GHSA-7rqj-j65f-68wh, GHSA-xmf8-cvqr-rfgj, GHSA-x445-f3h2-j279)`,
      );
    },
  );

  it("a lockfile's pinned copy: the project's affected pin raised, the override equal to it (npm's EOVERRIDE rule)", () => {
    const pkg = JSON.parse(readFileSync(fixture("lockfiles", "npm", "package.json"), "utf8"));
    const copies = copiesFromPackageLock(readFileSync(fixture("lockfiles", "npm", "package-lock.json"), "utf8"), [
      "@auth/core",
    ]);
    const plan = planSecurity({ pkg, copies, manager: "npm" });
    expect(plan.raises).toMatchObject([{ section: "dependencies", name: "@auth/core", from: "0.41.2", to: "0.41.3" }]);
    expect(plan.overrides).toMatchObject([{ name: "@auth/core", spec: "0.41.3", pinned: ["0.41.1"] }]);
    const text = applyOverrides(applyRaises(JSON.stringify(pkg, null, 2), plan), plan, "npm");
    expect(JSON.parse(text)).toMatchObject({
      dependencies: { "@auth/core": "0.41.3", "@auth/qwik": "0.9.1" },
      overrides: { "@auth/core": "0.41.3" },
    });
  });

  it("a copy pinned only by a package the plan raises moves with it: no override", () => {
    const plan = planSecurity({
      pkg: { dependencies: { "next-auth": "5.0.0-beta.29" } },
      copies: [
        copy("next-auth", "5.0.0-beta.29", { direct: true }),
        copy("@auth/core", "0.41.0", { dependents: ["next-auth@5.0.0-beta.29"] }),
      ],
      manager: "npm",
    });
    expect(plan.raises).toMatchObject([{ name: "next-auth", to: "5.0.0-beta.32" }]);
    expect(plan.overrides).toEqual([]);
  });

  it("a spec naming no version is referenced ($name) where npm and pnpm allow it, else the fixed range", () => {
    const pkg = { dependencies: { "@auth/core": "latest", "@auth/qwik": "0.9.1" } };
    expect(planSecurity({ pkg, copies: [], manager: "npm" }).overrides[0]?.spec).toBe("$@auth/core");
    expect(planSecurity({ pkg, copies: [], manager: "pnpm" }).overrides[0]?.spec).toBe("$@auth/core");
    expect(planSecurity({ pkg, copies: [], manager: "yarn" }).overrides[0]?.spec).toBe("^0.41.3");
  });

  it("keeps the user's override that already resolves a fixed version; an object override is left to them", () => {
    const pinned = [copy("@auth/core", "0.41.1", { dependents: ["@auth/qwik@0.9.1"] })];
    const kept = planSecurity({ pkg: { resolutions: { "@auth/core": "0.41.3" } }, copies: pinned, manager: "yarn" });
    expect(kept.overrides).toEqual([]);
    const forced = planSecurity({ pkg: { overrides: { "@auth/core": "0.41.1" } }, copies: [], manager: "npm" });
    expect(forced.overrides).toMatchObject([{ name: "@auth/core", spec: "^0.41.3" }]);
    const nested = planSecurity({
      pkg: { overrides: { "@auth/core": { ".": "0.41.1" } } },
      copies: pinned,
      manager: "npm",
    });
    expect(nested.overrides).toEqual([]);
    expect(nested.manual.overrides[0]).toMatch(
      /^overrides sets @auth\/core with an object; make it resolve @auth\/core 0\.41\.3/,
    );
  });
});

describe("raising the project's own entries within their major", () => {
  it("next-auth v4: a range whose locked copy is affected moves its floor, the operator kept", () => {
    const plan = planSecurity({
      pkg: { dependencies: { "next-auth": "^4.24.5" } },
      copies: [copy("next-auth", "4.24.11", { direct: true })],
      manager: "npm",
    });
    expect(plan.raises).toEqual([
      {
        section: "dependencies",
        name: "next-auth",
        from: "^4.24.5",
        to: "^4.24.15",
        ids: ["GHSA-7rqj-j65f-68wh", "GHSA-xmf8-cvqr-rfgj", "GHSA-x445-f3h2-j279"],
      },
    ]);
    expect(applyRaises('{"dependencies":{"next-auth":"^4.24.5"}}', plan)).toBe(
      '{"dependencies":{"next-auth":"^4.24.15"}}',
    );
  });

  it("an exact pin is raised to the fixed release; v5 betas move to the fixed beta", () => {
    const v5 = planSecurity({ pkg: { devDependencies: { "next-auth": "5.0.0-beta.29" } }, copies: [], manager: "npm" });
    expect(v5.raises).toMatchObject([{ section: "devDependencies", from: "5.0.0-beta.29", to: "5.0.0-beta.32" }]);
    expect(v5.raises[0]!.ids).toContain("GHSA-8fpg-xm3f-6cx3");
  });

  it("a range with nothing resolved yet installs the newest release: left as it is", () => {
    expect(planSecurity({ pkg: { dependencies: { "next-auth": "^4.24.5" } }, copies: [], manager: "npm" })).toEqual({
      raises: [],
      overrides: [],
      manual: { raises: [], overrides: [] },
    });
  });

  it("no fix within the major, or a spec it cannot raise: the user's to do, nothing changed", () => {
    const v3 = planSecurity({ pkg: { dependencies: { "next-auth": "3.29.10" } }, copies: [], manager: "npm" });
    expect(v3.raises).toEqual([]);
    expect(v3.manual.raises).toEqual([
      'next-auth "3.29.10": no release of its major fixes GHSA-x445-f3h2-j279; move it to a supported major.',
    ]);
    const odd = planSecurity({
      pkg: { dependencies: { "next-auth": "^4.20.0 || ^5.0.0-beta.1" } },
      copies: [copy("next-auth", "4.24.11", { direct: true })],
      manager: "npm",
    });
    expect(odd.manual.raises).toEqual([
      'next-auth "^4.20.0 || ^5.0.0-beta.1" (dependencies): make it 4.24.15 or later (GHSA-7rqj-j65f-68wh, GHSA-xmf8-cvqr-rfgj, GHSA-x445-f3h2-j279).',
    ]);
  });

  it("a locked copy of another major is stale, and a floor above the fix stays: nothing lowered", () => {
    const moved = planSecurity({
      pkg: { dependencies: { "next-auth": "5.0.0-beta.32" } },
      copies: [copy("next-auth", "4.24.11", { direct: true })],
      manager: "npm",
    });
    expect(moved.raises).toEqual([]);
    const above = planSecurity({
      pkg: { dependencies: { "@auth/core": "^0.41.3" } },
      copies: [copy("@auth/core", "0.41.1", { direct: true })],
      manager: "npm",
    });
    expect(above.raises).toEqual([]);
  });

  it("npm: the user's override of an entry that moved follows it (npm refuses the two differing)", () => {
    const plan = planSecurity({
      pkg: { dependencies: { "@auth/core": "0.41.1" }, overrides: { "@auth/core": "0.41.1" } },
      copies: [],
      manager: "npm",
    });
    expect(plan.raises).toMatchObject([{ to: "0.41.3" }]);
    expect(plan.overrides).toMatchObject([{ name: "@auth/core", spec: "0.41.3" }]);
  });
});
