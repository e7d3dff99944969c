/**
 * The framework wiring init writes around the auth config: Next.js's route
 * handler (and a proxy/middleware with --protect), SvelteKit's hooks, an
 * Express server. Each follows its Auth.js integration's documented shape.
 * A file the project already has (a hooks file, a server) is never
 * rewritten: the plan carries the line to add instead.
 */
import { posix } from "node:path";
import type { DependencyName } from "../catalog/dependencies.js";
import { type Framework, frameworkCatalog } from "../catalog/frameworks.js";
import type { FrameworkFacts } from "../workspace/framework.js";
import { specifier } from "./config.js";
import { renderTemplate } from "./render.js";
import type { EnvVariable, PlannedFile } from "./types.js";

/** Where the auth module and the adapter's folder go for a framework. */
export function authLayout(framework: Framework, srcDir: boolean): { configPath: string; authDir: string } {
  if (framework === "sveltekit") return { configPath: "src/lib/server/auth.ts", authDir: "src/lib/server/auth" };
  return { configPath: srcDir ? "src/auth.ts" : "auth.ts", authDir: "auth" };
}

export const trustHostVariable: EnvVariable = {
  name: "AUTH_TRUST_HOST",
  description: "Trust the Host header for Auth.js's URLs (a production start on your own server or proxy needs it)",
  example: "true",
};

export interface FrameworkRequest {
  facts: FrameworkFacts;
  framework: Framework;
  configPath: string;
  /** The folder of the adapter and its helper modules. */
  authDir: string;
  importExtension: "" | ".js";
  /** Next.js --protect: the matcher of the paths to protect. */
  protect?: string[];
}

export interface FrameworkPart {
  files: PlannedFile[];
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  env: EnvVariable[];
  scripts: Record<string, string>;
  /** Lines for the user: what to add by hand where a file was theirs. */
  notes: string[];
  /** Files the wiring would write, and what the user adds when such a file is theirs. */
  instructions: Record<string, string>;
  /** For the config's header. */
  routeFile?: string;
  serverHint?: string;
  /** SvelteKit: the module copying $env/dynamic/private into process.env, imported first by the config. */
  envPath?: string;
  /** Express: the generated server needs the env loader module. */
  needsLoadEnv: boolean;
}

/** How a file imports the auth config: through tsconfig's "@/" alias when it covers the config, else relatively. */
function configModule(from: string, request: FrameworkRequest): string {
  const { alias } = request.facts;
  const bare = request.configPath.replace(/\.ts$/, "");
  if (request.framework === "sveltekit") return `$lib/${bare.slice("src/lib/".length)}`;
  if (alias !== undefined && bare.startsWith(alias)) return `@/${bare.slice(alias.length)}`;
  return specifier(from, request.configPath, request.importExtension);
}

export async function generateFramework(request: FrameworkRequest): Promise<FrameworkPart> {
  const { framework, facts } = request;
  const entry = frameworkCatalog[framework];
  const part: FrameworkPart = {
    files: [],
    dependencies: [...entry.dependencies],
    devDependencies: [...entry.devDependencies],
    env: [],
    scripts: {},
    notes: [],
    instructions: {},
    needsLoadEnv: false,
  };
  switch (framework) {
    case "next": {
      const route = `${facts.appDir}/api/auth/[...nextauth]/route.ts`;
      part.routeFile = route;
      part.files.push({
        path: route,
        contents: await renderTemplate("frameworks/next-route.ts.hbs", { configModule: configModule(route, request) }),
      });
      part.instructions[route] = `export { GET, POST } from the handlers of ${request.configPath}`;
      part.env.push(trustHostVariable);
      if (request.protect?.length) {
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
          break;
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
      }
      break;
    }
    case "sveltekit": {
      const hooks = "src/hooks.server.ts";
      const module = configModule(hooks, request);
      const theirs = facts.existing.find((f) => f.startsWith("src/hooks.server.") && f !== hooks);
      part.envPath = `${request.authDir}/env.ts`;
      part.files.push({ path: part.envPath, contents: await renderTemplate("config/sveltekit-env.ts.hbs", {}) });
      if (theirs) {
        part.notes.push(
          `${theirs} is yours and was left alone; in it: export { handle } from "${module}" (or add it with sequence() from @sveltejs/kit/hooks if the file has a handle).`,
        );
        break;
      }
      part.files.push({
        path: hooks,
        contents: await renderTemplate("frameworks/sveltekit-hooks.ts.hbs", { configModule: module }),
      });
      part.instructions[hooks] =
        `export { handle } from "${module}" (or add it with sequence() from @sveltejs/kit/hooks if the file has a handle)`;
      break;
    }
    case "express": {
      part.env.push(trustHostVariable);
      const serverPath = facts.srcDir ? "src/server.ts" : "server.ts";
      const mount = 'app.use("/auth", ExpressAuth(authConfig))';
      if (facts.serverFile) {
        part.serverHint = `in ${facts.serverFile}`;
        part.notes.push(
          `Mount Auth.js in ${facts.serverFile}: import { ExpressAuth } from "@auth/express" and { authConfig } from ${JSON.stringify(specifier(facts.serverFile, request.configPath, request.importExtension))}, then ${mount}; load .env.local first (import "${specifier(facts.serverFile, `${request.authDir}/load-env.ts`, request.importExtension)}").`,
        );
        part.needsLoadEnv = true;
        break;
      }
      part.serverHint = `see ${serverPath}`;
      part.needsLoadEnv = true;
      part.files.push({
        path: serverPath,
        contents: await renderTemplate("frameworks/express-server.ts.hbs", {
          configModule: specifier(serverPath, request.configPath, request.importExtension),
          loadEnvModule: specifier(serverPath, `${request.authDir}/load-env.ts`, request.importExtension),
          port: entry.port,
        }),
      });
      part.instructions[serverPath] = `${mount}, after loading .env.local`;
      part.scripts = { dev: `tsx watch ${serverPath}`, start: `tsx ${serverPath}` };
      break;
    }
    case "none":
      break;
  }
  return part;
}
