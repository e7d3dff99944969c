/**
 * TanStack Start (React): the generic wiring as a server route,
 * src/routes/api/auth/$.ts, and with --protect a request middleware in
 * src/start.ts sending visitors who are not signed in to sign in, and the
 * root route's beforeLoad doing the same for client-side navigation (which no
 * request middleware sees), the paths in one module for both. Its Node
 * server (Nitro's .output/server/index.mjs) reads no env file, so the
 * session module imports the env loader by name (kept by Nitro's build).
 */
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { type FileRoutedPart, fileRoutedPart, nitroNodeServer, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry, type FrameworkRequest } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";

export interface TanStackStartFacts {
  /** The package its imports come from: @tanstack/react-start (or solid-start). */
  startPackage: string;
  /** src/start.ts of the project's own: where request middleware is registered. */
  ownStart: string | undefined;
  /** The root route (src/routes/__root.tsx), whose beforeLoad runs before every navigation. */
  rootRoute: { path: string; text: string } | undefined;
}

const startPackages = ["@tanstack/react-start", "@tanstack/solid-start"];
const route = "src/routes/api/auth/$.ts";
const startPath = "src/start.ts";
const basePath = "/api/auth";

const facts = (project: ProjectView): TanStackStartFacts => {
  const root = existingEntry(project, "src/routes/__root");
  const text = root ? project.read(root) : null;
  return {
    startPackage: startPackages.find((name) => project.has(name)) ?? startPackages[0]!,
    ownStart: existingEntry(project, "src/start"),
    rootRoute: root && text !== null ? { path: root, text } : undefined,
  };
};

export const tanstackStart = defineFramework<TanStackStartFacts>({
  id: "tanstack-start",
  title: "TanStack Start",
  facts,
  shownBy: { packages: startPackages },
  minimumNode: "22.12",
  basePath,
  envOrder: "vite",
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const { startPackage } = request.facts;
    const routerPackage = startPackage.replace("-start", "-router");
    const pathsPath = `${request.authDir}/protected-paths.ts`;
    const part = await fileRoutedPart(request, {
      title: "TanStack Start",
      basePath,
      route: {
        path: route,
        template: "frameworks/tanstack-start/route.ts.hbs",
        data: { routerPackage, startPackage },
      },
      sessionRead: "getSession(request) reads the session in a server route, server function or request middleware.",
      protectedPathsPath: pathsPath,
    });
    // Server routes: /two-factor itself (which a splat route does not match) and every path below it.
    const routes = { "src/routes/two-factor/index.ts": "/two-factor/", "src/routes/two-factor/$.ts": "/two-factor/$" };
    for (const [path, routePath] of Object.entries(routes))
      part.wiring.files.push(
        ...(await twoFactorRoute(request, path, "frameworks/tanstack-start", {
          routerPackage,
          startPackage,
          routePath,
        })),
      );
    if (!request.protect?.length) return part.wiring;
    await protectFile(request, part, {
      path: startPath,
      template: "frameworks/tanstack-start/start.ts.hbs",
      data: { startPackage },
      own: request.facts.ownStart,
      addIt: `add the middleware of this ${startPath} to its requestMiddleware`,
    });
    await protectInRoot(request, part, { routerPackage, pathsPath });
    return part.wiring;
  },
  doctor: {
    ownServer: nitroNodeServer("vite preview", "a Node server (Nitro's .output/server/index.mjs)"),
    load: () => import("./doctor.js").then((m) => m.tanstackStartDoctor),
  },
});

/** src/auth/protect.ts, the root route's beforeLoad for client-side navigation, and its line in src/routes/__root.tsx. */
async function protectInRoot(
  request: FrameworkRequest<TanStackStartFacts>,
  part: FileRoutedPart,
  { routerPackage, pathsPath }: { routerPackage: string; pathsPath: string },
) {
  const ext = request.importExtension;
  const protectPath = `${request.authDir}/protect.ts`;
  part.wiring.files.push({
    path: protectPath,
    contents: await renderTemplate("frameworks/tanstack-start/protect.ts.hbs", {
      basePath,
      startPath,
      pathsPath,
      routerPackage,
      startPackage: request.facts.startPackage,
      pathsModule: specifier(protectPath, pathsPath, ext),
      sessionModule: specifier(protectPath, part.sessionPath, ext),
    }),
  });
  const { rootRoute } = request.facts;
  const root = rootRoute?.path ?? "src/routes/__root.tsx";
  const importLine = `import { protectPages } from "${specifier(root, protectPath, ext)}";`;
  const manual = `${importLine}\n    and in createRootRoute's options: beforeLoad: protectPages (or await protectPages({ location }) in your beforeLoad)`;
  if (!rootRoute) {
    part.wiring.steps.push(
      `No ${root} was found; to check pages reached by client-side navigation too, in the root route add:\n    ${manual}`,
    );
    return;
  }
  const { addRootBeforeLoad } = await import("../../ast/tanstack-root-route.js");
  const edit = addRootBeforeLoad(rootRoute.text, importLine, "protectPages", rootRoute.path);
  if (edit.status === "edited") part.wiring.edits.push({ path: rootRoute.path, contents: edit.text });
  else if (edit.status === "refused")
    part.wiring.steps.push(
      `${rootRoute.path} was left alone (${edit.reason}); to check pages reached by client-side navigation too, add:\n    ${manual}`,
    );
}
