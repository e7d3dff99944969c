/** Finds the user's auth config: --config, else the usual places. */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UsageError } from "../lib/errors.js";

export const usualConfigPlaces = [
  "auth.ts",
  "auth.config.ts",
  "src/auth.ts",
  "src/auth.config.ts",
  "lib/auth.ts",
  "src/lib/auth.ts",
  "src/lib/server/auth.ts",
  "server/auth.ts",
];

export function findAuthConfig(cwd: string, explicit?: string): string {
  if (explicit) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new UsageError(`--config ${explicit}: no such file (looked for ${path}).`);
    return path;
  }
  const found = usualConfigPlaces.map((p) => join(cwd, p)).find((p) => existsSync(p));
  if (found && !statSync(found).isFile()) {
    throw new UsageError(`${found} is a folder, where the auth config belongs; pass the config with --config.`);
  }
  if (!found) {
    throw new UsageError(
      `No auth config found in ${cwd}.`,
      `Looked for ${usualConfigPlaces.join(", ")}. Pass its path with --config, or create one with: create-auth init`,
    );
  }
  return found;
}

/** The project root for a config: the nearest directory with a package.json, else the cwd. */
export function projectRoot(configPath: string, cwd: string): string {
  for (let dir = dirname(configPath); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
