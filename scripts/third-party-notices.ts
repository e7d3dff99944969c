/**
 * The licences of the code the command-line bundle carries (dist/cli/),
 * written at build time from what esbuild says went into it (its metafile),
 * so the notice lists exactly the packages bundled, at the versions bundled,
 * each with its own licence file. Packages the CLI loads from node_modules
 * at run time (its dependencies) ship their licences themselves.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Metafile } from "esbuild";

export const noticeFile = "THIRD-PARTY-NOTICES.txt";

export interface BundledPackage {
  name: string;
  version: string;
  /** The licence package.json declares (an SPDX expression). */
  license: string;
  /** Each licence or notice file of the package, by its name. */
  files: { name: string; text: string }[];
}

/** The folder of the innermost package an input path is in: node_modules/a/node_modules/@b/c/x.js -> …/@b/c. */
export function packageFolder(input: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, "/"));
  return match?.[1];
}

const licenceFile = /^(?:licen[cs]e|copying|notice)(?:[-.].*)?$/i;

function describe(folder: string): BundledPackage {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license?: string | { type?: string };
  };
  const license = typeof manifest.license === "string" ? manifest.license : (manifest.license?.type ?? "");
  const files = readdirSync(folder)
    .filter((name) => licenceFile.test(name))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(folder, name), "utf8").replace(/\r\n/g, "\n").trimEnd() }));
  if (files.length === 0 && !license)
    throw new Error(`${manifest.name}@${manifest.version} is bundled but states no licence: it cannot be shipped.`);
  return { name: manifest.name, version: manifest.version, license, files };
}

/** Every package with a file in the bundle, once per name and version, by name. */
export function bundledPackages(metafile: Metafile, workingDir: string): BundledPackage[] {
  const folders = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const folder = packageFolder(input);
    if (folder) folders.add(join(workingDir, folder));
  }
  const byId = new Map<string, BundledPackage>();
  for (const folder of folders) {
    if (!existsSync(join(folder, "package.json"))) continue;
    const found = describe(folder);
    byId.set(`${found.name}@${found.version}`, found);
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The notice: a list of the packages, then each one's licence texts as the package ships them. */
export function renderNotice(packages: BundledPackage[]): string {
  const rule = "-".repeat(78);
  const lines = [
    "create-auth's command-line bundle (dist/cli/) contains code from the packages",
    "below. Each is listed with the licence it declares, followed by the licence",
    "and notice files it ships. create-auth's own licence is in LICENSE.",
    "",
    ...packages.map((p) => `- ${p.name}@${p.version} (${p.license || "see below"})`),
  ];
  for (const p of packages) {
    lines.push("", rule, `${p.name}@${p.version} (${p.license || "see below"})`, rule);
    if (p.files.length === 0)
      lines.push("", `The package ships no licence file; its package.json declares ${p.license}.`);
    for (const file of p.files) lines.push("", `${file.name}:`, "", file.text);
  }
  return `${lines.join("\n")}\n`;
}

export function writeNotice(dist: string, metafile: Metafile, workingDir: string): number {
  const packages = bundledPackages(metafile, workingDir);
  writeFileSync(join(dist, noticeFile), renderNotice(packages));
  return packages.length;
}
