/** Next.js (App Router): the route handler, and with --protect a proxy.ts (16) or middleware.ts (15). */
import { posix } from "node:path";
import { renderTemplate } from "../generators/render.js";
import { configModule, type FrameworkDefinition, rootLayout, trustHostVariable } from "./framework.js";

export const next: FrameworkDefinition = {
  title: "Next.js",
  dependencies: ["next-auth"],
  devDependencies: [],
  port: 3000,
  basePath: "/api/auth",
  devCommand: "npm run dev",
  authPackage: "next-auth",
  configType: "NextAuthConfig",
  detection: { dependency: "next", configFile: "next.config" },
  layout: rootLayout,
  async plan(request, part) {
    const { facts } = request;
    const route = `${facts.appDir}/api/auth/[...nextauth]/route.ts`;
    part.routeFile = route;
    part.files.push({
      path: route,
      contents: await renderTemplate("frameworks/next-route.ts.hbs", { configModule: configModule(route, request) }),
    });
    part.instructions[route] = `export { GET, POST } from the handlers of ${request.configPath}`;
    part.env.push(trustHostVariable);
    if (!request.protect?.length) return;
    // Next.js 16 renamed middleware.ts to proxy.ts (and runs it on Node.js); it sits beside app/.
    const name = facts.nextMajor >= 16 ? "proxy.ts" : "middleware.ts";
    const path = posix.join(posix.dirname(facts.appDir), name);
    const theirs = facts.existing.find(
      (f) => /(?:^|\/)(?:middleware|proxy)\.\w+$/.test(f) && posix.dirname(f) === posix.dirname(path),
    );
    if (theirs) {
      part.notes.push(
        `${theirs} is yours and was left alone; to protect ${request.protect.join(", ")}, wrap it with auth() from ${request.configPath} (https://authjs.dev/getting-started/session-management/protecting).`,
      );
      return;
    }
    part.files.push({
      path,
      contents: await renderTemplate("frameworks/next-proxy.ts.hbs", {
        configModule: configModule(path, request),
        matcher: request.protect,
        nodeRuntime: facts.nextMajor < 16,
      }),
    });
    part.instructions[path] =
      `export default auth((request) => ...) from ${request.configPath}, with config.matcher ${JSON.stringify(request.protect)}`;
    part.notes.push(
      `${path} sends visitors who are not signed in to the sign-in page on: ${request.protect.join(", ")}`,
    );
  },
};
