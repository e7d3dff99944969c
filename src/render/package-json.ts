/**
 * package.json for init and add-provider alike: created, or merged without
 * changing anything that is there. Versions come only from the catalog.
 */
import { basename, join } from "node:path";
import { dependencyVersions, installScripts } from "../catalog/dependencies.js";
import { selfDependencySpec } from "../catalog/self.js";
import { UsageError } from "../lib/errors.js";
import { setJsonMember } from "./json-text.js";

/** Versions come only from the catalog; a name it lacks is reported, never guessed. */
export function catalogVersion(name: string): string | undefined {
  if (name === "create-auth") return selfDependencySpec();
  return (dependencyVersions as Record<string, string>)[name];
}

export interface PackageNeeds {
  dependencies: string[];
  devDependencies: string[];
  scripts: Record<string, string>;
}

export interface PackageMerge {
  /** New package.json text; equal to the input when nothing was missing. */
  text: string;
  /** Things left as they were although they differ from what init would write. */
  kept: string[];
}

/** A valid npm name from a folder name: lowercase, url-safe characters. */
export function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name || "app";
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const describeJson = (value: unknown) =>
  Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;

/** The package.json of `dir` as an object; anything else (not JSON, an array, a string, a leading BOM) is a usage error. */
export function parsePackageJson(text: string, dir: string): Json {
  const path = join(dir, "package.json");
  if (text.startsWith("\uFEFF")) {
    throw new UsageError(`${path} starts with a byte-order mark; save it as UTF-8 without one (nothing was written).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${path} is not valid JSON (${(error as Error).message}); fix it first (nothing was written).`,
    );
  }
  if (!isObject(value)) {
    throw new UsageError(`${path} holds ${describeJson(value)}, not an object; fix it first (nothing was written).`);
  }
  return value;
}

/**
 * Adds what is missing to package.json. A dependency already listed in
 * either section keeps its version (reported when it differs from the
 * catalog), an existing script keeps its command, an existing allowScripts
 * entry stays. The edits are made in the text (json-text.ts): key order,
 * indentation, line endings and every byte around them stay.
 */
export function mergePackageJson(existing: string | null, needs: PackageNeeds, dir: string): PackageMerge {
  const kept: string[] = [];
  const pkg: Json =
    existing === null
      ? { name: packageName(dir), version: "0.0.0", private: true, type: "module" }
      : parsePackageJson(existing, dir);
  // A field of the wrong type is the user's to fix; replacing it would lose what they meant.
  for (const key of ["dependencies", "devDependencies", "peerDependencies", "scripts", "allowScripts"]) {
    if (key in pkg && !isObject(pkg[key])) {
      throw new UsageError(
        `"${key}" in ${join(dir, "package.json")} is ${describeJson(pkg[key])}, where npm expects an object; fix it first (nothing was written).`,
      );
    }
  }
  let text = existing ?? `${JSON.stringify(pkg, null, 2)}\n`;
  const set = (path: string[], value: unknown) => {
    text = setJsonMember(text, path, value);
  };
  const listed = (name: string) =>
    [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies].find((s) => isObject(s) && name in s) as
      | Json
      | undefined;
  for (const [key, names] of [
    ["dependencies", needs.dependencies],
    ["devDependencies", needs.devDependencies],
  ] as const) {
    for (const name of [...new Set(names)].sort()) {
      const version = catalogVersion(name);
      if (version === undefined) {
        kept.push(`${name} is not in create-auth's version catalog and was not added; add it yourself`);
        continue;
      }
      const where = listed(name);
      if (where) {
        if (where[name] !== version)
          kept.push(`package.json keeps ${name}@${String(where[name])} (create-auth would add ${version})`);
        continue;
      }
      set([key, name], version);
      // Listed now: a name in both needs lands in the first section only.
      pkg[key] = { ...(isObject(pkg[key]) ? pkg[key] : {}), [name]: version };
    }
  }
  for (const [name, command] of Object.entries(needs.scripts)) {
    const scripts = isObject(pkg.scripts) ? pkg.scripts : undefined;
    if (scripts && name in scripts) {
      if (scripts[name] !== command)
        kept.push(`package.json keeps its "${name}" script (create-auth would run: ${command})`);
      continue;
    }
    set(["scripts", name], command);
  }
  const needed = new Set([...needs.dependencies, ...needs.devDependencies]);
  for (const [name, { allow, when }] of Object.entries(installScripts)) {
    if (!needed.has(when)) continue;
    const entries = isObject(pkg.allowScripts) ? pkg.allowScripts : undefined;
    // Any entry naming the package (pinned "name@1.2.3", an approval or a denial) is the user's decision.
    if (entries && Object.keys(entries).some((k) => k === name || k.startsWith(`${name}@`))) continue;
    // By name only: the version is not known before the install (npm help install-scripts).
    set(["allowScripts", name], allow);
  }
  return { text, kept };
}
