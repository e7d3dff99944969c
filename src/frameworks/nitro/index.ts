/**
 * Nitro 3 (h3 2, whose event carries the Web Request as event.req): the
 * generic wiring as a catch-all route, <srcDir>/routes/api/auth/[...].ts,
 * and with --protect a middleware sending visitors who are not signed in to
 * sign in. Its Node server (.output/server/index.mjs) reads no env file and
 * its build drops a module imported for its side effects alone, so the
 * session module imports the env loader by name.
 */
import { containerFile } from "../../doctor/model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework, existingEntry } from "../framework.js";
import { webStandardPart } from "../web-standard.js";

export interface NitroFacts {
  config: string | undefined;
  /** Where routes/ and middleware/ are: the config's srcDir, else server/ when it holds routes, else the root. */
  srcDir: string;
  /** A middleware of the project's own named auth. */
  ownMiddleware: string | undefined;
}

const basePath = "/api/auth";
const under = (dir: string, path: string) => (dir ? `${dir}/${path}` : path);

const facts = (project: ProjectView): NitroFacts => {
  const config = project.configFile("nitro.config");
  const configured = /\bsrcDir\s*:\s*["'](?:\.\/)?([^"']*?)\/?["']/.exec((config && project.read(config)) ?? "")?.[1];
  const srcDir = configured ?? (project.isDir("server/routes") || project.isDir("server/api") ? "server" : "");
  return { config, srcDir, ownMiddleware: existingEntry(project, under(srcDir, "middleware/auth")) };
};

export const nitro = defineFramework<NitroFacts>({
  id: "nitro",
  title: "Nitro",
  // Nuxt, TanStack Start and SolidStart run on Nitro: an app showing one of them is theirs.
  precedence: 5,
  detect(project) {
    if (project.has("nitro")) return { facts: facts(project), reason: "nitro in package.json", by: "dependency" };
    const config = project.configFile("nitro.config");
    return config ? { facts: facts(project), reason: config, by: "file" } : undefined;
  },
  assume: facts,
  dependencies: [],
  devDependencies: [],
  app: { port: 3000, devCommand: "npm run dev" },
  basePath,
  authPackage: "@auth/core",
  envOrder: "vite",
  protects: true,
  layout: (facts) => ({ configPath: under(facts.srcDir, "auth.ts"), authDir: under(facts.srcDir, "auth") }),
  async plan(request) {
    const { srcDir } = request.facts;
    const route = under(srcDir, "routes/api/auth/[...].ts");
    const middlewarePath = under(srcDir, "middleware/auth.ts");
    const sessionPath = `${request.authDir}/session.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Nitro",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath: `${request.authDir}/load-env.ts`,
      envInSession: true,
      header: [
        `Nitro: ${route} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(event.req) reads the session in a route or middleware.",
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.files.push({
      path: route,
      contents: await renderTemplate("frameworks/nitro/route.ts.hbs", {
        basePath,
        sessionModule: specifier(route, sessionPath, ext),
      }),
    });
    const protect = request.protect ?? [];
    if (!protect.length) return wiring;
    const middleware = await renderTemplate("frameworks/nitro/middleware.ts.hbs", {
      sessionModule: specifier(middlewarePath, sessionPath, ext),
      sessionPath,
    });
    if (request.facts.ownMiddleware)
      wiring.steps.push(
        `${request.facts.ownMiddleware} is yours and was left alone; to protect ${protect.join(", ")}, add a middleware such as:\n${middleware}`,
      );
    else wiring.files.push({ path: middlewarePath, contents: middleware });
    return wiring;
  },
  doctor: {
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    ownServer: (facts) =>
      /\.output\/server\/index\.mjs|nitro preview/.test(
        `${facts.packageJson.scripts.start ?? ""} ${facts.packageJson.scripts.preview ?? ""}`,
      )
        ? "Nitro's Node server"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.nitroDoctor),
  },
});
