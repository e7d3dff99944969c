/**
 * Finds a project's Auth.js setup by what it is, not where it usually is:
 * within the package the command stands in, a module that calls
 * `NextAuth(...)`, `SvelteKitAuth(...)`, `ExpressAuth(...)`, `Auth(...)` or
 * `QwikAuth$(...)`, or exports an object typed or shaped as an auth config,
 * and the modules the route handler imports (tsconfig/jsconfig `paths`
 * followed). Modules that import each other are one setup (a split
 * `auth.config.ts` and `auth.ts`, a middleware, the route); two setups are
 * ambiguous and `--config` decides. Bounded: see walk.ts and the limits below.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { UsageError } from "../../lib/errors.js";
import { maxReadBytes } from "../plan.js";
import { readAliases } from "./aliases.js";
import { defaultWalkLimits, listSourceFiles, type WalkLimits } from "./walk.js";

export type AuthSetupKind =
  /** next-auth v4: an `authOptions` object handed to `NextAuth()` in the route, or typed `NextAuthOptions`. */
  | "v4-options"
  /** next-auth v5: `export const { handlers, auth, ... } = NextAuth(config)` with the config in the same module. */
  | "v5-call"
  /** next-auth v5 with the edge split: the providers in another module (`auth.config.ts`) spread into the call. */
  | "v5-split"
  /** Another framework's entry point: `SvelteKitAuth`, `ExpressAuth`, `Auth`, `QwikAuth$`... */
  | "auth-call"
  /** Only a config object was found (`--config`, or an exported config nothing calls yet). */
  | "config-only";

export interface AuthSetup {
  /** The package the setup belongs to: where package.json and the env files are. */
  root: string;
  /** The module holding the config object (what doctor reads, what `upgrade` rewrites). */
  configFile: string;
  /** The module whose object literal holds `providers` (where add-provider adds one). */
  providersFile: string;
  /** The module that calls the entry point (`NextAuth(...)`), when one does. */
  authFile?: string;
  /** Next.js's auth route (`pages/api/auth/[...nextauth].ts`, `app/api/auth/[...nextauth]/route.ts`), when there is one. */
  routeFile?: string;
  kind: AuthSetupKind;
  /** Every module of the setup, for messages. */
  files: string[];
}

export interface FindOptions {
  /** `--config`: the file to use, relative to `start`. */
  config?: string;
  /** The package to search (doctor's `--dir`); by default the nearest folder upwards with a package.json. */
  root?: string;
  limits?: WalkLimits;
}

/** A module over create-auth's limit for any file it reads is no config; one such is named when nothing else is found. */
const maxModuleBytes = maxReadBytes;
/** What the search reads in all, at most. */
const maxTotalBytes = 24 * 1024 * 1024;

/** The package `start` is in: the nearest folder upwards with a package.json, else `fallback`. */
export function packageRoot(start: string, fallback = start): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return resolve(fallback);
  }
}

/** Next.js's auth route: `pages/…/[...nextauth].ts` (Pages Router) or `app/…/[...nextauth]/route.ts` (App Router). */
const isRoute = (file: string) =>
  /(?:^|\/)pages\/(?:.*\/)?\[\.\.\.nextauth\]\.[cm]?[jt]sx?$|(?:^|\/)app\/(?:.*\/)?\[\.\.\.nextauth\]\/route\.[cm]?[jt]sx?$/.test(
    file,
  );

/** Only modules whose text names an entry point, a config type or an auth package are parsed. */
const mentionsAuth =
  /\b(?:NextAuth|SvelteKitAuth|ExpressAuth|SolidAuth|QwikAuth\$?|Auth)\s*\(|\b(?:NextAuthOptions|AuthOptions|NextAuthConfig|AuthConfig)\b|["']next-auth|["']@auth\/|\bproviders\s*:\s*\[/;

interface Scan {
  candidates: string[];
  /** Source files over the size limit, left unread. */
  oversized: { file: string; size: number }[];
  routes: string[];
  packages: string[];
  truncated: boolean;
  read: number;
}

function scan(root: string, limits: WalkLimits): Scan {
  const walked = listSourceFiles(root, limits);
  const candidates: string[] = [];
  const oversized: Scan["oversized"] = [];
  let total = 0;
  let truncated = walked.truncated;
  for (const file of walked.files) {
    const rel = relative(root, file);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      continue;
    }
    if (size > maxModuleBytes) {
      oversized.push({ file, size });
      continue;
    }
    if (total + size > maxTotalBytes) {
      truncated = true;
      break;
    }
    total += size;
    const text = readFileSync(file, "utf8");
    if (isRoute(rel) || mentionsAuth.test(text)) candidates.push(file);
  }
  const routes = walked.files.filter((f) => isRoute(relative(root, f)));
  return { candidates, oversized, routes, packages: walked.packages, truncated, read: walked.files.length };
}

export async function findAuthSetup(start: string, options: FindOptions = {}): Promise<AuthSetup> {
  if (options.config) {
    const path = resolve(start, options.config);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new UsageError(`--config ${options.config}: no such file (looked for ${path}).`);
    const root = options.root ?? packageRoot(dirname(path), start);
    const { describeGiven } = await import("../../ast/setup/choose.js");
    return describeGiven(root, path, readAliases(root));
  }
  const root = options.root ?? packageRoot(start);
  const limits = options.limits ?? defaultWalkLimits;
  const found = scan(root, limits);
  const { chooseSetup } = await import("../../ast/setup/choose.js");
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
