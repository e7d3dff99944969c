/**
 * doctor for React Router: the resource route that hands requests to
 * Auth.js (a module under app/routes/ whose loader calls it), and, where the
 * app lists its routes in app/routes.ts, that it is listed there.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { mountPath } from "../../doctor-model/facts.js";
import { defineCheck } from "../../doctor-model/finding.js";
import type { WiringDoctor } from "../framework.js";
import { reactRouterFacts } from "./facts.js";

const routeMissing = defineCheck(
  "react-router.route-missing",
  "error",
  "React Router: no resource route hands requests to Auth.js (app/routes/api.auth.$.ts).",
);
const routeUnlisted = defineCheck(
  "react-router.route-unlisted",
  "error",
  "React Router: the auth route is not in app/routes.ts, so the app never serves it.",
);

export const reactRouterDoctor: WiringDoctor = {
  checks: [routeMissing, routeUnlisted],
  read({ root, project }) {
    const { appDir, routesFile } = reactRouterFacts(project);
    let names: string[] = [];
    try {
      names = readdirSync(join(root, appDir, "routes"));
    } catch {}
    const route = names
      .map((name) => `${appDir}/routes/${name}`)
      .find((path) => /\.[cm]?[jt]sx?$/.test(path) && /\b(?:handleAuth|Auth)\(/.test(project.read(path) ?? ""));
    const file = route?.slice(appDir.length + 1);
    const listed =
      !routesFile ||
      /\bflatRoutes\s*\(/.test(routesFile.text) ||
      (file !== undefined && routesFile.text.includes(file));
    return { route, routesFile: routesFile?.path, listed };
  },
  run(facts) {
    const { route, routesFile, listed } = facts.wiring as { route?: string; routesFile?: string; listed: boolean };
    if (!route)
      return [
        routeMissing.report(
          `No module under app/routes/ hands requests to Auth.js, so ${mountPath(facts)}/signin and every callback answer 404.`,
          "Add app/routes/api.auth.$.ts exporting loader and action that return handleAuth(request) (from the session module create-auth init writes), and list it in app/routes.ts.",
        ),
      ];
    if (!listed)
      return [
        routeUnlisted.report(
          `${route} hands requests to Auth.js, but ${routesFile} does not list it.`,
          `In ${routesFile}'s array: route("${mountPath(facts).slice(1)}/*", "${route.split("/").slice(1).join("/")}").`,
          routesFile,
        ),
      ];
    return [];
  },
};
