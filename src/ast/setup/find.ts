/**
 * Finds a project's Auth.js setup: the walk of src/workspace/auth-setup/
 * lists the modules that may be auth, and choose.ts reads them (with the
 * parser) and picks the one setup, or says why there is none.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { UsageError } from "../../lib/errors.js";
import { readAliases } from "../../workspace/auth-setup/aliases.js";
import {
  type AuthSetup,
  type FindOptions,
  maxModuleBytes,
  packageRoot,
  scan,
} from "../../workspace/auth-setup/index.js";
import { defaultWalkLimits } from "../../workspace/auth-setup/walk.js";
import { chooseSetup, describeGiven } from "./choose.js";

export async function findAuthSetup(start: string, options: FindOptions = {}): Promise<AuthSetup> {
  if (options.config) {
    const path = resolve(start, options.config);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new UsageError(`--config ${options.config}: no such file (looked for ${path}).`);
    const root = options.root ?? packageRoot(dirname(path), start);
    return describeGiven(root, path, readAliases(root));
  }
  const root = options.root ?? packageRoot(start);
  const limits = options.limits ?? defaultWalkLimits;
  const found = scan(root, limits);
  const choice = chooseSetup(root, found.candidates, found.routes, readAliases(root));
  const show = (file: string) => relative(start, file) || file;
  if (choice.status === "found") return choice.setup;
  if (choice.status === "ambiguous") {
    throw new UsageError(
      `Found ${choice.setups.length} auth configs (${choice.setups.map((s) => show(s.configFile)).join(", ")}); pass the one to use with --config.`,
    );
  }
  // Nothing found, and a module too big to be read: most likely the config, and worth naming.
  const big = found.oversized[0];
  if (big) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    throw new UsageError(
      `${big.file} is ${mb(big.size)}, more than the ${mb(maxModuleBytes)} such a file could need; nothing was written.`,
    );
  }
  // Nothing in this package: a workspace's other packages may hold one, which is worth naming.
  const elsewhere: string[] = [];
  for (const pkg of found.packages.slice(0, 20)) {
    const inner = scan(pkg, { maxFiles: 1000, maxDepth: 6 });
    const innerChoice = chooseSetup(pkg, inner.candidates, inner.routes, readAliases(pkg));
    if (innerChoice.status === "found") elsewhere.push(show(innerChoice.setup.configFile));
  }
  const limited = found.truncated ? ` (the search stopped at its limit of ${limits.maxFiles} files)` : "";
  throw new UsageError(
    `No auth config found in ${root}${limited}.`,
    elsewhere.length
      ? `Other packages of this workspace have one (${elsewhere.join(", ")}): run create-auth in that package, or pass the file with --config.`
      : `Looked in ${found.read} source files for a module calling NextAuth(), SvelteKitAuth(), ExpressAuth() or Auth(), or exporting an auth config (node_modules and build output skipped). Pass its path with --config, or create one with: create-auth init`,
  );
}
