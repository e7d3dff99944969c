/**
 * How a generated project should depend on create-auth (its verify-adapter
 * script runs it). Installed from a registry or a tarball, the package sits
 * in a node_modules folder and a semver range is right; run from a source
 * checkout, the project points at that checkout, since a range could not
 * resolve to it.
 */
import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import { version } from "../version.js";

// dist/workspace/self.js (or src/workspace/self.ts) -> the package root.
const packageRoot = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

export function selfDependencySpec(root = packageRoot): string {
  return root.split(sep).includes("node_modules") ? `^${version}` : `file:${root}`;
}
