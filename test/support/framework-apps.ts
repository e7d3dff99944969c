/**
 * One row per fixture app (fixtures/apps/<app>): the framework it is built
 * on and what each test layer needs to know about it beyond the framework's
 * module. Detection, doctor's wiring checks and the browser flows read their
 * framework lists from here, so a new framework is one more row (and its app).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { dependencyVersions } from "../../src/catalog/dependencies.js";

type DependencyName = keyof typeof dependencyVersions;

/** How the app is built and started in production, as its users do it (npm scripts), and its dashboard's path. */
interface Production {
  build?: string;
  start: string;
  dashboard: string;
}

export interface FrameworkApp {
  /** The framework module's id detection must give for the app. */
  framework: string;
  /**
   * The Node the app needs when the machine's (20) is below its framework's `engines`; the fixture apps
   * test checks it against the app's package.json.
   */
  node?: "24";
  /** What init --yes (and --providers email) adds to it, installed ahead so init's own install finds it. */
  initPackages?: DependencyName[];
  /** How it is built and served in production; the Next.js (App Router), SvelteKit and Express flows start theirs by hand. */
  production?: Production;
  /** A wiring fault a user could make by hand, and the doctor finding that must name it. */
  fault: { plant(dir: string): void; id: string };
  /** Where its production server reads no env file: the line that loads them, which doctor must miss when gone. */
  envLoader?: { file: string; line: RegExp };
  /** The two-factor pages mounted by what init wrote: a file it creates ("created <path>") or a line in src/index.ts. */
  twoFactor?: { mount: string; noClientAddress?: true };
}

/** The usual production scripts. */
const npmScripts: Production = { build: "build", start: "start", dashboard: "/dashboard" };

/** The env loader imported by the session module that the Auth.js route imports. */
const sessionImport = /^import \{ envFilesRead \} from "\.\/load-env";$/m;

/** A file's text changed by `change`, which must change something (else the fault was not planted). */
export function edit(path: string, change: (text: string) => string) {
  const before = readFileSync(path, "utf8");
  const after = change(before);
  if (after === before) throw new Error(`planting the fault left ${path} as it was`);
  writeFileSync(path, after);
}

const removed =
  (path: string, recursive = false) =>
  (dir: string) =>
    rmSync(join(dir, path), { recursive });

export const frameworkApps = {
  next: {
    framework: "next",
    initPackages: ["next-auth"],
    fault: { plant: removed("app/api/auth", true), id: "next.route-missing" },
  },
  "next-pages": {
    framework: "next",
    initPackages: ["next-auth"],
    production: npmScripts,
    fault: { plant: removed("app", true), id: "next.route-missing" },
  },
  sveltekit: {
    framework: "sveltekit",
    initPackages: ["@auth/sveltekit"],
    fault: { plant: removed("src/hooks.server.ts"), id: "sveltekit.handle-missing" },
  },
  express: {
    framework: "express",
    initPackages: ["@auth/express", "@types/express"],
    fault: {
      plant: (dir) => edit(join(dir, "server.ts"), (text) => text.replace(/^app\.use\(authRoutes\);$/m, "")),
      id: "express.mount-missing",
    },
  },
  hono: {
    framework: "hono",
    production: npmScripts,
    fault: {
      plant: (dir) => edit(join(dir, "src/index.ts"), (text) => text.replace(/^app\.on\(.*handleAuth.*$/m, "")),
      id: "hono.mount-missing",
    },
    twoFactor: { mount: "handleTwoFactor(withClientAddress(c.req.raw" },
  },
  astro: {
    framework: "astro",
    node: "24",
    production: npmScripts,
    fault: { plant: removed("src/pages/api/auth", true), id: "astro.route-missing" },
    envLoader: { file: "src/auth.ts", line: /^import "\.\/auth\/load-env";$/m },
    twoFactor: { mount: "created src/pages/two-factor/[...path].ts" },
  },
  qwik: {
    framework: "qwik",
    initPackages: ["@auth/qwik"],
    // Qwik City's routes end in a slash.
    production: { build: "build", start: "serve", dashboard: "/dashboard/" },
    fault: { plant: removed("src/routes/plugin@auth.ts"), id: "qwik.plugin-missing" },
    twoFactor: { mount: "created src/routes/two-factor/[...path]/index.ts" },
  },
  "react-router-7": {
    framework: "react-router",
    production: npmScripts,
    fault: {
      plant: (dir) => edit(join(dir, "app/routes.ts"), (text) => text.replace(/, route\("api\/auth\/\*"[^)]*\)/, "")),
      id: "react-router.route-unlisted",
    },
    // react-router-serve hands routes no client address: the throttle counts per account and says so.
    twoFactor: { mount: "created app/routes/two-factor.$.ts", noClientAddress: true },
  },
  "react-router-8": {
    framework: "react-router",
    node: "24",
    production: npmScripts,
    fault: {
      plant: (dir) => edit(join(dir, "app/routes.ts"), (text) => text.replace(/, route\("api\/auth\/\*"[^)]*\)/, "")),
      id: "react-router.route-unlisted",
    },
  },
  "tanstack-start": {
    framework: "tanstack-start",
    node: "24",
    production: npmScripts,
    fault: { plant: removed("src/routes/api/auth/$.ts"), id: "tanstack-start.route-missing" },
    twoFactor: { mount: "created src/routes/two-factor/$.ts" },
  },
  nuxt: {
    framework: "nuxt",
    node: "24",
    production: npmScripts,
    fault: { plant: removed("server/api/auth", true), id: "nuxt.route-missing" },
    envLoader: { file: "server/auth/session.ts", line: sessionImport },
  },
  "solid-start": {
    framework: "solid-start",
    node: "24",
    production: npmScripts,
    fault: { plant: removed("src/routes/api/auth/[...auth].ts"), id: "solid-start.route-missing" },
    twoFactor: { mount: "created src/routes/two-factor/[...path].ts" },
  },
  fastify: {
    framework: "fastify",
    production: npmScripts,
    fault: {
      plant: (dir) => edit(join(dir, "src/server.ts"), (text) => text.replace(/^app\.register\(authRoutes\);$/m, "")),
      id: "fastify.mount-missing",
    },
    twoFactor: { mount: "created src/auth/fastify.ts" },
  },
  elysia: {
    framework: "elysia",
    production: npmScripts,
    fault: {
      plant: (dir) => edit(join(dir, "src/index.ts"), (text) => text.replace(/^ {2}\.all\(.*handleAuth.*$/m, "")),
      id: "elysia.mount-missing",
    },
  },
  nitro: {
    framework: "nitro",
    production: npmScripts,
    fault: { plant: removed("server/routes/api/auth", true), id: "nitro.route-missing" },
    envLoader: { file: "server/auth/session.ts", line: sessionImport },
    twoFactor: { mount: "created two-factor/[...].ts" },
  },
  "nitro-2": {
    framework: "nitro",
    production: npmScripts,
    fault: { plant: removed("server/routes/api/auth", true), id: "nitro.route-missing" },
    envLoader: { file: "server/auth/session.ts", line: sessionImport },
    twoFactor: { mount: "created two-factor/[...].ts" },
  },
} satisfies Record<string, FrameworkApp>;

export type AppName = keyof typeof frameworkApps;

/** The rows as [app, row] pairs, in table order. */
export const frameworkAppRows = Object.entries(frameworkApps) as [AppName, FrameworkApp][];

/** The rows that have `field`, as [app, row] pairs. */
export const appsWith = <K extends keyof FrameworkApp>(field: K) =>
  frameworkAppRows.filter(([, row]) => row[field] !== undefined) as [
    AppName,
    FrameworkApp & Required<Pick<FrameworkApp, K>>,
  ][];
