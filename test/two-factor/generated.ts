/**
 * The generated two-factor modules as an app imports them: rendered from
 * templates/two-factor/, transpiled and imported natively from a temp folder
 * whose node_modules is this repository's.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderTemplate } from "../../src/render/templates.js";
import { writeModule } from "../e2e/provider-module.js";
import { root, tempDir } from "../helpers.js";

/** A folder that imports like a project: ESM, this repository's packages. */
export function moduleFolder(prefix = "create-auth-two-factor-"): string {
  const dir = tempDir(prefix);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  return dir;
}

/** Renders `template` (under templates/) to `path` in `dir` and imports it. */
export async function generatedModule<T>(
  dir: string,
  template: string,
  path: string,
  context: Record<string, unknown> = {},
): Promise<T> {
  writeModule(dir, path, await renderTemplate(template, { ext: ".js", ...context }));
  return (await import(pathToFileURL(join(dir, path.replace(/\.ts$/, ".js"))).href)) as T;
}
