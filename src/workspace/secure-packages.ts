/**
 * The package.json edits that keep a project's install clear of the known
 * advisories (render/package-security.ts), planned from what is on disk:
 * the copies its lockfile resolves, and where overrides take effect (a
 * workspace's root package.json; npm, pnpm and yarn ignore a member's).
 * init, add-provider and doctor --fix plan through here; nothing is written.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { advisoryPackages, isAffected, rowsAffecting } from "../catalog/advisories.js";
import { mergePackageJson, type PackageNeeds } from "../render/package-json.js";
import {
  applyOverrides,
  applyRaises,
  describeSecurity,
  type OverrideManager,
  planSecurity,
  type SecurityPlan,
} from "../render/package-security.js";
import { type CopySource, type ProjectCopies, projectCopies } from "./lockfile-copies.js";
import { detectPackageManager } from "./package-manager.js";
import { readIfExists } from "./plan.js";

const lockManagers: Partial<Record<CopySource, OverrideManager>> = {
  "package-lock.json": "npm",
  "pnpm-lock.yaml": "pnpm",
  "yarn.lock": "yarn",
  "bun.lock": "bun",
};

const lockfileNames = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "bun.lockb",
];

function parsed(text: string | null): Record<string, unknown> | undefined {
  try {
    const value: unknown = text === null ? undefined : JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The folder whose package.json the package manager reads overrides from:
 * the nearest one upwards holding a lockfile, or declaring workspaces
 * (`workspaces`, pnpm-workspace.yaml); else the project's own.
 */
function workspaceRoot(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (lockfileNames.some((f) => existsSync(join(dir, f)))) return dir;
    if (dir !== root) {
      if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
      if (parsed(readIfExists(join(dir, "package.json")))?.workspaces !== undefined) return dir;
    }
    if (dirname(dir) === dir || existsSync(join(dir, ".git"))) return root;
  }
}

interface SecuredPackages {
  /** The project's package.json after the raises (and the overrides, when they live there). */
  text: string;
  /** The workspace root's package.json with the overrides, when that is another file. */
  workspace?: { path: string; before: string | null; after: string };
  plan: SecurityPlan;
  manager: OverrideManager;
  /** One line per change and per thing left to the user. */
  notices: string[];
}

interface SecureRequest {
  root: string;
  /** The project's package.json as it will be written (merged already). */
  text: string;
  /** The manager chosen (--package-manager) or detected by the command; the workspace's lockfile wins for a member. */
  manager?: OverrideManager;
  /** Packages the plan adds at their catalog versions. */
  adding?: readonly string[];
  /** The copies resolved now, when the caller read them already. */
  copies?: ProjectCopies;
  /** Only raise the project's own entries; no overrides. */
  raisesOnly?: boolean;
}

export function securePackages(request: SecureRequest): SecuredPackages {
  const { root } = request;
  const found = request.copies ?? projectCopies(root, advisoryPackages);
  const lockfile = found && lockManagers[found.source] ? found : undefined;
  const overridesDir = lockfile ? lockfile.dir : workspaceRoot(root);
  const manager =
    (overridesDir !== root && lockfile ? lockManagers[lockfile.source] : undefined) ??
    request.manager ??
    detectPackageManager(overridesDir, {}).manager;
  const pkg = parsed(request.text) ?? {};
  const overridesPath = join(overridesDir, "package.json");
  const overridesBefore = overridesDir === root ? request.text : readIfExists(overridesPath);
  const planned = planSecurity({
    pkg,
    overridesPkg: parsed(overridesBefore) ?? {},
    copies: found?.copies ?? [],
    adding: request.adding,
    manager,
  });
  const plan = request.raisesOnly
    ? { ...planned, overrides: [], manual: { raises: planned.manual.raises, overrides: [] } }
    : planned;
  let text = applyRaises(request.text, plan);
  let workspace: SecuredPackages["workspace"];
  if (plan.overrides.length && overridesDir === root) text = applyOverrides(text, plan, manager);
  else if (plan.overrides.length && overridesBefore !== null)
    workspace = { path: overridesPath, before: overridesBefore, after: applyOverrides(overridesBefore, plan, manager) };
  else if (plan.overrides.length)
    plan.manual.overrides.push(
      `${overridesPath} is missing: add the overrides there (${plan.overrides.map((o) => o.name).join(", ")}).`,
    );
  const shownOverrides = relative(root, overridesPath).split("\\").join("/") || "package.json";
  const notices = [
    ...describeSecurity({ ...plan, overrides: [] }, manager),
    ...describeSecurity({ ...plan, raises: [] }, manager, shownOverrides),
    ...plan.manual.raises,
    ...plan.manual.overrides,
  ];
  return { text, workspace, plan, manager, notices };
}

interface SecureMerge {
  /** package.json's new text (unchanged when nothing was needed). */
  text: string;
  /** The workspace root's package.json, when the overrides go there. */
  workspace?: { path: string; before: string | null; after: string };
  /** Versions kept, packages not catalogued, and the security changes, one line each. */
  notices: string[];
}

/**
 * package.json with `needs` merged (render/package-json.ts) and the project
 * kept clear of the advisories: an affected entry already there is raised
 * before the merge (so it is not reported as kept), then what the merged
 * packages pin is overridden with the spec the merge gave them.
 */
export function mergeSecurePackageJson(
  root: string,
  needs: PackageNeeds,
  manager: OverrideManager | undefined,
): SecureMerge {
  const before = readIfExists(join(root, "package.json"));
  const adding = [...needs.dependencies, ...needs.devDependencies];
  const copies = projectCopies(root, advisoryPackages);
  const raised =
    before === null ? undefined : securePackages({ root, text: before, manager, copies, raisesOnly: true });
  const merged = mergePackageJson(raised?.text ?? before, needs, root);
  const secured = securePackages({ root, text: merged.text, manager, adding, copies });
  return {
    text: secured.text,
    workspace: secured.workspace,
    notices: [...new Set([...merged.kept, ...(raised?.notices ?? []), ...secured.notices])],
  };
}

/**
 * What an install left affected, read back from the lockfile it wrote (else
 * node_modules): one line per copy, naming who pins it and its advisories.
 * Empty when the installed tree is clear.
 */
export function affectedAfterInstall(root: string): string[] {
  const found = projectCopies(root, advisoryPackages);
  return (found?.copies ?? [])
    .filter((c) => isAffected(c.name, c.version))
    .map((c) => {
      const ids = [...new Set(rowsAffecting(c.name, c.version).map((r) => r.id))].join(", ");
      const via = c.dependents.length ? ` (pinned by ${c.dependents.join(", ")})` : "";
      return `${c.name} ${c.version}${via} is installed and has ${ids}.`;
    });
}
