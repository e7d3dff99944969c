/**
 * What the file-routed frameworks on the generic wiring share (Astro, Nuxt,
 * Nitro, TanStack Start, SolidStart): a catch-all route file under a routes
 * folder hands every request under its path to Auth.js, so doctor finds the
 * mount by walking that folder for such a file whose code reaches Auth.js.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mountPath, type ProjectFacts } from "../doctor-model/facts.js";
import { defineCheck } from "../doctor-model/finding.js";
import { posixRelative } from "../lib/posix-path.js";
import type { WiringDoctor } from "./framework.js";
import { scriptExtensions } from "./wiring-files.js";

export interface RouteLayout {
  /** Folders holding routes, relative to the project (the first that exists is the app's). */
  roots: readonly string[];
  /**
   * The URL path a catch-all route file serves, from its path inside a routes
   * folder ("api/auth/[...auth].ts" -> "/api/auth"); undefined for any other file.
   */
  catchAllPath(file: string): string | undefined;
}

/** The catch-all route files that call Auth.js (handleAuth from the session module, or @auth/core's Auth). */
export function findAuthRoutes(root: string, layout: RouteLayout): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  const walk = (base: string, dir: string, depth: number) => {
    if (depth > 8) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(base, path, depth + 1);
      else if (scriptExtensions.some((e) => entry.name.endsWith(`.${e}`))) {
        const inRoutes = posixRelative(base, path);
        const url = layout.catchAllPath(inRoutes);
        if (url !== undefined && /\b(?:handleAuth|Auth)\(/.test(readFileSync(path, "utf8")))
          found.push({ file: posixRelative(root, path), path: url });
      }
    }
  };
  for (const folder of layout.roots) {
    const base = join(root, folder);
    if (existsSync(base)) walk(base, base, 0);
  }
  return found;
}

/** The URL path of a route file's folders, with "/" for none: ["api", "auth"] -> "/api/auth". */
export const urlOf = (segments: readonly string[]) => `/${segments.filter(Boolean).join("/")}`;

/** A module that loads env files into process.env: create-auth's load-env, Node's loaders, dotenv. */
const loadsEnvFiles = /\b(?:parseEnv|loadEnvFile)\(|["']dotenv(?:\/config)?["']/;

/**
 * doctor for a framework whose Auth.js route is a catch-all route file: a
 * missing one is an error; and as its production server reads no env file,
 * a route whose modules load none while the secret comes from one is a warning.
 */
export function catchAllRouteDoctor(options: {
  id: string;
  title: string;
  /** The route file init writes, as the finding names it ("src/pages/api/auth/[...auth].ts"). */
  example: string;
  layout: RouteLayout;
}): WiringDoctor {
  const routeMissing = defineCheck(
    `${options.id}.route-missing`,
    "error",
    `${options.title}: no catch-all route hands requests to Auth.js (${options.example}).`,
  );
  const envNotLoaded = defineCheck(
    `${options.id}.env-not-loaded`,
    "warning",
    `${options.title}: its production server reads no env file, and nothing the Auth.js route imports loads them.`,
  );
  return {
    checks: [routeMissing, envNotLoaded],
    read({ root, reader }) {
      const [route] = findAuthRoutes(root, options.layout);
      if (!route) return {};
      const reached = reader.reach(join(root, route.file)).files;
      const loadsEnv = reached.some((file) => loadsEnvFiles.test(reader.read(file)?.file.text ?? ""));
      return { mount: { path: route.path, file: route.file }, loadsEnv };
    },
    run(facts: ProjectFacts) {
      if (facts.wiring.mount) {
        const secret = facts.env.AUTH_SECRET;
        if (facts.wiring.loadsEnv !== false || !secret || secret.source === "environment") return [];
        return [
          envNotLoaded.report(
            `AUTH_SECRET is set in ${secret.source}, which ${options.title}'s production server does not read: sign-in fails there with MissingSecret.`,
            "Import the env loader create-auth init writes (auth/load-env.ts) by name from the module that calls Auth.js, or set the variables in the server's environment.",
            facts.wiring.mount.file,
          ),
        ];
      }
      return [
        routeMissing.report(
          `No route file hands requests to Auth.js, so ${mountPath(facts)}/signin and every callback answer 404.`,
          `Add ${options.example} passing the request to handleAuth(request) from the session module create-auth init writes (or to Auth(request, authConfig) from @auth/core).`,
        ),
      ];
    },
  };
}
