/**
 * How the framework serves Auth.js, read from the project's files: Next.js
 * route handlers and middleware/proxy, SvelteKit's hooks, Express's mount.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import type { WiringFacts } from "../../doctor/facts.js";
import type { Framework } from "../../frameworks/index.js";
import { descendants, ofType, stringValue } from "../nodes.js";
import type { ModuleReader } from "./modules.js";

const scriptExtensions = ["ts", "js", "mts", "mjs", "tsx", "jsx"];
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** `[...nextauth]` route handlers under app/ or src/app/ (and the pages router's), with the URL path each serves. */
function nextRoutes(root: string): WiringFacts["nextRoutes"] {
  const found: WiringFacts["nextRoutes"] = [];
  const walk = (dir: string, urlPath: string, depth: number) => {
    if (depth > 8) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (/^\[\.\.\.\w+\]$/.test(entry.name)) {
        const route = scriptExtensions.map((e) => join(path, `route.${e}`)).find(isFile);
        if (route) found.push({ file: relative(root, route), path: urlPath || "/" });
        continue;
      }
      // Route groups "(name)" and private folders "_name" add no URL segment / are not routes.
      if (entry.name.startsWith("_")) continue;
      const segment = /^\(.*\)$/.test(entry.name) ? "" : `/${entry.name}`;
      walk(path, `${urlPath}${segment}`, depth + 1);
    }
  };
  for (const app of ["app", "src/app"]) if (isDir(join(root, app))) walk(join(root, app), "", 0);
  for (const pages of ["pages/api/auth", "src/pages/api/auth"]) {
    const file = scriptExtensions.map((e) => join(root, pages, `[...nextauth].${e}`)).find(isFile);
    if (file) found.push({ file: relative(root, file), path: "/api/auth" });
  }
  return found;
}

function middleware(root: string, configPath: string, reader: ModuleReader): WiringFacts["middleware"] {
  const out: WiringFacts["middleware"] = [];
  for (const dir of ["", "src"]) {
    for (const base of ["middleware", "proxy"]) {
      const path = scriptExtensions.map((e) => join(root, dir, `${base}.${e}`)).find(isFile);
      if (!path) continue;
      const module = reader.read(path);
      if (!module) continue;
      // proxy.ts (Next.js 16) always runs on Node.js; middleware.ts on the edge unless its config says "nodejs".
      const declaresNode = /\bruntime\s*:\s*["']nodejs["']/.test(module.file.text);
      const reach = reader.reach(path);
      out.push({
        file: relative(root, path),
        runtime: base === "proxy" || declaresNode ? "nodejs" : "edge",
        importsConfig: reach.files.includes(configPath),
        packages: reach.packages,
      });
    }
  }
  return out;
}

function hooks(root: string, configPath: string, reader: ModuleReader): WiringFacts["hooks"] {
  const path = scriptExtensions.map((e) => join(root, `src/hooks.server.${e}`)).find(isFile);
  if (!path) return undefined;
  const handle = reader.exported(path, "handle");
  const reach = reader.reach(path);
  // The handle is Auth.js's when the hooks reach the auth config or @auth/sveltekit.
  const reachesAuth = reach.files.includes(configPath) || reach.packages.includes("@auth/sveltekit");
  return { file: relative(root, path), exportsHandle: handle !== undefined && reachesAuth };
}

/** `app.use("/auth", ExpressAuth(...))` in the server files at the project's top or in src/. */
function expressMounts(root: string, reader: ModuleReader): WiringFacts["expressMounts"] {
  const out: WiringFacts["expressMounts"] = [];
  for (const dir of ["", "src"]) {
    if (!isDir(join(root, dir))) continue;
    for (const name of readdirSync(join(root, dir))) {
      if (!/\.(?:[cm]?[jt]s)$/.test(name) || name.endsWith(".d.ts")) continue;
      const path = join(root, dir, name);
      if (!isFile(path)) continue;
      const module = reader.read(path);
      if (!module?.file.text.includes("ExpressAuth")) continue;
      for (const call of descendants(module.file.root.program, ofType("CallExpression"))) {
        const callee = call.callee;
        if (
          callee.type !== "MemberExpression" ||
          callee.property.type !== "Identifier" ||
          callee.property.name !== "use"
        )
          continue;
        const [first, second] = call.arguments;
        const mounted =
          second?.type === "CallExpression" &&
          second.callee.type === "Identifier" &&
          second.callee.name === "ExpressAuth";
        const path = stringValue(first);
        if (mounted && path !== undefined) out.push({ file: posix.join(dir, name), path });
      }
    }
  }
  return out;
}

export function readWiring(
  root: string,
  framework: Framework,
  configPath: string,
  reader: ModuleReader,
  appDir: string,
): WiringFacts {
  return {
    appDir,
    nextRoutes: framework === "next" ? nextRoutes(root) : [],
    middleware: framework === "next" ? middleware(root, configPath, reader) : [],
    ...(framework === "sveltekit" ? { hooks: hooks(root, configPath, reader) } : {}),
    expressMounts: framework === "express" ? expressMounts(root, reader) : [],
  };
}
