/**
 * The packages of a workspace, as its package manager lists them:
 * package.json `workspaces` (npm, yarn, bun: a list, or yarn's
 * `{ packages: [...] }`) or pnpm-workspace.yaml's `packages`. Each pattern
 * names folders ("apps/*", "packages/**", "tools/cli"); a folder is a
 * package when it has a package.json. `!` patterns exclude.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { posixRelative } from "../lib/posix-path.js";
import { readIfExists } from "./plan.js";

/** The patterns of pnpm-workspace.yaml's `packages:` list (a small reading: one quoted or bare item a line). */
function pnpmPatterns(text: string): string[] {
  const patterns: string[] = [];
  let inList = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inList = true;
    else if (inList && /^\s*-\s*/.test(line))
      patterns.push(
        line
          .replace(/^\s*-\s*/, "")
          .replace(/\s+#.*$/, "")
          .replace(/^["']|["']$/g, ""),
      );
    else if (inList && /^\S/.test(line)) inList = false;
  }
  return patterns;
}

function patternsOf(root: string): string[] {
  let declared: unknown;
  try {
    declared = (JSON.parse(readIfExists(join(root, "package.json")) ?? "{}") as { workspaces?: unknown }).workspaces;
  } catch {
    declared = undefined;
  }
  const list = Array.isArray(declared)
    ? declared
    : Array.isArray((declared as { packages?: unknown })?.packages)
      ? (declared as { packages: unknown[] }).packages
      : [];
  const pnpm = readIfExists(join(root, "pnpm-workspace.yaml"));
  return [...list, ...(pnpm ? pnpmPatterns(pnpm) : [])].filter((p): p is string => typeof p === "string" && p !== "");
}

/** A folder pattern as a RegExp over project-relative folder paths: `*` within a segment, `**` any number of them. */
function folderPattern(pattern: string): RegExp {
  const clean = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  if (clean === "**") return /^.+$/;
  let source = "";
  for (let i = 0; i < clean.length; i++) {
    if (clean.startsWith("**/", i)) {
      source += "(?:[^/]+/)*";
      i += 2;
    } else if (clean.startsWith("/**", i) && i + 3 === clean.length) {
      source += "(?:/[^/]+)*";
      i += 2;
    } else if (clean[i] === "*") source += "[^/]*";
    else source += clean[i]!.replace(/[.+?^${}()|[\]\\]/, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** Project-relative folders of the workspace's packages (none when the project declares no workspace). */
export function workspacePackages(root: string): string[] {
  const patterns = patternsOf(root);
  const include = patterns.filter((p) => !p.startsWith("!")).map(folderPattern);
  const exclude = patterns.filter((p) => p.startsWith("!")).map((p) => folderPattern(p.slice(1)));
  if (!include.length) return [];
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const folder = join(dir, entry.name);
      const path = posixRelative(root, folder);
      const isPackage = readIfExists(join(folder, "package.json")) !== null;
      if (isPackage && include.some((p) => p.test(path)) && !exclude.some((p) => p.test(path))) found.push(path);
      if (depth < 4) visit(folder, depth + 1);
    }
  };
  visit(root, 1);
  return found.sort();
}
