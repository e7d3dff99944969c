/**
 * What init (and init on next-auth v4) merges into the project's own files
 * beside what it generates: package.json, the env files and .gitignore, as
 * the new text of each (a part of edits). Nothing here writes.
 */
import { join } from "node:path";
import { databaseEnvFile, type EnvWritePlan, gitignore, planEnvWrites } from "../render/env-files.js";
import type { FilesPart, GeneratedPart } from "../render/parts.js";
import type { EnvOrder, ProjectEnv } from "../render/project-env.js";
import type { PackageManager } from "../workspace/package-manager.js";
import { readIfExists } from "../workspace/plan.js";
import { readEnvForWriting } from "../workspace/read-env.js";
import { mergeSecurePackageJson } from "../workspace/secure-packages.js";

/**
 * The env files, package.json and .gitignore beside init's own files: the
 * planner's packages and the merged parts' packages and scripts (values the
 * project already has kept, each a notice), the merged parts' variables where
 * the project keeps its env (the database's where its ORM tool reads them:
 * Prisma and drizzle-kit read .env), a fresh secret unless `secret` finds the
 * project has one, and the env files made ignored.
 */
export function planProjectMerges(request: {
  root: string;
  envOrder: EnvOrder;
  merged: Pick<GeneratedPart, "env" | "ignored" | "dependencies" | "devDependencies" | "scripts">;
  /** What the planner adds to package.json beyond the merged parts' packages. */
  packages: { dependencies: string[]; devDependencies: string[] };
  databaseVariables: string[];
  orm: boolean;
  /** A new secret, or undefined when the project already has one. */
  secret(env: ProjectEnv): string | undefined;
  /** The manager that installs (its overrides field); default: the lockfile's, else npm. */
  packageManager?: PackageManager;
}): Pick<EnvWritePlan, "notices" | "toFill" | "where"> & { part: FilesPart } {
  const { root, merged } = request;
  const pkg = mergeSecurePackageJson(
    root,
    {
      dependencies: [...request.packages.dependencies, ...merged.dependencies],
      devDependencies: [...request.packages.devDependencies, ...merged.devDependencies],
      scripts: merged.scripts,
    },
    request.packageManager,
  );
  const projectEnv = readEnvForWriting(root, request.envOrder);
  const env = planEnvWrites({
    env: projectEnv,
    envOrder: request.envOrder,
    variables: merged.env,
    heading: "Auth (added by create-auth init)",
    secret: request.secret(projectEnv),
    database: { names: request.databaseVariables, file: databaseEnvFile(request.orm) },
  });
  const edits = [
    { path: "package.json", contents: pkg.text },
    ...env.files.map((f) => ({ path: f.name, contents: f.after })),
    {
      path: ".gitignore",
      contents: gitignore(readIfExists(join(root, ".gitignore")), [...merged.ignored, ...env.created]),
    },
    ...(pkg.workspace ? [{ path: pkg.workspace.path, contents: pkg.workspace.after }] : []),
  ];
  return { part: { edits }, notices: [...pkg.notices, ...env.notices], toFill: env.toFill, where: env.where };
}
