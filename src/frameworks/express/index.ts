/** Express: a runnable server.ts mounting Auth.js at /auth, or the lines to add to the project's own server. */
import { loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressFile, clientAddressPath } from "../client-address.js";
import { defineFramework, detectBy, plainConfig, rootLayout, trustHostVariable } from "../framework.js";
import { twoFactorMountStep } from "../two-factor-route.js";
import { pathPattern } from "../web-standard.js";

export interface ExpressFacts {
  /** The file that starts the project's own server, when it has one. */
  serverFile: string | undefined;
}

const serverCandidates = ["server.ts", "server.js", "app.ts", "app.js", "index.ts", "index.js"];

function facts(project: ProjectView): ExpressFacts {
  const main = project.packageJson.main;
  if (typeof main === "string" && project.isFile(main)) return { serverFile: main };
  return { serverFile: project.firstFile([...serverCandidates, ...serverCandidates.map((f) => `src/${f}`)]) };
}

const mount = 'app.use("/auth", ExpressAuth(authConfig))';

export const express = defineFramework<ExpressFacts>({
  id: "express",
  title: "Express",
  precedence: 5,
  detect: detectBy(facts, { packages: ["express"] }),
  assume: facts,
  dependencies: ["@auth/express", "express"],
  devDependencies: ["@types/express"],
  app: { port: 3000, devCommand: "npm run dev" },
  basePath: "/auth",
  authPackage: "@auth/express",
  envOrder: "next",
  protects: true,
  layout: rootLayout,
  async plan(request) {
    const { facts, configPath, authDir, importExtension: ext } = request;
    const loadEnv = `${authDir}/load-env.ts`;
    const server = facts.serverFile ?? (configPath.startsWith("src/") ? "src/server.ts" : "server.ts");
    const wiring = {
      ...part({
        env: [trustHostVariable],
        files: [await loadEnvModule(loadEnv, "next"), await clientAddressFile(authDir)],
      }),
      config: plainConfig({
        header: [
          `Express: mount it with \`${mount}\` (${facts.serverFile ? `in ${facts.serverFile}` : `see ${server}`}).`,
          "https://authjs.dev/getting-started/installation?framework=express",
        ],
      }),
    };
    if (facts.serverFile) {
      wiring.steps.push(
        `Mount Auth.js in ${facts.serverFile}: import { ExpressAuth } from "@auth/express", { authConfig } from ${JSON.stringify(specifier(facts.serverFile, configPath, ext))} and { passClientAddress } from ${JSON.stringify(specifier(facts.serverFile, clientAddressPath(authDir), ext))}, then app.use("/auth", passClientAddress) (the address the sign-in throttle counts by) and ${mount}; load .env.local first (import "${specifier(facts.serverFile, loadEnv, ext)}").`,
      );
      if (request.protect?.length)
        wiring.steps.push(
          `To protect ${request.protect.join(", ")} in ${facts.serverFile}: after the mount, app.use() a middleware that calls next() when (await getSession(req, authConfig))?.user (getSession from @auth/express) and else redirects to /auth/signin?callbackUrl=<the page> (https://authjs.dev/getting-started/session-management/protecting?framework=express).`,
        );
      wiring.steps.push(...twoFactorMountStep(facts.serverFile, request.twoFactorPages));
      if (request.federatedSignOut)
        wiring.steps.push(
          `For a sign-out that reaches the provider: before the mount, app.post("/auth/signout", express.urlencoded({ extended: true }), ...) a middleware that sets req.body.callbackUrl to await signOutUrl(userId) from ${configPath} (userId from getSession(req, authConfig)) when it is not null, then calls next() (see README: federated sign-out).`,
        );
      return wiring;
    }
    wiring.files.push({
      path: server,
      contents: await renderTemplate("frameworks/express-server.ts.hbs", {
        configModule: specifier(server, configPath, ext),
        loadEnvModule: specifier(server, loadEnv, ext),
        clientAddressModule: specifier(server, clientAddressPath(authDir), ext),
        port: express.app.port,
        protect: request.protect?.map(pathPattern) ?? false,
        protectList: request.protect?.join(",") ?? "",
        federatedSignOut: request.federatedSignOut ?? false,
        twoFactorPages: request.twoFactorPages ? specifier(server, request.twoFactorPages, ext) : false,
      }),
    });
    wiring.instructions[server] = `${mount}, after loading .env.local`;
    if (request.protect?.length)
      wiring.steps.push(
        `${server} sends visitors who are not signed in to the sign-in page on: ${request.protect.join(", ")}`,
      );
    wiring.scripts = { dev: `tsx watch ${server}`, start: `tsx ${server}` };
    return wiring;
  },
  doctor: {
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    ownServer: () => "an Express server",
    load: () => import("./doctor.js").then((m) => m.expressDoctor),
  },
});
