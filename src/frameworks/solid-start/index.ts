/**
 * SolidStart 2 (Vite plugin, Nitro): the generic wiring as an API route,
 * src/routes/api/auth/[...auth].ts; with --protect a middleware the
 * project's vite.config names, sending visitors who are not signed in to
 * sign in. Not @auth/solid-start: it targets SolidStart before 1.0. Its Node
 * server (.output/server/index.mjs) reads no env file, so the session module
 * imports the env loader by name (kept by Nitro's build).
 */
import { containerFile } from "../../doctor/model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework, existingEntry } from "../framework.js";
import { webStandardPart } from "../web-standard.js";
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
    const sessionPath = `${request.authDir}/session.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "SolidStart",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath: `${request.authDir}/load-env.ts`,
      envInSession: true,
      header: [
        `SolidStart: ${route} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(getRequestEvent()!.request) reads the session in a server function or API route.",
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.files.push({
      path: route,
      contents: await renderTemplate("frameworks/solid-start/route.ts.hbs", {
        basePath,
        sessionModule: specifier(route, sessionPath, ext),
      }),
    });
    const protect = request.protect ?? [];
    if (!protect.length) return wiring;
    const middleware = await renderTemplate("frameworks/solid-start/middleware.ts.hbs", {
      sessionModule: specifier(middlewarePath, sessionPath, ext),
      sessionPath,
    });
    const { config, ownMiddleware } = request.facts;
    if (ownMiddleware) {
      wiring.steps.push(
        `${ownMiddleware} is yours and was left alone; to protect ${protect.join(", ")}, add this middleware to its list:\n${middleware}`,
      );
      return wiring;
    }
    wiring.files.push({ path: middlewarePath, contents: middleware });
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
