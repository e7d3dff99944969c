/**
 * Astro prerenders every page unless told otherwise (`output: "server"`, or
 * `export const prerender = false` in the page): a prerendered page is HTML
 * written at build time that no middleware sees, so a page --protect covers
 * must be rendered on demand. These are the pages and the edit that makes
 * one so, a line added to its frontmatter, every other byte kept.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { posixRelative } from "../../lib/posix-path.js";
import type { PlannedFile } from "../../render/parts.js";
import type { ProjectView } from "../../workspace/project-view.js";

export interface AstroPage {
  /** Project-relative path: "src/pages/dashboard.astro". */
  path: string;
  /** The URL path it answers, a parameter standing for any value: "/dashboard", "/blog/x". */
  route: string;
  text: string;
}

const pagesDir = "src/pages";

/** The URL path of a page file under src/pages ("blog/[slug].astro" -> "/blog/x", "index.astro" -> "/"). */
export function routeOf(file: string): string {
  const segments = file
    .replace(/\.astro$/, "")
    .split("/")
    .filter((s, i, all) => !(i === all.length - 1 && s === "index"))
    .map((s) => s.replace(/\[(?:\.\.\.)?[^\]]+\]/g, "x"));
  return `/${segments.join("/")}`;
}

/** The .astro pages (files and folders starting with "_" are not routes). */
export function pagesOf(project: ProjectView): AstroPage[] {
  if (!project.isDir(pagesDir)) return [];
  const base = join(project.root, pagesDir);
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".astro"))
    .map((e) => posixRelative(base, join(e.parentPath, e.name)))
    .filter((file) => !file.split("/").some((s) => s.startsWith("_")))
    .sort()
    .flatMap((file) => {
      const path = `${pagesDir}/${file}`;
      const text = project.read(path);
      return text === null ? [] : [{ path, route: routeOf(file), text }];
    });
}

const onDemandLine = "export const prerender = false;";
const why = "// Rendered for each visit, so the middleware can send visitors who are not signed in to sign in.";

/** `text` with `export const prerender = false` at the top of its frontmatter (which it gets when it has none). */
export function renderedOnDemand(text: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const open = /^---[ \t]*\r?\n/.exec(body);
  if (open) return `${bom}${open[0]}${why}${eol}${onDemandLine}${eol}${body.slice(open[0].length)}`;
  return `${bom}---${eol}${why}${eol}${onDemandLine}${eol}---${eol}${eol}${body}`;
}

/** The edits making the pages `patterns` cover rendered on demand, and what the user must decide by hand. */
export function onDemandEdits(pages: readonly AstroPage[], patterns: readonly RegExp[]) {
  const edits: PlannedFile[] = [];
  const steps: string[] = [];
  for (const page of pages) {
    if (!patterns.some((p) => p.test(page.route))) continue;
    const setting = /export\s+const\s+prerender\s*=\s*(\w+)/.exec(page.text);
    if (setting?.[1] === "false") continue;
    if (setting) {
      steps.push(
        `${page.path} is prerendered (prerender = ${setting[1]}), so nothing can protect it: set \`export const prerender = false\` in it.`,
      );
      continue;
    }
    edits.push({ path: page.path, contents: renderedOnDemand(page.text) });
  }
  return { edits, steps };
}
