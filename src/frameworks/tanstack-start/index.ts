/**
 * TanStack Start (React): the generic wiring as a server route,
 * src/routes/api/auth/$.ts, and with --protect a request middleware in
 * src/start.ts sending visitors who are not signed in to sign in. Its Node
 * server (Nitro's .output/server/index.mjs) reads no env file, so the
 * session module imports the env loader by name (kept by Nitro's build).
 */
import { containerFile } from "../../doctor/model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework, existingEntry } from "../framework.js";
import { webStandardPart } from "../web-standard.js";

export interface TanStackStartFacts {
  /** The package its imports come from: @tanstack/react-start (or solid-start). */
  startPackage: string;
  /** src/start.ts of the project's own: where request middleware is registered. */
  ownStart: string | undefined;
}

const startPackages = ["@tanstack/react-start", "@tanstack/solid-start"];
const route = "src/routes/api/auth/$.ts";
const startPath = "src/start.ts";
const basePath = "/api/auth";

const facts = (project: ProjectView): TanStackStartFacts => ({
  startPackage: startPackages.find((name) => project.has(name)) ?? startPackages[0]!,
  ownStart: existingEntry(project, "src/start"),
});

export const tanstackStart = defineFramework<TanStackStartFacts>({
  id: "tanstack-start",
  title: "TanStack Start",
  precedence: 10,
  detect(project) {
    const found = startPackages.find((name) => project.has(name));
    return found ? { facts: facts(project), reason: `${found} in package.json`, by: "dependency" } : undefined;
  },
  assume: facts,
  dependencies: [],
  devDependencies: [],
  minimumNode: "22.12",
  app: { port: 3000, devCommand: "npm run dev" },
  basePath,
  authPackage: "@auth/core",
  envOrder: "vite",
  protects: true,
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const sessionPath = `${request.authDir}/session.ts`;
    const ext = request.importExtension;
    const { startPackage } = request.facts;
    const routerPackage = startPackage.replace("-start", "-router");
    const wiring = await webStandardPart(request, {
      title: "TanStack Start",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath: `${request.authDir}/load-env.ts`,
      envInSession: true,
      header: [
        `TanStack Start: ${route} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(request) reads the session in a server route, server function or request middleware.",
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.files.push({
      path: route,
      contents: await renderTemplate("frameworks/tanstack-start/route.ts.hbs", {
        basePath,
        routerPackage,
        sessionModule: specifier(route, sessionPath, ext),
      }),
    });
    const protect = request.protect ?? [];
    if (!protect.length) return wiring;
    const start = await renderTemplate("frameworks/tanstack-start/start.ts.hbs", {
      startPackage,
      sessionPath,
      sessionModule: specifier(startPath, sessionPath, ext),
    });
    if (request.facts.ownStart)
      wiring.steps.push(
        `${request.facts.ownStart} is yours and was left alone; to protect ${protect.join(", ")}, add the middleware of this ${startPath} to its requestMiddleware:\n${start}`,
      );
    else wiring.files.push({ path: startPath, contents: start });
    wiring.steps.push(
      "The request middleware guards each page request; a page reached by client-side navigation is not re-checked (read the session in the route's beforeLoad through a server function for that).",
    );
    return wiring;
  },
  doctor: {
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    ownServer: (facts) =>
      /\.output\/server\/index\.mjs|vite preview/.test(
        `${facts.packageJson.scripts.start ?? ""} ${facts.packageJson.scripts.preview ?? ""}`,
      )
        ? "a Node server (Nitro's .output/server/index.mjs)"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.tanstackStartDoctor),
  },
});
