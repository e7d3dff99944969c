/**
 * No version with a known advisory in a project's install: the project's
 * own entries of an affected package raised within their major (an exact
 * pin stays exact, a caret a caret), and a copy another package pins exactly
 * (@auth/qwik 0.9.1's @auth/core 0.41.1) replaced through the package
 * manager's override: npm's and bun's `overrides`, pnpm's `pnpm.overrides`,
 * yarn's `resolutions`. Pure: package.json parsed in, the plan out, then
 * applied as text edits that keep every other byte.
 */
import { advisoryPackages, fixedVersion, isAffected, rowsAffecting } from "../catalog/advisories.js";
import { dependencyVersions, pinnedDependencies } from "../catalog/dependencies.js";
import { compareVersions, parseVersion, raiseSpec, specFloor } from "../lib/semver.js";
import { setJsonMember } from "./json-text.js";

/** One installed copy of a package, as the lockfile resolves it (src/workspace/lockfile-readers.ts reads them). */
export interface ResolvedCopy {
  name: string;
  version: string;
  /** The packages (name@version) whose dependency this copy is; empty when only the project depends on it. */
  dependents: string[];
  /** The project's own dependency resolves to this copy. */
  direct: boolean;
}

export type OverrideManager = "npm" | "pnpm" | "yarn" | "bun";

/** Where each manager reads its overrides: the workspace root's package.json, at this path. */
const overridePath: Record<OverrideManager, readonly string[]> = {
  npm: ["overrides"],
  bun: ["overrides"],
  pnpm: ["pnpm", "overrides"],
  yarn: ["resolutions"],
};

const installed = ["dependencies", "devDependencies", "optionalDependencies"] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

interface SpecRaise {
  section: string;
  name: string;
  from: string;
  to: string;
  /** The advisories the old spec let in. */
  ids: string[];
}

interface OverrideEntry {
  name: string;
  spec: string;
  /** The packages (name@version) pinning an affected copy; empty when the entry only follows a raised spec. */
  pinnedBy: string[];
  /** The affected versions pinned, and their advisories. */
  pinned: string[];
  ids: string[];
}

export interface SecurityPlan {
  raises: SpecRaise[];
  overrides: OverrideEntry[];
  /** What cannot be moved safely, one line each: the user's to do (an entry to raise, an override to set). */
  manual: { raises: string[]; overrides: string[] };
}

interface SecurityRequest {
  /** The project's package.json. */
  pkg: Json;
  /** The package.json overrides belong in: the workspace root's, else the project's own. */
  overridesPkg?: Json;
  /** Every copy the project resolves now (its lockfile's, see projectCopies). */
  copies: readonly ResolvedCopy[];
  /** Packages about to be added at their catalog versions: what they pin counts as a copy. */
  adding?: readonly string[];
  manager: OverrideManager;
}

const idsOf = (name: string, versions: readonly string[]) => [
  ...new Set(versions.flatMap((v) => rowsAffecting(name, v).map((r) => r.id))),
];

const highest = (versions: readonly string[]) => [...versions].sort(compareVersions).at(-1)!;

/** The project's own entry of `name`: the section and spec. */
function ownEntry(pkg: Json, name: string): { section: string; spec: string } | undefined {
  for (const section of installed) {
    const spec = isObject(pkg[section]) ? pkg[section][name] : undefined;
    if (typeof spec === "string") return { section, spec };
  }
  return undefined;
}

/** The copies the catalog knows a package pins: for packages about to be added, or listed at the catalog's version. */
function catalogPins(pkg: Json, adding: readonly string[]): ResolvedCopy[] {
  const pins: ResolvedCopy[] = [];
  for (const [owner, entry] of Object.entries(pinnedDependencies)) {
    if (!entry) continue;
    const listed = ownEntry(pkg, owner)?.spec;
    const spec =
      listed ?? (adding.includes(owner) ? dependencyVersions[owner as keyof typeof dependencyVersions] : undefined);
    if (spec === undefined || specFloor(spec) !== entry.version) continue;
    for (const [name, version] of Object.entries(entry.pins))
      pins.push({ name, version, dependents: [`${owner}@${entry.version}`], direct: false });
  }
  return pins;
}

function overridesOf(pkg: Json, manager: OverrideManager): Json {
  let at: unknown = pkg;
  for (const key of overridePath[manager]) at = isObject(at) ? at[key] : undefined;
  return isObject(at) ? at : {};
}

export function planSecurity(request: SecurityRequest): SecurityPlan {
  const { pkg, copies, manager } = request;
  const existingOverrides = overridesOf(request.overridesPkg ?? pkg, manager);
  const plan: SecurityPlan = { raises: [], overrides: [], manual: { raises: [], overrides: [] } };
  const pins = catalogPins(pkg, request.adding ?? []);
  for (const name of advisoryPackages) {
    const own = ownEntry(pkg, name);
    let spec = own?.spec;
    if (own) {
      // What installs: an exact pin, and the copy the lockfile (or node_modules) resolves for the entry. A range
      // with nothing resolved yet installs the newest release, which the table does not flag.
      // A locked copy of another major than the spec is stale (package.json moved on, the install has not): not judged.
      const exact = parseVersion(own.spec.replace(/^=/, "")) ? own.spec.replace(/^=/, "") : undefined;
      const floor = specFloor(own.spec);
      const major = floor && parseVersion(floor)!.major;
      const locked = copies.filter(
        (c) => c.name === name && c.direct && (major === undefined || parseVersion(c.version)!.major === major),
      );
      const judged = [exact, ...locked.map((c) => c.version)]
        .filter((v): v is string => v !== undefined && isAffected(name, v))
        .filter((v, i, all) => all.indexOf(v) === i);
      if (judged.length) {
        const fixes = judged.map((v) => fixedVersion(name, v));
        const ids = idsOf(name, judged);
        const to = fixes.every((f) => f !== undefined) ? highest(fixes as string[]) : undefined;
        // Never lowered: a floor above the fix already keeps the affected releases out.
        const next = to && (floor && compareVersions(floor, to) >= 0 ? own.spec : raiseSpec(own.spec, to));
        if (!to)
          plan.manual.raises.push(
            `${name} "${own.spec}": no release of its major fixes ${ids.join(", ")}; move it to a supported major.`,
          );
        else if (!next)
          plan.manual.raises.push(
            `${name} "${own.spec}" (${own.section}): make it ${to} or later (${ids.join(", ")}).`,
          );
        else if (next !== own.spec) {
          plan.raises.push({ section: own.section, name, from: own.spec, to: next, ids });
          spec = next;
        }
      }
    }
    // A package the merge is about to add: its override must equal the spec it will have.
    if (spec === undefined && request.adding?.includes(name))
      spec = (dependencyVersions as Record<string, string>)[name];
    // A copy pinned only by packages this plan raises (next-auth 5.0.0-beta.29's @auth/core) moves with them.
    const raised = new Set(plan.raises.map((r) => r.name));
    const pinned = [...copies, ...pins].filter(
      (c) =>
        c.name === name &&
        c.dependents.some((d) => !raised.has(d.slice(0, d.lastIndexOf("@")))) &&
        isAffected(name, c.version),
    );
    const existing = existingOverrides[name];
    if (existing !== undefined && !(typeof existing === "string")) {
      if (pinned.length)
        plan.manual.overrides.push(
          `${overridePath[manager].join(".")} sets ${name} with an object; make it resolve ${name} ${highest(pinned.map((c) => fixedVersion(name, c.version) ?? c.version))} or later.`,
        );
      continue;
    }
    // A string override the user set stays unless it forces an affected version or (npm) differs from the spec.
    const forced: string[] = [];
    if (typeof existing === "string") {
      const tracks = existing === `$${name}` && spec !== undefined;
      const exact = tracks ? undefined : parseVersion(existing.replace(/^=/, "")) && existing.replace(/^=/, "");
      const conflict = manager === "npm" && spec !== undefined && !tracks && existing !== spec;
      if (exact && isAffected(name, exact)) forced.push(exact);
      // Already there: the next install applies it to the copies the lockfile still has.
      else if (!conflict) continue;
    } else if (!pinned.length) continue;
    const versions = [...new Set([...pinned.map((c) => c.version), ...forced])];
    const ids = idsOf(name, versions);
    const fixes = versions.map((v) => fixedVersion(name, v));
    const pinnedBy = [...new Set(pinned.flatMap((c) => c.dependents))].sort();
    const majors = new Set(fixes.map((f) => f && parseVersion(f)!.major));
    const to = fixes.every((f) => f !== undefined) && majors.size <= 1 ? fixes.sort(compareVersions).at(-1) : undefined;
    // npm refuses an override of a direct dependency that differs from its spec (EOVERRIDE): the spec itself, or a
    // reference to it ($name, which npm and pnpm read) when the spec names no version ("latest").
    const reference = manager === "npm" || manager === "pnpm" ? `$${name}` : to && `^${to}`;
    const value = spec !== undefined ? (specFloor(spec) !== undefined ? spec : reference) : to && `^${to}`;
    const floor = spec !== undefined ? specFloor(spec) : undefined;
    const fits = !to || floor === undefined || parseVersion(floor)!.major === parseVersion(to)!.major;
    if (!value || (versions.length && (!to || !fits))) {
      const who = pinnedBy.length
        ? `${pinnedBy.join(", ")} pin${pinnedBy.length === 1 ? "s" : ""}`
        : "package.json forces";
      plan.manual.overrides.push(
        `${who} ${name} ${versions.join(", ")} (${ids.join(", ")}): override it with a fixed release by hand.`,
      );
      continue;
    }
    plan.overrides.push({ name, spec: value, pinnedBy, pinned: versions, ids });
  }
  return plan;
}

/** The project's package.json with the raises applied. */
export function applyRaises(text: string, plan: SecurityPlan): string {
  return plan.raises.reduce((t, r) => setJsonMember(t, [r.section, r.name], r.to), text);
}

/** The overrides' package.json with the plan's entries set. */
export function applyOverrides(text: string, plan: SecurityPlan, manager: OverrideManager): string {
  return plan.overrides.reduce((t, o) => setJsonMember(t, [...overridePath[manager], o.name], o.spec), text);
}

/** The changes in a few words each, for a finding's fix: `next-auth "4.24.15"`, `pnpm.overrides "@auth/core": "^0.41.3"`. */
export function summarizeSecurity(plan: SecurityPlan, manager: OverrideManager): string[] {
  const field = overridePath[manager].join(".");
  return [
    ...plan.raises.map((r) => `${r.name} "${r.to}" (was "${r.from}")`),
    ...plan.overrides.map((o) => `${field} "${o.name}": "${o.spec}"`),
  ];
}

/** One line per change, for init's, add-provider's and doctor's output. */
export function describeSecurity(plan: SecurityPlan, manager: OverrideManager, file = "package.json"): string[] {
  const field = overridePath[manager].join(".");
  return [
    ...plan.raises.map(
      (r) => `${file}: ${r.name} "${r.from}" → "${r.to}" (the versions it allowed have ${r.ids.join(", ")})`,
    ),
    ...plan.overrides.map((o) =>
      o.pinnedBy.length
        ? `${file}: ${field} sets ${o.name} to "${o.spec}" (${o.pinnedBy.join(", ")} pin${o.pinnedBy.length === 1 ? "s" : ""} ${o.name} ${o.pinned.join(", ")}, which has ${o.ids.join(", ")})`
        : `${file}: ${field} sets ${o.name} to "${o.spec}", the spec its dependency entry now has`,
    ),
  ];
}
