/**
 * The framework wiring around the auth config, planned by the framework's
 * own module (src/frameworks/): options in, files and notes out.
 */

import type { FrameworkPart, FrameworkRequest } from "../frameworks/framework.js";
import { type Framework, frameworkCatalog } from "../frameworks/index.js";

export type { FrameworkPart, FrameworkRequest } from "../frameworks/framework.js";

/** Where the auth module and the adapter's folder go for a framework. */
export function authLayout(framework: Framework, srcDir: boolean): { configPath: string; authDir: string } {
  return frameworkCatalog[framework].layout(srcDir);
}

export async function generateFramework(request: FrameworkRequest): Promise<FrameworkPart> {
  const entry = frameworkCatalog[request.framework];
  const part: FrameworkPart = {
    files: [],
    dependencies: [...entry.dependencies],
    devDependencies: [...entry.devDependencies],
    env: [],
    scripts: {},
    notes: [],
    instructions: {},
    needsLoadEnv: false,
  };
  await entry.plan(request, part);
  return part;
}
