/**
 * SolidStart 2 (Vite plugin, Nitro): the generic wiring as an API route,
 * src/routes/api/auth/[...auth].ts; with --protect a middleware the
 * project's vite.config names, sending visitors who are not signed in to
 * sign in, and the routes in src/app.tsx wrapped to do the same for
 * client-side navigation (which no middleware sees). Not @auth/solid-start:
 * it targets SolidStart before 1.0. Its Node server
 * (.output/server/index.mjs) reads no env file, so the session module
 * imports the env loader by name (kept by Nitro's build).
 */
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { type FileRoutedPart, fileRoutedPart, nitroNodeServer, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry, type FrameworkRequest } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { addMiddlewareOption } from "./vite-config.js";

export interface SolidStartFacts {
  /** vite.config (SolidStart 2) or app.config (1.x), with its text. */
  config: { path: string; text: string } | undefined;
  /** A middleware module of the project's own at the usual places. */
  ownMiddleware: string | undefined;
  /** src/app.tsx, where the router renders FileRoutes(). */
  app: { path: string; text: string } | undefined;
}

const route = "src/routes/api/auth/[...auth].ts";
const middlewarePath = "src/middleware.ts";
const basePath = "/api/auth";
const pathsPath = (authDir: string) => `${authDir}/protected-paths.ts`;

const facts = (project: ProjectView): SolidStartFacts => {
  const path = project.configFile("vite.config") ?? project.configFile("app.config");
  const text = path ? project.read(path) : null;
  const app = existingEntry(project, "src/app");
  const appText = app ? project.read(app) : null;
  return {
    config: path && text !== null ? { path, text } : undefined,
    ownMiddleware: existingEntry(project, "src/middleware") ?? existingEntry(project, "src/middleware/index"),
    app: app && appText !== null ? { path: app, text: appText } : undefined,
  };
};

export const solidStart = defineFramework<SolidStartFacts>({
  id: "solid-start",
  title: "SolidStart",
  facts,
  shownBy: { packages: ["@solidjs/start"] },
  minimumNode: "24",
  basePath,
  envOrder: "vite",
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const part = await fileRoutedPart(request, {
      title: "SolidStart",
      basePath,
      route: { path: route, template: "frameworks/solid-start/route.ts.hbs" },
      sessionRead: "getSession(getRequestEvent()!.request) reads the session in a server function or API route.",
      protectedPathsPath: pathsPath(request.authDir),
    });
    const { wiring } = part;
    // API routes: /two-factor itself (which a catch-all does not match) and every path below it.
    for (const path of ["src/routes/two-factor/index.ts", "src/routes/two-factor/[...path].ts"])
      wiring.files.push(...(await twoFactorRoute(request, path, "frameworks/solid-start")));
    if (!request.protect?.length) return wiring;
    const { config, ownMiddleware } = request.facts;
    await protectFile(request, part, {
      path: middlewarePath,
      template: "frameworks/solid-start/middleware.ts.hbs",
      own: ownMiddleware,
      addIt: "add this middleware to its list",
    });
    await protectInApp(request, part);
    if (ownMiddleware) return wiring;
    const option = `./${middlewarePath}`;
    const edit = config ? addMiddlewareOption(config.text, option) : undefined;
    if (config && edit?.status === "edited") wiring.edits.push({ path: config.path, contents: edit.text });
    else {
      const where =
        config && edit?.status === "refused"
          ? `${config.path} was left alone (${edit.reason})`
          : "No vite.config was found";
      wiring.steps.push(
        `${where}; name the middleware where solidStart() is called: solidStart({ middleware: "${option}" }).`,
      );
    }
    return wiring;
  },
  doctor: {
    ownServer: nitroNodeServer("vite preview", "a Node server (Nitro's .output/server/index.mjs)"),
    load: () => import("./doctor.js").then((m) => m.solidStartDoctor),
  },
});

/** src/auth/protect.tsx, whose protectRoutes wraps FileRoutes() in src/app.tsx for client-side navigation. */
async function protectInApp(request: FrameworkRequest<SolidStartFacts>, part: FileRoutedPart) {
  const ext = request.importExtension;
  const protectPath = `${request.authDir}/protect.tsx`;
  const { app } = request.facts;
  const appPath = app?.path ?? "src/app.tsx";
  part.wiring.files.push({
    path: protectPath,
    contents: await renderTemplate("frameworks/solid-start/protect.tsx.hbs", {
      basePath,
      appPath,
      middlewarePath,
      pathsPath: pathsPath(request.authDir),
      pathsModule: specifier(protectPath, pathsPath(request.authDir), ext),
      sessionModule: specifier(protectPath, part.sessionPath, ext),
    }),
  });
  const importLine = `import { protectRoutes } from "${specifier(appPath, protectPath.replace(/\.tsx$/, ".ts"), ext)}";`;
  const manual = `${importLine}\n    and render the routes as {protectRoutes(FileRoutes())}`;
  const { wrapFileRoutes } = await import("../../ast/solid-start-app.js");
  const edit = app ? wrapFileRoutes(app.text, importLine, app.path) : undefined;
  if (app && edit?.status === "edited") part.wiring.edits.push({ path: app.path, contents: edit.text });
  else if (edit?.status !== "unchanged")
    part.wiring.steps.push(
      `${app ? `${app.path} was left alone (${edit?.status === "refused" ? edit.reason : ""})` : `No ${appPath} was found`}; to check pages reached by client-side navigation too, add:\n    ${manual}`,
    );
}
