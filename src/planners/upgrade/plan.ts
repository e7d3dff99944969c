/**
 * The whole next-auth v4 → v5 upgrade as one plan: every file it would
 * write, create or remove, with what it cannot do safely as manual steps.
 * Its passes are the steps below, run in order; each adds parts, and the
 * plan's changes are those parts read once against the disk. Nothing here
 * writes; `create-auth upgrade` applies the plan (or prints it with
 * --dry-run) and installs.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { AuthSetup } from "../../workspace/auth-setup/index.js";
import { detectPackageVersion } from "../../workspace/package-version.js";
import { changesOfParts } from "../../workspace/parts-to-changes.js";
import { type FileChange, readIfExists } from "../../workspace/plan.js";
import { importExtension } from "../../workspace/project.js";
import { configStep, routeStep } from "./config-steps.js";
import { middlewareStep, modulesStep, nextConfigStep } from "./module-steps.js";
import { compatStep, envStep, packagesStep } from "./project-steps.js";
import type { Upgrade, UpgradeEdits, UpgradeStep } from "./upgrade-state.js";

export { migrationGuide } from "./project-steps.js";

export type UpgradePlan =
  | {
      status: "planned";
      root: string;
      changes: FileChange[];
      /** What the upgrade could not do safely, one line each. */
      manual: string[];
      /** What it did that the user should know (sessions kept, names renamed). */
      notes: string[];
      packageJsonChanged: boolean;
    }
  | { status: "current"; root: string; reason: string }
  | { status: "refused"; root: string; reason: string };

/** The upgrade, top to bottom. A later step reads what an earlier one learnt (the config's new text, its place). */
export const upgradeSteps: readonly UpgradeStep[] = [
  configStep,
  routeStep,
  modulesStep,
  middlewareStep,
  nextConfigStep,
  compatStep,
  envStep,
  packagesStep,
];

async function loadEdits(): Promise<UpgradeEdits> {
  const [config, middleware, runtime, project, serverCalls] = await Promise.all([
    import("../../ast/upgrade/config-edit.js"),
    import("../../ast/upgrade/middleware-edit.js"),
    import("../../ast/upgrade/middleware-runtime.js"),
    import("../../ast/upgrade/project-edits.js"),
    import("../../ast/upgrade/server-calls.js"),
  ]);
  return { config, middleware, runtime, project, serverCalls };
}

/**
 * Where the config goes: in place, or out of the pages route (a file under pages/ is a route, not a module),
 * refused where that place is taken.
 */
function placeConfig(setup: AuthSetup, edits: UpgradeEdits): Upgrade | string {
  const { root } = setup;
  const shown = (file: string) => relative(root, file) || file;
  const oldConfig = setup.configFile;
  const pagesRoute = setup.routeFile && /(?:^|\/)pages\//.test(shown(setup.routeFile)) ? setup.routeFile : undefined;
  const typescript = /\.[cm]?tsx?$/.test(oldConfig);
  const srcLayout = existsSync(join(root, "src/app")) || existsSync(join(root, "src/pages"));
  let newConfig = oldConfig;
  if (oldConfig === pagesRoute) {
    newConfig = join(root, srcLayout ? "src" : "", `auth${typescript ? ".ts" : ".js"}`);
    if (existsSync(newConfig))
      return `${shown(newConfig)} exists already, where the config moves out of ${shown(oldConfig)}; rename one of them first.`;
  }
  return {
    root,
    setup,
    edits,
    ext: importExtension(root),
    oldConfig,
    newConfig,
    pagesRoute,
    appRoute: setup.routeFile && !pagesRoute ? setup.routeFile : undefined,
    typescript,
    srcLayout,
    compatPath: join(dirname(newConfig), `auth-v4-compat${typescript ? ".ts" : ".js"}`),
    configText: readIfExists(oldConfig) ?? "",
    // Set by the config step, which every later step follows.
    configAfter: "",
    config: { strategy: "jwt", cookieKept: false, decoderAdded: false },
    csrfUsed: false,
    pagesImportAuth: [],
    packageJsonChanged: false,
    parts: [],
    manual: [],
    notes: [],
  };
}

export async function planUpgrade(start: string, config?: string): Promise<UpgradePlan> {
  // The edits bring the parser: loaded here, when an upgrade is planned, not when the CLI starts.
  const edits = await loadEdits();
  const { findAuthSetup } = await import("../../ast/setup/find.js");
  const setup: AuthSetup = await findAuthSetup(start, { config });
  const { root } = setup;
  if (!detectPackageVersion(root, "next-auth"))
    return { status: "refused", root, reason: `${root} does not depend on next-auth: there is nothing to upgrade.` };
  if (setup.kind !== "v4-options") {
    const already = setup.kind === "v5-call" || setup.kind === "v5-split";
    return already
      ? {
          status: "current",
          root,
          reason: `The auth config (${relative(start, setup.configFile) || setup.configFile}) is next-auth v5's already: nothing to upgrade.`,
        }
      : {
          status: "refused",
          root,
          reason: `${relative(start, setup.configFile)} is not a next-auth config (it uses another framework's Auth.js).`,
        };
  }
  const upgrade = placeConfig(setup, edits);
  if (typeof upgrade === "string") return { status: "refused", root, reason: upgrade };
  for (const step of upgradeSteps) {
    const refusal = await step.run(upgrade);
    if (refusal !== undefined) return { status: "refused", root, reason: refusal };
  }
  // Every file the upgrade touches is the project's own (or one it makes anew): nothing is left alone.
  const { changes } = changesOfParts(root, upgrade.parts, { force: true });
  const { manual, notes, packageJsonChanged } = upgrade;
  return { status: "planned", root, changes, manual, notes, packageJsonChanged };
}

/** For tests and messages: the files of a plan relative to its root, and what happens to each. */
export function describeChanges(root: string, changes: FileChange[]): string[] {
  return changes.map(
    (c) => `${c.remove ? "removed" : c.before === null ? "created" : "updated"} ${relative(root, c.path)}`,
  );
}
