/**
 * What a framework module declares. A framework owns everything about
 * itself: how a project shows it (detect), where the auth module goes, the
 * config's framework-specific pieces and the files around it (plan), and
 * what doctor reads and checks in a project built on it. Nothing outside
 * src/frameworks/ branches on a framework's id; adding one is a module in
 * its own folder, its templates and a line in registry.ts.
 */
import type { DependencyName } from "../catalog/dependencies.js";
import type { ProjectFacts, WiringFacts } from "../doctor-model/facts.js";
import type { CheckDefinition, Finding } from "../doctor-model/finding.js";
import type { EnvVariable, GeneratedPart } from "../render/parts.js";
import type { EnvOrder } from "../render/project-env.js";
import type { ProjectView } from "../workspace/project-view.js";

/** What detection found: the module's own facts, and why (for the report: "next in package.json"). */
export interface Detected<F> {
  facts: F;
  reason: string;
  /** A dependency is surer evidence than a config file, whatever the frameworks' precedence. */
  by: "dependency" | "file";
}

export interface FrameworkRequest<F> {
  facts: F;
  /** Where the auth module goes (layout()'s answer, or a config the project already has). */
  configPath: string;
  /** The folder of the adapter and its helper modules. */
  authDir: string;
  importExtension: "" | ".js";
  /** tsconfig's "@/*" target ("src/", ""), when it has one. */
  alias: string | undefined;
  /** --protect: path patterns whose visitors must be signed in. */
  protect?: string[];
  /**
   * --federated-logout: the config exports signOutRequest(request, userIdOf), and the wiring passes
   * every request to Auth.js through it, so a plain sign-out goes on to the provider's end-session endpoint.
   */
  federatedSignOut?: boolean;
  /**
   * --two-factor totp: the module exporting handleTwoFactor(request: Request): Promise<Response>, which the
   * framework mounts at twoFactorPath (families/two-factor.ts) and every path below it, for GET and POST.
   */
  twoFactorPages?: string;
}

/** The auth module's framework-specific pieces, filled into templates/config/auth.ts.hbs. */
export interface ConfigShape {
  /** Lines of the header comment: how the app uses the config, and the framework's Auth.js docs. */
  header: string[];
  /** Imports that must come before every other (an env bridge the providers' modules rely on). */
  first: string[];
  /** The framework's Auth.js imports (its initialiser and the config's type). */
  imports: string[];
  /** The type the config satisfies. */
  configType: string;
  /** Extra properties of the config object, with their comment lines, as written. */
  options: string[];
  /** What the module exports after `authConfig` (the framework's handlers and helpers). */
  exports: string[];
}

export interface FrameworkPart extends GeneratedPart {
  config: ConfigShape;
}

/** How doctor reads and checks the wiring; loaded only when doctor runs (it parses the project's modules). */
export interface WiringDoctor {
  /** The checks' ids, severities and meanings (the README's table and --json list them). */
  checks: readonly CheckDefinition[];
  read(context: WiringContext): WiringFacts;
  run(facts: ProjectFacts): Finding[];
}

export interface WiringContext {
  root: string;
  /** The auth config, absolute. */
  configPath: string;
  project: ProjectView;
  reader: import("../ast/project/modules.js").ModuleReader;
}

export interface FrameworkDoctor {
  /** The variables the framework's Auth.js package reads for its URL and secret, first wins. */
  env: { url: readonly string[]; secret: readonly string[] };
  /** Why the app serves itself in production (so the host must be trusted), or undefined when it does not look so. */
  ownServer(facts: ProjectFacts): string | undefined;
  load(): Promise<WiringDoctor>;
}

export interface FrameworkModule<F = unknown> {
  id: string;
  title: string;
  /**
   * When several frameworks show by the same kind of evidence, the highest
   * wins: the framework that runs the server over one that only handles
   * routes inside it (Next.js over a Hono app mounted in a route handler).
   */
  precedence: number;
  detect(project: ProjectView): Detected<F> | undefined;
  /** The facts when --framework names it though the project does not show it. */
  assume(project: ProjectView): F;
  /** Packages the wiring imports; versions from src/catalog/dependencies.ts. */
  dependencies: readonly DependencyName[];
  devDependencies: readonly DependencyName[];
  /** The Node.js its current release needs ("22.12"), when above the CLI's own (20.12). */
  minimumNode?: string;
  /** The Node.js the project's release needs, where that differs by release (React Router 7 and 8). */
  minimumNodeFor?(facts: F): string | undefined;
  /** Where a browser reaches the app in development (localhost, not 127.0.0.1: another site for the cookies). */
  app: { port: number; devCommand: string };
  /** Where Auth.js answers; the callback of provider X is <basePath>/callback/X. */
  basePath: string;
  /** The Auth.js package the config imports; built-in providers come from `<authPackage>/providers/<id>`. */
  authPackage: string;
  /** Whose precedence the env files it loads follow: Next.js's (and dotenv-flow's), or Vite's. */
  envOrder: EnvOrder;
  /** It honours --protect: visitors of those paths are sent to sign in first. */
  protects: boolean;
  /**
   * Its server runs the project's modules as they are written (node server.js: no bundler strips types),
   * so a JavaScript project gets the generated modules in JavaScript.
   */
  runsModulesAsWritten?: boolean;
  /** Where the auth module and the adapter's folder go. */
  layout(facts: F, project: ProjectView): { configPath: string; authDir: string };
  /** The wiring around the config and the config's own pieces. Pure: reads nothing from disk. */
  plan(request: FrameworkRequest<F>): Promise<FrameworkPart>;
  doctor: FrameworkDoctor;
}

/** What shows a framework in a project: the first of `packages` in package.json, else a config file named `config` (any extension). */
export interface Evidence {
  packages: readonly string[];
  config?: string;
}

/** The variables most Auth.js packages read for the URL and the secret (next-auth reads its v4 names too). */
const authEnv: FrameworkDoctor["env"] = { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] };

/**
 * What a module writes: the FrameworkModule less what most frameworks share,
 * which defineFramework fills in. A module states only where it differs: a
 * full-stack framework (precedence 10) that adds no packages of its own,
 * serves on port 3000 through `npm run dev`, wires the generic @auth/core,
 * honours --protect, and whose doctor reads AUTH_URL and AUTH_SECRET.
 */
export type FrameworkDefinition<F> = Omit<
  FrameworkModule<F>,
  | "detect"
  | "assume"
  | "precedence"
  | "dependencies"
  | "devDependencies"
  | "app"
  | "authPackage"
  | "protects"
  | "doctor"
> & {
  /** What the module reads from a project: found when detection shows the framework, assumed when --framework names it. */
  facts(project: ProjectView): F;
  precedence?: number;
  dependencies?: readonly DependencyName[];
  devDependencies?: readonly DependencyName[];
  app?: Partial<FrameworkModule["app"]>;
  authPackage?: string;
  protects?: boolean;
  doctor: Omit<FrameworkDoctor, "env"> & Partial<Pick<FrameworkDoctor, "env">>;
} & (
    | { shownBy: Evidence; detect?: never }
    /** A detection of its own, where no package or config file shows the framework. */
    | { detect: FrameworkModule<F>["detect"]; shownBy?: never }
  );

/** The module with the shared values filled in; its facts type stays tied to its functions. */
export function defineFramework<F>(definition: FrameworkDefinition<F>): FrameworkModule<F> {
  const { facts, shownBy, detect, app, doctor, ...own } = definition;
  return {
    precedence: 10,
    dependencies: [],
    devDependencies: [],
    authPackage: "@auth/core",
    protects: true,
    ...own,
    detect: detect ?? detectBy(facts, shownBy),
    assume: facts,
    app: { port: 3000, devCommand: "npm run dev", ...app },
    doctor: { env: authEnv, ...doctor },
  };
}

/**
 * A module as the registry holds it. Its functions only ever receive the
 * facts its own detect() or assume() made, so forgetting their type is safe.
 */
export const frameworkModuleOf = <F>(module: FrameworkModule<F>) => module as unknown as FrameworkModule;

/** The usual place: auth.ts at the root, or in src/ when the project has one. */
export const rootLayout = (_facts: unknown, project: ProjectView) => ({
  configPath: project.srcDir ? "src/auth.ts" : "auth.ts",
  authDir: "auth",
});

export const trustHostVariable: EnvVariable = {
  name: "AUTH_TRUST_HOST",
  description: "Trust the Host header for Auth.js's URLs (a production start on your own server or proxy needs it)",
  example: "true",
};

/** The config shape of a framework that adds nothing of its own. */
export const plainConfig = (shape: Partial<ConfigShape> = {}): ConfigShape => ({
  header: [],
  first: [],
  imports: ['import type { AuthConfig } from "@auth/core";'],
  configType: "AuthConfig",
  options: [],
  exports: [],
  ...shape,
});

/** A module of the project's own that the wiring edits (a hooks or middleware file), with its text. */
export interface OwnFile {
  /** Project-relative path. */
  path: string;
  text: string;
}

/** The file at `path` with its text, when there is one. */
export function ownFile(project: ProjectView, path: string | undefined): OwnFile | undefined {
  const text = path ? project.read(path) : null;
  return path && text !== null ? { path, text } : undefined;
}

/** Files a framework reads by one name in several extensions: a second one beside the user's would clash. */
export function existingEntry(project: ProjectView, base: string): string | undefined {
  return project.firstFile(["ts", "js", "mts", "mjs", "tsx", "jsx"].map((ext) => `${base}.${ext}`));
}

/**
 * The usual detection: the first of `packages` in package.json, else a config file named `config` (any
 * extension), with the framework's facts read only when it is found.
 */
function detectBy<F>(
  facts: (project: ProjectView) => F,
  evidence: Evidence,
): (project: ProjectView) => Detected<F> | undefined {
  return (project) => {
    const found = evidence.packages.find((name) => project.has(name));
    if (found) return { facts: facts(project), reason: `${found} in package.json`, by: "dependency" };
    const config = evidence.config ? project.configFile(evidence.config) : undefined;
    return config ? { facts: facts(project), reason: config, by: "file" } : undefined;
  };
}
