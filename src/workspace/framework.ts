/**
 * Which framework a project is built on, read from its package.json and its
 * files (never by running anything), and the layout facts its wiring must
 * fit: a src/ folder, where Next's app/ lives, the tsconfig "@/" alias, an
 * Express server that already exists.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Framework, frameworkCatalog, frameworks } from "../frameworks/index.js";
import { readIfExists } from "./plan.js";

export interface FrameworkFacts {
  framework: Framework;
  /** Why, for the report: "next in package.json", "svelte.config.js", "nothing recognised". */
  reason: string;
  srcDir: boolean;
  /** Next.js: the App Router folder ("app" or "src/app"; where it would go when there is none yet). */
  appDir: string;
  /** Next.js major version from package.json (16 when unknown): 16 renamed middleware.ts to proxy.ts. */
  nextMajor: number;
  /** What the tsconfig "@/*" path points to ("" for the root, "src/"), when it has one. */
  alias: string | undefined;
  /** Express: the file that starts the server, when the project has one. */
  serverFile: string | undefined;
  /** Framework entry files the project already has in any of their forms (src/hooks.server.js, middleware.ts...). */
  existing: string[];
}

/** Files a framework reads by one name in several extensions: a second one beside the user's would clash. */
const entryFiles = ["src/hooks.server", "middleware", "proxy", "src/middleware", "src/proxy"].flatMap((base) =>
  ["ts", "js", "mts", "mjs"].map((ext) => `${base}.${ext}`),
);

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

type PackageJson = { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; main?: string };

function readPackage(root: string): PackageJson {
  try {
    const value = JSON.parse(readIfExists(join(root, "package.json")) ?? "{}") as unknown;
    return typeof value === "object" && value !== null ? (value as PackageJson) : {};
  } catch {
    // A package.json that is no JSON is reported by the package.json merge, with its own message.
    return {};
  }
}

/** The first number of a range such as "^15.2.0", "16.4.6" or "~14"; undefined for tags and URLs. */
const majorOf = (range: string | undefined) => {
  const match = range && /^[\^~>=v\s]*(\d+)/.exec(range);
  return match ? Number(match[1]) : undefined;
};

function installedMajor(root: string, name: string): number | undefined {
  try {
    const pkg = JSON.parse(readIfExists(join(root, "node_modules", name, "package.json")) ?? "{}") as {
      version?: string;
    };
    return majorOf(pkg.version);
  } catch {
    return undefined;
  }
}

/** The "@/*" path of tsconfig.json: ["./src/*"] -> "src/", ["./*"] -> "". Read as text: tsconfig allows comments. */
function tsconfigAlias(root: string): string | undefined {
  const path = join(root, "tsconfig.json");
  if (!isFile(path)) return undefined;
  const match = /"@\/\*"\s*:\s*\[\s*"(?:\.\/)?([^"*]*)\*"/.exec(readIfExists(path) ?? "");
  return match ? match[1]! : undefined;
}

const serverCandidates = ["server.ts", "server.js", "app.ts", "app.js", "index.ts", "index.js"];

function expressServer(root: string, pkg: PackageJson): string | undefined {
  if (pkg.main && isFile(join(root, pkg.main))) return pkg.main;
  return [...serverCandidates, ...serverCandidates.map((f) => `src/${f}`)].find((f) => isFile(join(root, f)));
}

export function detectFramework(root: string): FrameworkFacts {
  const pkg = readPackage(root);
  const deps = { ...pkg.devDependencies, ...pkg.dependencies };
  const srcDir = isDir(join(root, "src"));
  const has = (file: string) => isFile(join(root, file));
  const configOf = (base: string) => ["js", "mjs", "cjs", "ts"].map((e) => `${base}.${e}`).find(has);
  // A dependency is the surer sign, so every framework's is looked at before any config file.
  const byDependency = frameworks.find((f) => {
    const name = frameworkCatalog[f].detection.dependency;
    return name !== undefined && name in deps;
  });
  const byConfig = frameworks
    .map((f) => {
      const base = frameworkCatalog[f].detection.configFile;
      return { framework: f, file: base === undefined ? undefined : configOf(base) };
    })
    .find(({ file }) => file !== undefined);
  const named = frameworks.filter((f) => f !== "none").map((f) => frameworkCatalog[f].title);
  const [framework, reason]: [Framework, string] = byDependency
    ? [byDependency, `${frameworkCatalog[byDependency].detection.dependency} in package.json`]
    : byConfig
      ? [byConfig.framework, byConfig.file!]
      : ["none", `no ${named.slice(0, -1).join(", ")} or ${named.at(-1)} in package.json`];
  const appDir = isDir(join(root, "app")) ? "app" : srcDir ? "src/app" : "app";
  return {
    framework,
    reason,
    srcDir,
    appDir,
    nextMajor: majorOf(deps.next) ?? installedMajor(root, "next") ?? 16,
    alias: tsconfigAlias(root),
    serverFile: framework === "express" ? expressServer(root, pkg) : undefined,
    existing: entryFiles.filter(has),
  };
}
