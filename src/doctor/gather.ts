/**
 * The planner: reads the project once into ProjectFacts (the config's code,
 * the env files, git's view of them, the framework wiring, the database the
 * auth uses). Nothing of the project runs: modules are parsed, not loaded.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { type Framework, frameworkCatalog, frameworks } from "../frameworks/index.js";
import { findAuthSetup } from "../workspace/auth-setup/index.js";
import { detectFramework } from "../workspace/framework.js";
import { readIfExists } from "../workspace/plan.js";
import type { ProjectFacts } from "./facts.js";
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
function frameworkOf(detected: Framework, dependencies: Record<string, string>, imported: string[]): Framework {
  if (detected !== "none") return detected;
  const byAuthPackage = (has: (name: string) => boolean) =>
    frameworks.find((f) => f !== "none" && has(frameworkCatalog[f].authPackage));
  return byAuthPackage((name) => name in dependencies) ?? byAuthPackage((name) => imported.includes(name)) ?? "none";
}

/** Whether a variable holds a secret: by its name, or a connection URL with a password in it. */
export function holdsSecret(name: string, value: string, names: readonly string[]): boolean {
  if (value === "") return false;
  if (names.includes(name) || /SECRET|PASSWORD|PRIVATE_KEY|_TOKEN$/.test(name)) return true;
  return /_URL$/.test(name) && URL.canParse(value) && new URL(value).password !== "";
}

export async function gatherFacts(options: GatherOptions): Promise<ProjectFacts> {
  const { root } = options;
  const configPath = (await findAuthSetup(root, { config: options.config, root })).configFile;
  const detected = detectFramework(root);
  // The parser loads only here, when doctor reads a project (src/ast is loaded lazily everywhere).
  const [{ ModuleReader }, { readConfig }, { readWiring }] = await Promise.all([
    import("../ast/project/modules.js"),
    import("../ast/project/read-config.js"),
    import("../ast/project/read-wiring.js"),
  ]);
  const reader = new ModuleReader(root, detected.alias);
  let pkg: {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    scripts?: Record<string, string>;
  } = {};
  try {
    pkg = JSON.parse(readIfExists(join(root, "package.json")) ?? "{}");
  } catch {
    // A package.json that is no JSON: the framework is still read from the files.
  }
  const dependencies = { ...pkg.devDependencies, ...pkg.dependencies };
  const scripts = pkg.scripts ?? {};
  const git = readGit(root);
  const envFiles = readEnvFiles(root, options.envFiles, git);
  const config = readConfig(configPath, reader);
  const framework = frameworkOf(detected.framework, dependencies, config.packages);
  const facts: ProjectFacts = {
    root,
    framework,
    nextMajor: detected.nextMajor,
    packageJson: { dependencies, scripts },
    deployFiles: deployMarkers.filter((f) => existsSync(join(root, f))),
    isGitRepo: git.isRepo,
    envLocalIgnored: git.ignored([".env.local"]).has(".env.local"),
    envFiles,
    valueFiles: valueFiles(options.envFiles, root),
    env: effectiveEnv(envFiles, options.envFiles, root, options.environment),
    trackedSecrets: {},
    config,
    wiring: readWiring(root, framework, configPath, reader, detected.appDir),
    database: config.adapter ? await readDatabase(root, scripts, config.packages) : undefined,
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
  return facts;
}
