/**
 * SolidStart 2 (Vite plugin, Nitro): the generic wiring as an API route,
 * src/routes/api/auth/[...auth].ts; with --protect a middleware the
 * project's vite.config names, sending visitors who are not signed in to
 * sign in. Not @auth/solid-start: it targets SolidStart before 1.0. Its Node
 * server (.output/server/index.mjs) reads no env file, so the session module
 * imports the env loader by name (kept by Nitro's build).
 */
import { containerFile } from "../../doctor/model/facts.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { fileRoutedPart, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry } from "../framework.js";
import { addMiddlewareOption } from "./vite-config.js";

export interface SolidStartFacts {
  /** vite.config (SolidStart 2) or app.config (1.x), with its text. */
  config: { path: string; text: string } | undefined;
  /** A middleware module of the project's own at the usual places. */
  ownMiddleware: string | undefined;
}

const route = "src/routes/api/auth/[...auth].ts";
const middlewarePath = "src/middleware.ts";
const basePath = "/api/auth";

const facts = (project: ProjectView): SolidStartFacts => {
  const path = project.configFile("vite.config") ?? project.configFile("app.config");
  const text = path ? project.read(path) : null;
  return {
    config: path && text !== null ? { path, text } : undefined,
    ownMiddleware: existingEntry(project, "src/middleware") ?? existingEntry(project, "src/middleware/index"),
  };
};

export const solidStart = defineFramework<SolidStartFacts>({
  id: "solid-start",
  title: "SolidStart",
  precedence: 10,
  detect: (project) =>
    project.has("@solidjs/start")
      ? { facts: facts(project), reason: "@solidjs/start in package.json", by: "dependency" }
      : undefined,
  assume: facts,
  dependencies: [],
  devDependencies: [],
  minimumNode: "24",
  app: { port: 3000, devCommand: "npm run dev" },
  basePath,
  authPackage: "@auth/core",
  envOrder: "vite",
  protects: true,
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const part = await fileRoutedPart(request, {
      title: "SolidStart",
      basePath,
      route: { path: route, template: "frameworks/solid-start/route.ts.hbs" },
      sessionRead: "getSession(getRequestEvent()!.request) reads the session in a server function or API route.",
    });
    const { wiring } = part;
    if (!request.protect?.length) return wiring;
    const { config, ownMiddleware } = request.facts;
    await protectFile(request, part, {
      path: middlewarePath,
      template: "frameworks/solid-start/middleware.ts.hbs",
      own: ownMiddleware,
      addIt: "add this middleware to its list",
    });
    if (ownMiddleware) return wiring;
    wiring.steps.push(
      "The middleware guards each page request; a page reached by client-side navigation is not re-checked (read the session in a server function the page calls for that).",
    );
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
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    ownServer: (facts) =>
      /\.output\/server\/index\.mjs|vite preview/.test(
        `${facts.packageJson.scripts.start ?? ""} ${facts.packageJson.scripts.preview ?? ""}`,
      )
        ? "a Node server (Nitro's .output/server/index.mjs)"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.solidStartDoctor),
  },
});
