/**
 * TanStack Start (React): the generic wiring as a server route,
 * src/routes/api/auth/$.ts, and with --protect a request middleware in
 * src/start.ts sending visitors who are not signed in to sign in. Its Node
 * server (Nitro's .output/server/index.mjs) reads no env file, so the
 * session module imports the env loader by name (kept by Nitro's build).
 */
import { containerFile } from "../../doctor/model/facts.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { fileRoutedPart, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry } from "../framework.js";

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
    const { startPackage } = request.facts;
    const part = await fileRoutedPart(request, {
      title: "TanStack Start",
      basePath,
      route: {
        path: route,
        template: "frameworks/tanstack-start/route.ts.hbs",
        data: { routerPackage: startPackage.replace("-start", "-router") },
      },
      sessionRead: "getSession(request) reads the session in a server route, server function or request middleware.",
    });
    if (!request.protect?.length) return part.wiring;
    await protectFile(request, part, {
      path: startPath,
      template: "frameworks/tanstack-start/start.ts.hbs",
      data: { startPackage },
      own: request.facts.ownStart,
      addIt: `add the middleware of this ${startPath} to its requestMiddleware`,
    });
    part.wiring.steps.push(
      "The request middleware guards each page request; a page reached by client-side navigation is not re-checked (read the session in the route's beforeLoad through a server function for that).",
    );
    return part.wiring;
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
