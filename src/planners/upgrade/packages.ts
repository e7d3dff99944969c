/**
 * The packages upgrade swaps in (next-auth 5 and the @auth adapters that
 * replace @next-auth ones), at versions whose peer dependencies the project
 * satisfies, decided before anything is written: npm refuses an install
 * whose peers do not fit (ERESOLVE), so an adapter whose newest release
 * wants a newer driver than the project has gets the newest release that
 * takes the project's driver; when no release made for next-auth 5 does,
 * the driver is raised to the lowest version the adapter takes, with a note.
 * A project already past every release's range is refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Release, v5Releases } from "../../catalog/next-auth-5-releases.js";
import { detectPackageVersion, fromPackageJson } from "../../workspace/package-version.js";
import { intersects, raisedRange, satisfies } from "./version-range.js";

export type PackagePlan =
  | {
      status: "planned";
      /** package.json after the upgrade. */
      text: string;
      /** Adapters swapped, old → new. */
      swapped: Record<string, string>;
      /** @next-auth packages with no @auth successor. */
      unknown: string[];
      notes: string[];
    }
  | { status: "refused"; reason: string };

/** What the project has of a package: the version installed or locked, else package.json's range. */
interface Held {
  /** As shown to the user: "5.9.2", "^5.1.0". */
  shown: string;
  fits(range: string): boolean;
}

/** The version in the project's own node_modules, when it has a copy there. */
function installedHere(root: string, name: string): string | undefined {
  try {
    const version = (
      JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version?: unknown }
    ).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The project's hold on `name`, or undefined when package.json does not name it (npm then installs the peer itself). */
function held(root: string, pkgText: string, name: string, raised: Record<string, string>): Held | undefined {
  const declared = raised[name] ?? fromPackageJson(pkgText, name);
  if (declared === undefined) return undefined;
  const found = raised[name] ? undefined : detectPackageVersion(root, name);
  // npm resolves peers in the project's own tree: its lockfile, else its own node_modules, never a folder above.
  const exact =
    found?.source === "node_modules"
      ? installedHere(root, name)
      : found && found.source !== "package.json"
        ? found.version
        : undefined;
  // A range or version that cannot be read (a tag, a URL, a workspace link) is taken to fit: it is the user's choice.
  return exact
    ? { shown: exact, fits: (range) => satisfies(exact, range) ?? true }
    : { shown: declared, fits: (range) => intersects(declared, range) ?? true };
}

/** The peers of a release the project does not satisfy, with what it has. */
function unmet(release: Release, have: (name: string) => Held | undefined): [string, string, Held][] {
  return Object.entries(release.peers).flatMap(([peer, range]) => {
    const current = have(peer);
    return current && !current.fits(range) ? [[peer, range, current] as [string, string, Held]] : [];
  });
}

export async function planPackages(root: string, pkgText: string): Promise<PackagePlan> {
  // The edit functions bring the parser with them: loaded when an upgrade is planned.
  const { adapterSwaps, editPackageJson } = await import("../../ast/upgrade/project-edits.js");
  const { swapped, unknown } = adapterSwaps(pkgText);
  const raised: Record<string, string> = {};
  const versions: Record<string, string> = {};
  const notes: string[] = [];
  const have = (name: string) => held(root, pkgText, name, raised);
  const successors = new Map(Object.entries(swapped).map(([from, to]) => [to, from]));
  const packages = [
    ...(fromPackageJson(pkgText, "next-auth") !== undefined ? ["next-auth"] : []),
    ...successors.keys(),
  ];
  for (const name of packages) {
    const releases = v5Releases[name]!;
    const fitting = releases.find((release) => unmet(release, have).length === 0);
    const chosen = fitting ?? releases[0]!;
    versions[name] = chosen.version;
    const from = successors.get(name);
    if (fitting && fitting !== releases[0]) {
      const [[peer, range, current]] = unmet(releases[0]!, have) as [[string, string, Held]];
      notes.push(
        `${from} is now ${name} ${chosen.version} (its imports too): the newest release that takes the project's ${peer} ${current.shown} (later ones need ${peer} ${range}).`,
      );
      continue;
    }
    if (from) notes.push(`${from} is now ${name} (its imports too).`);
    // An adapter has older releases to choose from; next-auth 5 is the one release upgrade moves to.
    const releasesSaid = from ? `any release of ${name} made for next-auth 5` : `${name} ${chosen.version}`;
    for (const [peer, range, current] of fitting ? [] : unmet(chosen, have)) {
      const to = raisedRange(current.shown, range);
      if (!to)
        return {
          status: "refused",
          reason: `${name} ${chosen.version} needs ${peer} ${range}, and the project has ${current.shown}, newer than ${releasesSaid} takes.`,
        };
      raised[peer] = to;
      notes.push(
        `${peer} goes from ${current.shown} to ${to} in package.json: ${name} ${chosen.version} needs ${peer} ${range}${from ? `, and no release of it made for next-auth 5 takes ${current.shown}` : ""}. Check the app's own uses of ${peer} against its release notes.`,
      );
    }
  }
  return { status: "planned", text: editPackageJson(pkgText, versions, raised), swapped, unknown, notes };
}
