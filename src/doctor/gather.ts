/**
 * The planner: reads the project once into ProjectFacts (the config's code,
 * the env files, git's view of them, the framework wiring, the database the
 * auth uses). Nothing of the project runs: modules are parsed, not loaded.
 */
import { existsSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { advisoryPackages } from "../catalog/advisories.js";
import type { AdvisoryFacts, ProjectFacts } from "../doctor-model/facts.js";
import type { FrameworkModule, WiringDoctor } from "../frameworks/framework.js";
import { detectFramework, frameworkByAuthPackage } from "../frameworks/registry.js";
import { summarizeSecurity } from "../render/package-security.js";
import { projectCopies } from "../workspace/lockfile-copies.js";
import { detectPackageManager } from "../workspace/package-manager.js";
import { detectPackageVersion } from "../workspace/package-version.js";
import { readIfExists } from "../workspace/plan.js";
import { ProjectView } from "../workspace/project-view.js";
import { securePackages } from "../workspace/secure-packages.js";
import { effectiveEnv, readEnvFiles, readGit, valueFiles } from "./read-files.js";
import { readDatabase } from "./schema-facts.js";

export interface GatherOptions {
  root: string;
  config?: string;
  envFiles: string[];
  environment: NodeJS.ProcessEnv;
}

const deployMarkers = ["Dockerfile", "docker-compose.yml", "compose.yaml", "vercel.json", "netlify.toml", "fly.toml"];

/** Variables whose values are secrets: the auth secret, provider secrets and keys, connection strings with a password. */
export function secretNames(facts: Pick<ProjectFacts, "config">): string[] {
  const names = new Set(["AUTH_SECRET", "NEXTAUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"]);
  if (facts.config.secretVariable) names.add(facts.config.secretVariable);
  for (const provider of facts.config.providers)
    for (const env of provider.env) if ((env.role === "secret" || env.role === "key") && env.name) names.add(env.name);
  return [...names];
}

/** The framework from its package, else from the Auth.js package the project depends on or the config imports. */
function frameworkOf(detected: FrameworkModule, project: ProjectView, imported: string[]): FrameworkModule {
  if (detected.id !== "none") return detected;
  return (
    frameworkByAuthPackage((name) => project.has(name)) ??
    frameworkByAuthPackage((name) => imported.includes(name)) ??
    detected
  );
}

/** Whether a variable holds a secret: by its name, or a connection URL with a password in it. */
export function holdsSecret(name: string, value: string, names: readonly string[]): boolean {
  if (value === "") return false;
  if (names.includes(name) || /SECRET|PASSWORD|PRIVATE_KEY|_TOKEN$/.test(name)) return true;
  return /_URL$/.test(name) && URL.canParse(value) && new URL(value).password !== "";
}

/**
 * The copies of the advisory table's packages the project resolves (its
 * lockfile's, the project's own and its packages'), and what --fix would
 * change in package.json to move them (the plan init and add-provider use).
 */
export function readAdvisories(root: string, environment: NodeJS.ProcessEnv): AdvisoryFacts {
  const found = projectCopies(root, advisoryPackages);
  const text = readIfExists(join(root, "package.json"));
  const manager = detectPackageManager(root, environment).manager;
  const secured = text === null ? undefined : securePackages({ root, text, manager, copies: found });
  const lockfile = found && !["node_modules", "package.json"].includes(found.source);
  return {
    source: found && (lockfile ? relative(root, join(found.dir, found.source)).split("\\").join("/") : found.source),
    copies: found?.copies ?? [],
    manager: secured?.manager ?? manager,
    changes: secured ? summarizeSecurity(secured.plan, secured.manager) : [],
    manual: secured ? [...secured.plan.manual.raises, ...secured.plan.manual.overrides] : [],
  };
}

/** The project's facts, and the doctor part of its framework, which checks the wiring it read. */
export async function gatherFacts(options: GatherOptions): Promise<{ facts: ProjectFacts; wiring: WiringDoctor }> {
  const { root } = options;
  const { findAuthSetup } = await import("../ast/setup/find.js");
  const configPath = (await findAuthSetup(root, { config: options.config, root })).configFile;
  const project = new ProjectView(root);
  // The parser loads only here, when doctor reads a project (src/ast is loaded lazily everywhere).
  const [{ ModuleReader }, { readConfig }] = await Promise.all([
    import("../ast/project/modules.js"),
    import("../ast/project/read-config.js"),
  ]);
  const reader = new ModuleReader(root, project.alias);
  const dependencies = project.dependencies;
  const scripts = project.packageJson.scripts ?? {};
  const git = readGit(root);
  const envFiles = readEnvFiles(root, options.envFiles, git);
  const config = readConfig(configPath, reader);
  const framework = frameworkOf(detectFramework(project).framework, project, config.packages);
  const wiring = await framework.doctor.load();
  const facts: ProjectFacts = {
    root,
    framework: framework.id,
    frameworkEnv: framework.doctor.env,
    defaultMount: framework.basePath,
    appPort: framework.app.port,
    packageJson: { dependencies, scripts },
    nextAuthMajor: dependencies["next-auth"] === undefined ? undefined : detectPackageVersion(root, "next-auth")?.major,
    deployFiles: deployMarkers.filter((f) => existsSync(join(root, f))),
    isGitRepo: git.isRepo,
    envLocalIgnored: git.ignored([".env.local"]).has(".env.local"),
    envFiles,
    valueFiles: valueFiles(options.envFiles, root, framework.envOrder),
    env: effectiveEnv(envFiles, valueFiles(options.envFiles, root, framework.envOrder), options.environment),
    trackedSecrets: {},
    config,
    wiring: wiring.read({ root, configPath, project, reader }),
    advisories: readAdvisories(root, options.environment),
    database: config.adapter
      ? await readDatabase(
          root,
          scripts,
          config.packages,
          config.adapter.file && posix.dirname(config.adapter.file),
          config.adapter.arguments,
        )
      : undefined,
  };
  if (git.isRepo) {
    for (const name of secretNames(facts)) {
      const value = facts.env[name]?.value;
      if (value && value.length >= 8) {
        const files = git.filesHolding(value).map((f) => relative(root, join(root, f)));
        if (files.length) facts.trackedSecrets[name] = files;
      }
    }
  }
  return { facts, wiring };
}
