/**
 * Express: Auth.js's routes as one router (auth/express.ts: the mount at
 * /auth, and with --protect the pages that need a session), used by the
 * project's own server where it has one (the module that creates the app,
 * followed from the entry) or by a runnable server.ts init writes.
 */
import { posix } from "node:path";
import { loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressFile, clientAddressPath } from "../client-address.js";
import { defineFramework, plainConfig, trustHostVariable } from "../framework.js";
import { findServerEntry, mountInEntry, type ServerEntry, serverLayout } from "../server-entry.js";
import { pathPattern } from "../web-standard.js";

export interface ExpressFacts {
  /** The module that starts the project's own server, when it has one. */
  entry: ServerEntry | undefined;
}

const facts = (project: ProjectView): ExpressFacts => ({ entry: findServerEntry(project) });

export const express = defineFramework<ExpressFacts>({
  id: "express",
  title: "Express",
  precedence: 5,
  facts,
  shownBy: { packages: ["express"] },
  dependencies: ["@auth/express", "express"],
  devDependencies: ["@types/express"],
  basePath: "/auth",
  authPackage: "@auth/express",
  envOrder: "next",
  runsModulesAsWritten: true,
  layout: (facts, project) => serverLayout(facts.entry, project),
  async plan(request) {
    const { facts, configPath, authDir, importExtension: ext } = request;
    const loadEnv = `${authDir}/load-env.ts`;
    const routesPath = `${authDir}/express.ts`;
    const server = facts.entry?.path ?? posix.join(posix.dirname(configPath), "server.ts");
    const wiring = {
      ...part({
        env: [trustHostVariable],
        files: [
          await loadEnvModule(loadEnv, "next"),
          await clientAddressFile(authDir),
          {
            path: routesPath,
            contents: await renderTemplate("frameworks/express/auth.ts.hbs", {
              configModule: specifier(routesPath, configPath, ext),
              clientAddressModule: specifier(routesPath, clientAddressPath(authDir), ext),
              protect: request.protect?.map(pathPattern) ?? false,
              protectList: request.protect?.join(",") ?? "",
              federatedSignOut: request.federatedSignOut ?? false,
              twoFactorPages: request.twoFactorPages ? specifier(routesPath, request.twoFactorPages, ext) : false,
              sessionRead: Boolean(request.protect?.length || request.federatedSignOut),
            }),
          },
        ],
      }),
      config: plainConfig({
        header: [
          `Express: ${server} uses authRoutes from ${routesPath}, which mounts Auth.js at /auth;`,
          "getSession(req, authConfig) from @auth/express reads the session in a handler.",
          "https://authjs.dev/getting-started/installation?framework=express",
        ],
      }),
    };
    if (request.protect?.length)
      wiring.steps.push(
        `${routesPath} sends visitors who are not signed in to the sign-in page on: ${request.protect.join(", ")}`,
      );
    if (facts.entry) {
      await mountInEntry(
        facts.entry,
        {
          creates: { name: "express", package: "express", exports: ["default"], construct: false },
          wiring: (from) => ({
            firstImport: specifier(from, loadEnv, ext),
            imports: [`import { authRoutes } from "${specifier(from, routesPath, ext)}";`],
            mount: [
              `// Auth.js's routes (signin, signout, session, callback/<provider>...) under /auth${request.protect?.length ? ", and the pages that need a session" : ""}.`,
              "$app.use(authRoutes);",
            ].join("\n"),
            marker: "authRoutes",
          }),
          where: "the file your dev or start script runs",
          fallback: server,
        },
        wiring,
      );
      return wiring;
    }
    wiring.files.push({
      path: server,
      contents: await renderTemplate("frameworks/express/server.ts.hbs", {
        configModule: specifier(server, configPath, ext),
        loadEnvModule: specifier(server, loadEnv, ext),
        authRoutesModule: specifier(server, routesPath, ext),
        port: express.app.port,
      }),
    });
    wiring.instructions[server] =
      `import "${specifier(server, loadEnv, ext)}" first, then app.use(authRoutes) with authRoutes from "${specifier(server, routesPath, ext)}"`;
    wiring.scripts = { dev: `tsx watch ${server}`, start: `tsx ${server}` };
    return wiring;
  },
  doctor: {
    ownServer: () => "an Express server",
    load: () => import("./doctor.js").then((m) => m.expressDoctor),
  },
});
