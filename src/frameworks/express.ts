/** Express: a runnable server.ts mounting Auth.js at /auth, or the lines to add to the project's own server. */
import { specifier } from "../generators/config.js";
import { renderTemplate } from "../generators/render.js";
import { type FrameworkDefinition, rootLayout, trustHostVariable } from "./framework.js";

export const express: FrameworkDefinition = {
  title: "Express",
  dependencies: ["@auth/express", "express"],
  devDependencies: ["@types/express"],
  port: 3000,
  basePath: "/auth",
  devCommand: "npm run dev",
  authPackage: "@auth/express",
  configType: "AuthConfig",
  detection: { dependency: "express" },
  layout: rootLayout,
  async plan(request, part) {
    const { facts } = request;
    part.env.push(trustHostVariable);
    part.needsLoadEnv = true;
    const mount = 'app.use("/auth", ExpressAuth(authConfig))';
    if (facts.serverFile) {
      part.serverHint = `in ${facts.serverFile}`;
      part.notes.push(
        `Mount Auth.js in ${facts.serverFile}: import { ExpressAuth } from "@auth/express" and { authConfig } from ${JSON.stringify(specifier(facts.serverFile, request.configPath, request.importExtension))}, then ${mount}; load .env.local first (import "${specifier(facts.serverFile, `${request.authDir}/load-env.ts`, request.importExtension)}").`,
      );
      return;
    }
    const serverPath = facts.srcDir ? "src/server.ts" : "server.ts";
    part.serverHint = `see ${serverPath}`;
    part.files.push({
      path: serverPath,
      contents: await renderTemplate("frameworks/express-server.ts.hbs", {
        configModule: specifier(serverPath, request.configPath, request.importExtension),
        loadEnvModule: specifier(serverPath, `${request.authDir}/load-env.ts`, request.importExtension),
        port: express.port,
      }),
    });
    part.instructions[serverPath] = `${mount}, after loading .env.local`;
    part.scripts = { dev: `tsx watch ${serverPath}`, start: `tsx ${serverPath}` };
  },
};
