/**
 * Nuxt 4 (Nitro 2, h3 1): the generic wiring as a server route,
 * server/api/auth/[...].ts, turning h3's event into a Web Request; with
 * --protect a server middleware sending visitors who are not signed in to
 * sign in, and a global route middleware doing the same for client-side
 * navigation (which no server middleware sees), the paths in shared/ for
 * both. Nuxt's Node server (.output/server/index.mjs) reads no env file,
 * and Nitro's build drops a module imported for its side effects alone, so
 * the session module imports the env loader by name.
 */
import type { ProjectView } from "../../workspace/project-view.js";
import { fileRoutedPart, nitroNodeServer, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";

export interface NuxtFacts {
  config: string | undefined;
  /** A server middleware of the project's own named auth (server/middleware/auth.ts). */
  ownMiddleware: string | undefined;
  /** Nuxt 4's srcDir: app/, or the root when there is none (Nuxt 3's layout). */
  srcDir: string;
  /** A route middleware of the project's own named auth.global. */
  ownRouteMiddleware: string | undefined;
}

const serverDir = "server";
const route = `${serverDir}/api/auth/[...].ts`;
const middlewarePath = `${serverDir}/middleware/auth.ts`;
const basePath = "/api/auth";
// shared/ is Nuxt 4's folder for code of both the app and the server.
const pathsPath = "shared/auth/protected-paths.ts";
const routeMiddlewareIn = (srcDir: string) => `${srcDir ? `${srcDir}/` : ""}middleware/auth.global`;

const facts = (project: ProjectView): NuxtFacts => {
  const srcDir = project.isDir("app") ? "app" : "";
  return {
    config: project.configFile("nuxt.config"),
    ownMiddleware: existingEntry(project, `${serverDir}/middleware/auth`),
    srcDir,
    ownRouteMiddleware: existingEntry(project, routeMiddlewareIn(srcDir)),
  };
};

export const nuxt = defineFramework<NuxtFacts>({
  id: "nuxt",
  title: "Nuxt",
  facts,
  shownBy: { packages: ["nuxt"], config: "nuxt.config" },
  minimumNode: "22.19",
  basePath,
  envOrder: "vite",
  layout: () => ({ configPath: `${serverDir}/auth.ts`, authDir: `${serverDir}/auth` }),
  async plan(request) {
    const part = await fileRoutedPart(request, {
      title: "Nuxt",
      basePath,
      route: { path: route, template: "frameworks/h3-1/route.ts.hbs" },
      sessionRead: "getSession(toWebRequest(event)) reads the session in a server route or middleware.",
      protectedPathsPath: pathsPath,
    });
    // Nitro's [...] matches the paths below its folder; the folder's own path is a route of its own.
    for (const path of ["routes/two-factor.ts", "routes/two-factor/[...].ts"])
      part.wiring.files.push(...(await twoFactorRoute(request, `${serverDir}/${path}`, "frameworks/h3-1")));
    if (!request.protect?.length) return part.wiring;
    await protectFile(request, part, {
      path: middlewarePath,
      template: "frameworks/h3-1/middleware.ts.hbs",
      own: request.facts.ownMiddleware,
      addIt: "add a server middleware such as",
    });
    const routeMiddleware = `${routeMiddlewareIn(request.facts.srcDir)}.ts`;
    await protectFile(request, part, {
      path: routeMiddleware,
      template: "frameworks/nuxt/route-middleware.ts.hbs",
      data: { basePath, pathsPath, pathsModule: `#${pathsPath.replace(/\.ts$/, "")}` },
      own: request.facts.ownRouteMiddleware,
      addIt: "add to it what this route middleware does, for pages reached by client-side navigation",
    });
    return part.wiring;
  },
  doctor: {
    // nuxt build makes a Node server (.output/server/index.mjs) unless a preset says otherwise.
    ownServer: nitroNodeServer("nuxt preview", "Nuxt's Node server"),
    load: () => import("./doctor.js").then((m) => m.nuxtDoctor),
  },
});
