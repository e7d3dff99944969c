/**
 * Nitro 3 (the nitro package, h3 2, whose event carries the Web Request as
 * event.req) and Nitro 2 (nitropack, h3 1, whose auto-imported
 * toWebRequest(event) makes one, as in Nuxt): the generic wiring as a
 * catch-all route, <srcDir>/routes/api/auth/[...].ts, and with --protect a
 * middleware sending visitors who are not signed in to sign in. Both Node
 * servers (.output/server/index.mjs) read no env file and both builds drop a
 * module imported for its side effects alone, so the session module imports
 * the env loader by name.
 */
import type { ProjectView } from "../../workspace/project-view.js";
import { fileRoutedPart, nitroNodeServer, protectFile } from "../file-routed.js";
import { defineFramework, existingEntry } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";

export interface NitroFacts {
  config: string | undefined;
  /** Where routes/ and middleware/ are: the config's srcDir, else server/ when it holds routes, else the root. */
  srcDir: string;
  /** A middleware of the project's own named auth. */
  ownMiddleware: string | undefined;
  /** 2 for nitropack (h3 1), 3 for nitro (h3 2): which h3 the generated route and middleware are written for. */
  major: 2 | 3;
}

const basePath = "/api/auth";
const under = (dir: string, path: string) => (dir ? `${dir}/${path}` : path);

/** Nitro 2 when the app depends on nitropack and not on nitro, or, with neither, its config imports nitropack. */
const majorOf = (project: ProjectView, configText: string): 2 | 3 => {
  if (project.has("nitro")) return 3;
  if (project.has("nitropack")) return 2;
  return /["']nitropack(?:\/config)?["']/.test(configText) ? 2 : 3;
};

const facts = (project: ProjectView): NitroFacts => {
  const config = project.configFile("nitro.config");
  const configText = (config && project.read(config)) ?? "";
  const configured = /\bsrcDir\s*:\s*["'](?:\.\/)?([^"']*?)\/?["']/.exec(configText)?.[1];
  const srcDir = configured ?? (project.isDir("server/routes") || project.isDir("server/api") ? "server" : "");
  return {
    config,
    srcDir,
    ownMiddleware: existingEntry(project, under(srcDir, "middleware/auth")),
    major: majorOf(project, configText),
  };
};

/** The templates and the session read of each major: Nitro 2's h3 1 ones are Nuxt's, auto-imported as there. */
const h3Of = {
  2: {
    templates: "frameworks/h3-1",
    sessionRead: "getSession(toWebRequest(event)) reads the session in a route or middleware.",
  },
  3: {
    templates: "frameworks/nitro",
    sessionRead: "getSession(event.req) reads the session in a route or middleware.",
  },
} as const;

export const nitro = defineFramework<NitroFacts>({
  id: "nitro",
  title: "Nitro",
  // Nuxt, TanStack Start and SolidStart run on Nitro: an app showing one of them is theirs.
  precedence: 5,
  facts,
  shownBy: { packages: ["nitro", "nitropack"], config: "nitro.config" },
  basePath,
  envOrder: "vite",
  layout: (facts) => ({ configPath: under(facts.srcDir, "auth.ts"), authDir: under(facts.srcDir, "auth") }),
  async plan(request) {
    const { srcDir, major } = request.facts;
    const { templates, sessionRead } = h3Of[major];
    const route = under(srcDir, "routes/api/auth/[...].ts");
    const part = await fileRoutedPart(request, {
      title: "Nitro",
      basePath,
      route: { path: route, template: `${templates}/route.ts.hbs` },
      sessionRead,
    });
    // Nitro's [...] matches the paths below its folder; the folder's own path is a route of its own.
    for (const path of ["routes/two-factor.ts", "routes/two-factor/[...].ts"])
      part.wiring.files.push(...(await twoFactorRoute(request, under(srcDir, path), templates)));
    if (!request.protect?.length) return part.wiring;
    await protectFile(request, part, {
      path: under(srcDir, "middleware/auth.ts"),
      template: `${templates}/middleware.ts.hbs`,
      own: request.facts.ownMiddleware,
      addIt: "add a middleware such as",
    });
    return part.wiring;
  },
  doctor: {
    ownServer: nitroNodeServer("nitro preview", "Nitro's Node server"),
    load: () => import("./doctor.js").then((m) => m.nitroDoctor),
  },
});
