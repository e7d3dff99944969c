/**
 * Project variants: the shapes users' projects have, made in the test by
 * small transforms of a fresh copy of a base fixture app (fixtures/apps/),
 * never by copying apps: the app created in a module of its own, src/ or
 * not, tsconfig settings, a workspace with the app in apps/web. A variant
 * names the apps it applies to and transforms a copy in place; variants
 * compose (`compose`), and each transform fails loudly when the fixture no
 * longer has the text it changes, so a variant never silently tests the base.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AppName } from "../e2e/apps.js";
import { fixture } from "../helpers.js";

export interface VariantProject {
  /** Where the commands run: the app's folder, or a workspace's root. */
  cwd: string;
  /** The app's own folder: its tsconfig is the one that type-checks it. */
  app: string;
}

export interface Variant {
  id: string;
  /** What the variant is, as a user would say it. */
  title: string;
  apps: readonly AppName[];
  /** Transforms the app's files in `project.app` (a fresh copy); returns where they are (they may move). */
  apply(project: VariantProject, app: AppName): VariantProject;
}

/** A variant made of others, applied in order (each sees what the one before made). */
export function compose(id: string, title: string, ...parts: Variant[]): Variant {
  const apps = parts.reduce<readonly AppName[]>(
    (all, part) => all.filter((a) => part.apps.includes(a)),
    parts[0]!.apps,
  );
  return {
    id,
    title,
    apps,
    apply(project, app) {
      let current = project;
      for (const part of parts) current = part.apply(current, app);
      return current;
    },
  };
}

export const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

export function write(dir: string, path: string, text: string) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/** `text` with `from` replaced by `to`, once; throws when `from` is not there (the fixture changed). */
export function replaceOnce(text: string, from: string | RegExp, to: string, where: string): string {
  const found = typeof from === "string" ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`variant: ${where} no longer has ${String(from)}`);
  return text.replace(from, to);
}

export function editJson<T = Record<string, unknown>>(dir: string, path: string, edit: (json: T) => void) {
  const json = JSON.parse(read(dir, path)) as T;
  edit(json);
  writeFileSync(join(dir, path), `${JSON.stringify(json, null, 2)}\n`);
}

/**
 * A copy of fixture app `app` transformed by `variant`, in a temp folder removed when the test ends; its
 * node_modules is a link to `installed` (the app installed once, test/e2e/apps.ts), nothing is installed.
 */
export function variantCopy(
  app: AppName,
  variant: Variant,
  installed: string,
  defer: (fn: () => unknown) => void,
): VariantProject {
  const dir = mkdtempSync(join(tmpdir(), `create-auth-variant-${app}-${variant.id}-`));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(fixture("apps", app), dir, { recursive: true });
  const project = variant.apply({ cwd: dir, app: dir }, app);
  // Installed where a package manager puts it: at the top, where the app and a workspace's root both find it.
  symlinkSync(join(installed, "node_modules"), join(dir, "node_modules"), "dir");
  return project;
}
