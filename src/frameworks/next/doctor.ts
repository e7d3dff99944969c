/**
 * doctor for Next.js: the route handlers serving Auth.js ([...nextauth],
 * App Router or Pages Router) and the path each serves, and the middleware
 * or proxy modules with their runtime and the packages they pull in.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { mountPath, type ProjectFacts } from "../../doctor-model/facts.js";
import { defineCheck, type Finding } from "../../doctor-model/finding.js";
import type { WiringContext, WiringDoctor } from "../framework.js";
import { nodeOnlyPackages, scriptExtensions } from "../wiring-files.js";

interface NextWiring {
  /** The App Router folder, where the route handler belongs. */
  appDir: string;
  routes: { file: string; path: string }[];
  middleware: { file: string; runtime: "edge" | "nodejs"; importsConfig: boolean; packages: string[] }[];
}

const routeMissing = defineCheck(
  "next.route-missing",
  "error",
  "Next.js: no route handler serves Auth.js (app/api/auth/[...nextauth]/route.ts).",
);
const routeMismatch = defineCheck(
  "next.route-mismatch",
  "error",
  "Next.js: the route handler is at another path than Auth.js's mount.",
);
const edgeNode = defineCheck(
  "middleware.edge-node",
  "error",
  "Next.js middleware on the edge runtime imports a config whose adapter needs Node.js (a database driver).",
);

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** `[...nextauth]` route handlers under app/ or src/app/ (and the Pages Router's), with the URL path each serves. */
function routes(root: string): NextWiring["routes"] {
  const found: NextWiring["routes"] = [];
  const walk = (dir: string, urlPath: string, depth: number) => {
    if (depth > 8) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (/^\[\.\.\.\w+\]$/.test(entry.name)) {
        const route = scriptExtensions.map((e) => join(path, `route.${e}`)).find(isFile);
        if (route) found.push({ file: relative(root, route), path: urlPath || "/" });
        continue;
      }
      // Route groups "(name)" add no URL segment; private folders "_name" are not routes.
      if (entry.name.startsWith("_")) continue;
      const segment = /^\(.*\)$/.test(entry.name) ? "" : `/${entry.name}`;
      walk(path, `${urlPath}${segment}`, depth + 1);
    }
  };
  for (const app of ["app", "src/app"]) if (isDir(join(root, app))) walk(join(root, app), "", 0);
  for (const pages of ["pages/api/auth", "src/pages/api/auth"]) {
    const file = scriptExtensions.map((e) => join(root, pages, `[...nextauth].${e}`)).find(isFile);
    if (file) found.push({ file: relative(root, file), path: "/api/auth" });
  }
  return found;
}

function middleware({ root, configPath, reader }: WiringContext): NextWiring["middleware"] {
  const out: NextWiring["middleware"] = [];
  for (const dir of ["", "src"]) {
    for (const base of ["middleware", "proxy"]) {
      const path = scriptExtensions.map((e) => join(root, dir, `${base}.${e}`)).find(isFile);
      if (!path) continue;
      const module = reader.read(path);
      if (!module) continue;
      // proxy.ts (Next.js 16) always runs on Node.js; middleware.ts on the edge unless its config says "nodejs".
      const declaresNode = /\bruntime\s*:\s*["']nodejs["']/.test(module.file.text);
      const reach = reader.reach(path);
      out.push({
        file: relative(root, path),
        runtime: base === "proxy" || declaresNode ? "nodejs" : "edge",
        importsConfig: reach.files.includes(configPath),
        packages: reach.packages,
      });
    }
  }
  return out;
}

function findings(facts: ProjectFacts): Finding[] {
  const wiring = facts.wiring as unknown as NextWiring;
  const found: Finding[] = [];
  const mount = mountPath(facts);
  if (wiring.routes.length === 0)
    found.push(
      routeMissing.report(
        `No route handler serves Auth.js: requests to ${mount} get Next.js's 404.`,
        `Create ${wiring.appDir}${mount}/[...nextauth]/route.ts with: export const { GET, POST } = handlers (imported from ${facts.config.file}). https://authjs.dev/getting-started/installation?framework=next.js`,
      ),
    );
  else if (!wiring.routes.some((r) => r.path === mount))
    found.push(
      routeMismatch.report(
        `The route handler ${wiring.routes[0]!.file} serves ${wiring.routes[0]!.path}, but Auth.js answers at ${mount}: sign-in links 404 or fail with UnknownAction.`,
        `Move it to ${wiring.appDir}${mount}/[...nextauth]/route.ts, or set basePath: "${wiring.routes[0]!.path}" in the auth config.`,
        wiring.routes[0]!.file,
      ),
    );
  for (const file of wiring.middleware) {
    const drivers = file.packages.filter((p) => nodeOnlyPackages.includes(p));
    if (file.runtime !== "edge" || drivers.length === 0) continue;
    found.push(
      edgeNode.report(
        `${file.file} runs on the edge runtime and imports ${drivers.join(", ")}${file.importsConfig ? " through the auth config" : ""}, which needs Node.js: the middleware fails to build or crashes.`,
        `Split the config: auth.config.ts without the adapter for the middleware, auth.ts adding it (https://authjs.dev/guides/edge-compatibility), or on Next.js 15.5+ add runtime: "nodejs" to the middleware's config.`,
        file.file,
      ),
    );
  }
  return found;
}

export const nextDoctor: WiringDoctor = {
  checks: [routeMissing, routeMismatch, edgeNode],
  read(context) {
    const appDir = isDir(join(context.root, "app")) ? "app" : context.project.srcDir ? "src/app" : "app";
    const wiring: NextWiring = { appDir, routes: routes(context.root), middleware: middleware(context) };
    return { ...wiring };
  },
  run: findings,
};
