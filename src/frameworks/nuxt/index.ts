/**
 * Nuxt 4 (Nitro 2, h3 1): the generic wiring as a server route,
 * server/api/auth/[...].ts, turning h3's event into a Web Request; with
 * --protect a server middleware sending visitors who are not signed in to
 * sign in. Nuxt's Node server (.output/server/index.mjs) reads no env file,
 * and Nitro's build drops a module imported for its side effects alone, so
 * the session module imports the env loader by name.
 */
import { containerFile } from "../../doctor/model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework, existingEntry } from "../framework.js";
import { webStandardPart } from "../web-standard.js";

export interface NuxtFacts {
  config: string | undefined;
  /** A server middleware of the project's own named auth (server/middleware/auth.ts). */
  ownMiddleware: string | undefined;
}

const serverDir = "server";
const route = `${serverDir}/api/auth/[...].ts`;
const middlewarePath = `${serverDir}/middleware/auth.ts`;
const basePath = "/api/auth";

const facts = (project: ProjectView): NuxtFacts => ({
  config: project.configFile("nuxt.config"),
  ownMiddleware: existingEntry(project, `${serverDir}/middleware/auth`),
});

export const nuxt = defineFramework<NuxtFacts>({
  id: "nuxt",
  title: "Nuxt",
  precedence: 10,
  detect(project) {
    if (project.has("nuxt")) return { facts: facts(project), reason: "nuxt in package.json", by: "dependency" };
    const config = project.configFile("nuxt.config");
    return config ? { facts: facts(project), reason: config, by: "file" } : undefined;
  },
  assume: facts,
  dependencies: [],
  devDependencies: [],
  minimumNode: "22.19",
  app: { port: 3000, devCommand: "npm run dev" },
  basePath,
  authPackage: "@auth/core",
  envOrder: "vite",
  protects: true,
  layout: () => ({ configPath: `${serverDir}/auth.ts`, authDir: `${serverDir}/auth` }),
  async plan(request) {
    const sessionPath = `${request.authDir}/session.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Nuxt",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath: `${request.authDir}/load-env.ts`,
      envInSession: true,
      header: [
        `Nuxt: ${route} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(toWebRequest(event)) reads the session in a server route or middleware.",
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.files.push({
      path: route,
      contents: await renderTemplate("frameworks/nuxt/route.ts.hbs", {
        basePath,
        sessionModule: specifier(route, sessionPath, ext),
      }),
    });
    const protect = request.protect ?? [];
    if (!protect.length) return wiring;
    const middleware = await renderTemplate("frameworks/nuxt/middleware.ts.hbs", {
      sessionModule: specifier(middlewarePath, sessionPath, ext),
      sessionPath,
    });
    if (request.facts.ownMiddleware)
      wiring.steps.push(
        `${request.facts.ownMiddleware} is yours and was left alone; to protect ${protect.join(", ")}, add a server middleware such as:\n${middleware}`,
      );
    else wiring.files.push({ path: middlewarePath, contents: middleware });
    wiring.steps.push(
      "The server middleware guards each page request and API call; a page reached by client-side navigation is not re-checked (read the session from /api/auth/session in a route middleware for that).",
    );
    return wiring;
  },
  doctor: {
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    // nuxt build makes a Node server (.output/server/index.mjs) unless a preset says otherwise.
    ownServer: (facts) =>
      /\.output\/server\/index\.mjs|nuxt preview/.test(
        `${facts.packageJson.scripts.start ?? ""} ${facts.packageJson.scripts.preview ?? ""}`,
      )
        ? "Nuxt's Node server"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.nuxtDoctor),
  },
});
