/**
 * The source files of one package, listed within limits: installed
 * packages, build output, hidden folders and other packages of a workspace
 * (a folder with its own package.json) are skipped (but .server/, where
 * server-only source lives), symbolic links are not
 * followed, and the walk stops at a number of files and a depth, so a huge
 * or odd tree costs a bounded time.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

export interface WalkLimits {
  /** Source files listed at most. */
  maxFiles: number;
  /** Folders below the package at most. */
  maxDepth: number;
}

export const defaultWalkLimits: WalkLimits = { maxFiles: 4000, maxDepth: 10 };

/** Folders that hold no code of the project's own: dependencies, build output, caches, static assets. */
const skippedFolders = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  "dist",
  "build",
  "out",
  "output",
  "coverage",
  "public",
  "static",
  "tmp",
  "temp",
  "vendor",
  "__tests__",
  "__mocks__",
  "cypress",
  "playwright",
  "e2e",
  "storybook-static",
]);

/** Hidden folders are tools' (.git, .next, .svelte-kit), except .server/: server-only source where Vite apps (React Router, Remix) keep it. */
const hiddenFolder = (name: string) => name.startsWith(".") && name !== ".server";

const sourceFile = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Declarations, tests and stories describe or exercise the code; none of them is the auth setup. */
const notSetup = /\.d\.[cm]?ts$|\.(?:test|spec|stories|story)\.[cm]?[jt]sx?$/;

export interface WalkResult {
  /** Absolute paths, in a stable order. */
  files: string[];
  /** Folders below the root with a package.json of their own: other packages of a workspace. */
  packages: string[];
  /** A limit stopped the walk before it saw everything. */
  truncated: boolean;
}

const setupSource = (name: string) => sourceFile.test(name) && !notSetup.test(name);

export function listSourceFiles(root: string, limits: WalkLimits = defaultWalkLimits): WalkResult {
  return listFiles(root, setupSource, limits);
}

/** The files of one package whose name `wanted` accepts, within the same limits and skips as its source. */
export function listFiles(root: string, wanted: (name: string) => boolean, limits = defaultWalkLimits): WalkResult {
  const result: WalkResult = { files: [], packages: [], truncated: false };
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.isFile() && wanted(entry.name)) {
        if (result.files.length >= limits.maxFiles) {
          result.truncated = true;
          return;
        }
        result.files.push(join(dir, entry.name));
      } else if (entry.isDirectory() && !hiddenFolder(entry.name) && !skippedFolders.has(entry.name)) {
        folders.push(join(dir, entry.name));
      }
    }
    for (const folder of folders) {
      if (depth >= limits.maxDepth) {
        result.truncated = true;
        return;
      }
      let own: Dirent[] = [];
      try {
        own = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      if (own.some((e) => e.name === "package.json" && e.isFile())) {
        result.packages.push(folder);
        continue;
      }
      visit(folder, depth + 1);
      if (result.files.length >= limits.maxFiles && result.truncated) return;
    }
  };
  visit(root, 0);
  return result;
}
