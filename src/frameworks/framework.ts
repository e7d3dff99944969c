/**
 * What a framework module declares: where its auth module goes, what it
 * installs, how it is recognised in a project, and `plan()`, the wiring init
 * writes around the auth config (each following its Auth.js integration's
 * documented shape). A file the project already has (a hooks file, a
 * server) is never rewritten: the plan carries the line to add instead.
 * Adding a framework is adding a module beside this one and its id below.
 */
import type { DependencyName } from "../catalog/dependencies.js";
import { specifier } from "../generators/config.js";
import type { EnvVariable, PlannedFile } from "../generators/types.js";
import type { FrameworkFacts } from "../workspace/framework.js";

export const frameworks = ["next", "sveltekit", "express", "none"] as const;
export type Framework = (typeof frameworks)[number];

export interface FrameworkRequest {
  facts: FrameworkFacts;
  framework: Framework;
  configPath: string;
  /** The folder of the adapter and its helper modules. */
  authDir: string;
  importExtension: "" | ".js";
  /** Next.js --protect: the matcher of the paths to protect. */
  protect?: string[];
}

export interface FrameworkPart {
  files: PlannedFile[];
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: EnvVariable[];
  scripts: Record<string, string>;
  /** Lines for the user: what to add by hand where a file was theirs. */
  notes: string[];
  /** Files the wiring would write, and what the user adds when such a file is theirs. */
  instructions: Record<string, string>;
  /** For the config's header. */
  routeFile?: string;
  serverHint?: string;
  /** SvelteKit: the module copying $env/dynamic/private into process.env, imported first by the config. */
  envPath?: string;
  /** Express: the generated server needs the env loader module. */
  needsLoadEnv: boolean;
}

export interface FrameworkDefinition {
  title: string;
  /** Packages the wiring imports; versions from src/catalog/dependencies.ts. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  /**
   * Where a browser reaches the app in development (http://localhost:<port>, not
   * 127.0.0.1, which the browser treats as another site for the CSRF cookie), and
   * the auth routes under it.
   */
  port: number;
  basePath: string;
  /** The command that starts the app in development. */
  devCommand: string;
  /** The Auth.js package the app imports (its `providers/<id>` re-export @auth/core's). */
  authPackage: string;
  /** The type the generated config is declared with. */
  configType: string;
  /** How a project shows it: a dependency in package.json, or a config file (any extension). */
  detection: { dependency?: string; configFile?: string };
  /** Where the auth module and the adapter's folder go. */
  layout(srcDir: boolean): { configPath: string; authDir: string };
  /** Adds this framework's files, env, scripts and notes to `part`; pure: reads nothing from disk. */
  plan(request: FrameworkRequest, part: FrameworkPart): Promise<void>;
}

/** The usual place: auth.ts at the root, or in src/ when the project has one. */
export const rootLayout = (srcDir: boolean) => ({ configPath: srcDir ? "src/auth.ts" : "auth.ts", authDir: "auth" });

export const trustHostVariable: EnvVariable = {
  name: "AUTH_TRUST_HOST",
  description: "Trust the Host header for Auth.js's URLs (a production start on your own server or proxy needs it)",
  example: "true",
};

/** How a file imports the auth config: through tsconfig's "@/" alias when it covers the config, else relatively. */
export function configModule(from: string, request: FrameworkRequest): string {
  const { alias } = request.facts;
  const bare = request.configPath.replace(/\.ts$/, "");
  if (request.framework === "sveltekit") return `$lib/${bare.slice("src/lib/".length)}`;
  if (alias !== undefined && bare.startsWith(alias)) return `@/${bare.slice(alias.length)}`;
  return specifier(from, request.configPath, request.importExtension);
}
