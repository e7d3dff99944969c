/**
 * Astro with an on-demand adapter (@astrojs/node...): the generic wiring as
 * an API route, src/pages/api/auth/[...auth].ts, and with --protect a
 * middleware sending visitors who are not signed in to sign in. Not
 * auth-astro: its 4.x peers @auth/core ^0.37 (npm refuses 0.41) and it
 * inlines AUTH_SECRET into the server build. Astro's Node server reads no
 * env file, so the config loads them itself.
 */
import { containerFile } from "../../doctor-model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework, existingEntry, type OwnFile, ownFile } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { pathPattern, webStandardPart } from "../web-standard.js";
import { ownMiddlewareEdit } from "./middleware.js";
import { type AstroPage, onDemandEdits, pagesOf } from "./pages.js";

export interface AstroFacts {
  config: string | undefined;
  /** `output: "server"` in the config: every page is rendered on demand already. */
  serverOutput: boolean;
  /** An adapter in the config (@astrojs/node...): without one, nothing is rendered on demand, not even the auth route. */
  adapter: boolean;
  /** src/middleware.ts (or middleware/index.ts) of the project's own, into which the check is composed. */
  ownMiddleware: OwnFile | undefined;
  /** The pages under src/pages, for --protect: a prerendered page never sees a visitor. */
  pages: AstroPage[];
}

const configBase = "astro.config";
const astroRoute = "src/pages/api/auth/[...auth].ts";
const basePath = "/api/auth";

const facts = (project: ProjectView): AstroFacts => {
  const config = project.configFile(configBase);
  const text = (config && project.read(config)) ?? "";
  return {
    config,
    serverOutput: /\boutput\s*:\s*["']server["']/.test(text),
    adapter: /\badapter\s*:/.test(text),
    ownMiddleware: ownFile(
      project,
      existingEntry(project, "src/middleware") ?? existingEntry(project, "src/middleware/index"),
    ),
    pages: pagesOf(project),
  };
};

export const astro = defineFramework<AstroFacts>({
  id: "astro",
  title: "Astro",
  facts,
  shownBy: { packages: ["astro"], config: configBase },
  minimumNode: "22.12",
  app: { port: 4321 },
  basePath,
  envOrder: "vite",
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const sessionPath = `${request.authDir}/session.ts`;
    const loadEnvPath = `${request.authDir}/load-env.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Astro",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath,
      header: [
        `Astro: ${astroRoute} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(Astro.request) reads the session in a page or endpoint rendered on demand.",
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.config.first.push(
      "// First: Astro's Node server reads no env file, so the config loads them (a variable already set wins).",
      `import "${specifier(request.configPath, loadEnvPath, ext)}";`,
    );
    wiring.files.push({
      path: astroRoute,
      contents: await renderTemplate("frameworks/astro/route.ts.hbs", {
        basePath,
        sessionModule: specifier(astroRoute, sessionPath, ext),
      }),
    });
    wiring.files.push(...(await twoFactorRoute(request, "src/pages/two-factor/[...path].ts", "frameworks/astro")));
    if (!request.facts.adapter)
      wiring.steps.push(
        `Auth.js's route is rendered on demand, which needs an adapter: add one (npx astro add node) to ${request.facts.config ?? "astro.config.mjs"}.`,
      );
    const protect = request.protect ?? [];
    if (!protect.length) return wiring;
    const own = request.facts.ownMiddleware;
    const middlewarePath = own?.path ?? "src/middleware.ts";
    const protectPath = `${request.authDir}/protect.ts`;
    wiring.files.push({
      path: protectPath,
      contents: await renderTemplate("frameworks/astro/protect.ts.hbs", {
        sessionModule: specifier(protectPath, sessionPath, ext),
        sessionPath,
        middlewarePath,
      }),
    });
    const protectModule = specifier(middlewarePath, protectPath, ext);
    if (own) await ownMiddlewareEdit(wiring, own, protectModule);
    else
      wiring.files.push({
        path: middlewarePath,
        contents: await renderTemplate("frameworks/astro/middleware.ts.hbs", { protectModule }),
      });
    if (!request.facts.serverOutput) {
      const patterns = protect.map((p) => new RegExp(pathPattern(p).slice(1, -1)));
      const { edits, steps } = onDemandEdits(request.facts.pages, patterns);
      wiring.edits.push(...edits);
      wiring.steps.push(...steps);
    }
    return wiring;
  },
  doctor: {
    ownServer: (facts) => ("@astrojs/node" in facts.packageJson.dependencies ? "@astrojs/node" : containerFile(facts)),
    load: () => import("./doctor.js").then((m) => m.astroDoctor),
  },
});
