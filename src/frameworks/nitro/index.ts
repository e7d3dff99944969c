/**
 * Nitro 3 (h3 2, whose event carries the Web Request as event.req): the
 * generic wiring as a catch-all route, <srcDir>/routes/api/auth/[...].ts,
 * and with --protect a middleware sending visitors who are not signed in to
 * sign in. Its Node server (.output/server/index.mjs) reads no env file and
 * its build drops a module imported for its side effects alone, so the
 * session module imports the env loader by name.
 */
import { containerFile } from "../../doctor/model/facts.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { fileRoutedPart, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry } from "../framework.js";

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
    const part = await fileRoutedPart(request, {
      title: "Nitro",
      basePath,
      route: { path: route, template: "frameworks/nitro/route.ts.hbs" },
      sessionRead: "getSession(event.req) reads the session in a route or middleware.",
    });
    if (!request.protect?.length) return part.wiring;
    await protectFile(request, part, {
      path: under(srcDir, "middleware/auth.ts"),
      template: "frameworks/nitro/middleware.ts.hbs",
      own: request.facts.ownMiddleware,
      addIt: "add a middleware such as",
    });
    return part.wiring;
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
