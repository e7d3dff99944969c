/**
 * What a project's Auth.js setup is, and the walk that finds its candidates
 * (findAuthSetup in src/ast/setup/find.ts parses them and chooses). A setup
 * is found by what it is, not where it usually is:
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
import { maxReadBytes } from "../plan.js";
import { listSourceFiles, type WalkLimits } from "./walk.js";

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
export const maxModuleBytes = maxReadBytes;
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

export interface Scan {
  candidates: string[];
  /** Source files over the size limit, left unread. */
  oversized: { file: string; size: number }[];
  routes: string[];
  packages: string[];
  truncated: boolean;
  read: number;
}

/** The modules of the package at `root` that may be auth (parsed by src/ast/setup/), and what the walk met. */
export function scan(root: string, limits: WalkLimits): Scan {
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
