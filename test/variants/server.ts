/**
 * Server variants: where a server framework's app is created and how the
 * entry reaches it. The base apps create and serve their app in one module
 * (Express's creates none: init writes server.ts); users split it into a
 * module that builds the app and an entry that serves it, build it in a
 * factory, import it through a tsconfig alias, keep no src/ folder, or keep
 * the app in an npm workspace's apps/web.
 */
import { existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { AppName } from "../e2e/apps.js";
import { editJson, read, replaceOnce, type Variant, write } from "./index.js";

export const serverApps = ["express", "hono", "fastify", "elysia"] as const satisfies readonly AppName[];

/**
 * Where each server app's entry starts serving (what stays in the entry when the app moves out), and how its
 * app is declared: a const (`const app = ...;`) or a chain that is the statement itself (Elysia's).
 */
const entries: Record<(typeof serverApps)[number], { entry: string; start: string; chain?: string }> = {
  express: { entry: "src/server.ts", start: "const port =" },
  hono: { entry: "src/index.ts", start: "serve({" },
  fastify: { entry: "src/server.ts", start: "try {" },
  elysia: { entry: "src/index.ts", start: "  .listen(", chain: "new Elysia(" },
};

/** The entry as the variants before this one left it (no-src moves it to the top). */
function entryOf(dir: string, app: AppName): string {
  const { entry } = entries[app as keyof typeof entries];
  return existsSync(join(dir, entry)) ? entry : entry.replace(/^src\//, "");
}

/**
 * Express as its users write it, which the base app does not have: Express 5 in TypeScript, its own
 * src/server.ts with body parsers and its routes in src/routes/, built by tsc and started from dist/.
 */
export const expressServer: Variant = {
  id: "own-server",
  title: "its own server module, body parsers, routes in src/routes/",
  apps: ["express"],
  apply(project) {
    const dir = project.app;
    write(
      dir,
      "src/server.ts",
      [
        'import express from "express";',
        'import { pages } from "./routes/pages.js";',
        "",
        "const app = express();",
        "app.use(express.json());",
        "app.use(express.urlencoded({ extended: false }));",
        "app.use(pages);",
        "",
        "const port = Number(process.env.PORT ?? 3000);",
        "app.listen(port, () => {",
        "  console.log(`Listening on http://localhost:${port}`);",
        "});",
        "",
      ].join("\n"),
    );
    write(
      dir,
      "src/routes/pages.ts",
      [
        'import { Router } from "express";',
        "",
        "export const pages = Router();",
        "",
        'pages.get("/", (_req, res) => {',
        '  res.type("html").send(\'<h1>Hello, Express!</h1><p><a href="/dashboard">Dashboard</a></p>\');',
        "});",
        "",
        'pages.get("/dashboard", (_req, res) => {',
        '  res.type("html").send("<h1>Dashboard</h1>");',
        "});",
        "",
      ].join("\n"),
    );
    write(
      dir,
      "tsconfig.json",
      `${JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            esModuleInterop: true,
            skipLibCheck: true,
            outDir: "dist",
          },
        },
        null,
        2,
      )}\n`,
    );
    editJson<{ scripts?: Record<string, string> }>(dir, "package.json", (pkg) => {
      pkg.scripts = { dev: "tsx watch src/server.ts", build: "tsc", start: "node dist/server.js" };
    });
    return project;
  },
};

/** The entry split at where it starts serving: the imports, what builds the app, what serves it. */
function split(dir: string, app: AppName) {
  const entry = entryOf(dir, app);
  const { start, chain } = entries[app as keyof typeof entries];
  const text = read(dir, entry);
  const at = text.indexOf(start);
  if (at < 0) throw new Error(`variant: ${entry} no longer has ${start}`);
  const lines = text.slice(0, at).trimEnd().split("\n");
  const serving = text.slice(at);
  const imports = lines.filter((line) => line.startsWith("import "));
  const body = lines
    .filter((line) => !line.startsWith("import "))
    .join("\n")
    .trim();
  // An import goes with the part that names what it binds.
  const names = (line: string) => [...line.replace(/from\s+"[^"]+"/, "").matchAll(/[\w$]+/g)].map((m) => m[0]);
  const uses = (part: string) => (line: string) =>
    names(line)
      .filter((n) => n !== "import" && n !== "type")
      .some((n) => new RegExp(`\\b${n}\\b`).test(part));
  return {
    entry,
    module: entry.replace(/[^/]+$/, "app.ts"),
    imports: { app: imports.filter(uses(body)), entry: imports.filter(uses(serving)) },
    body,
    serving: chain ? `app\n${serving}` : serving,
    /** The body with its app's chain or declaration made `<prefix> <the app>`, ending its statement. */
    bodyWith(prefix: string) {
      return chain
        ? `${replaceOnce(body, chain, prefix === "return" ? `return ${chain}` : `${prefix} app = ${chain}`, entry)};`
        : replaceOnce(body, /^const app = /m, `${prefix === "return" ? "const app =" : `${prefix} app =`} `, entry);
    },
    chain: chain !== undefined,
  };
}

/** The app built in src/app.ts (`export const app = ...`), served by the entry that imports it. */
export const appModule: Variant = {
  id: "app-module",
  title: "the app created in a module of its own, imported by the entry",
  apps: serverApps,
  apply(project, app) {
    const dir = project.app;
    const parts = split(dir, app);
    write(dir, parts.module, `${parts.imports.app.join("\n")}\n\n${parts.bodyWith("export const")}\n`);
    write(
      dir,
      parts.entry,
      `${[...parts.imports.entry, 'import { app } from "./app.js";'].join("\n")}\n\n${parts.serving}`,
    );
    return project;
  },
};

/** The app built by a factory (`export function createApp()`), which the entry imports through tsconfig's `@/*` alias. */
export const factoryThroughAlias: Variant = {
  id: "factory-alias",
  title: "the app made by createApp() in another module, imported through a paths alias",
  apps: serverApps,
  apply(project, app) {
    const dir = project.app;
    const parts = split(dir, app);
    const indented = parts
      .bodyWith("return")
      .split("\n")
      .map((line) => (line ? `  ${line}` : line))
      .join("\n");
    const factory = `export function createApp() {\n${indented}${parts.chain ? "" : "\n  return app;"}\n}`;
    write(dir, parts.module, `${parts.imports.app.join("\n")}\n\n${factory}\n`);
    write(
      dir,
      parts.entry,
      `${[...parts.imports.entry, 'import { createApp } from "@/app.js";'].join("\n")}\n\nconst app = createApp();\n${parts.serving}`,
    );
    const folder = parts.entry.includes("/") ? `./${parts.entry.replace(/\/[^/]+$/, "")}/*` : "./*";
    editJson<{ compilerOptions: Record<string, unknown> }>(dir, "tsconfig.json", (tsconfig) => {
      tsconfig.compilerOptions.paths = { "@/*": [folder] };
    });
    return project;
  },
};

/** No src/ folder: the server's modules at the project's top, the scripts and tsconfig following them. */
export const noSrc: Variant = {
  id: "no-src",
  title: "no src/ folder: the server's modules at the top",
  apps: serverApps,
  apply(project) {
    const dir = project.app;
    for (const name of readdirSync(join(dir, "src"))) renameSync(join(dir, "src", name), join(dir, name));
    editJson<{ scripts?: Record<string, string> }>(dir, "package.json", (pkg) => {
      for (const [name, script] of Object.entries(pkg.scripts ?? {})) pkg.scripts![name] = script.replace("src/", "");
    });
    editJson<{ include?: string[] }>(dir, "tsconfig.json", (tsconfig) => {
      delete tsconfig.include;
    });
    return project;
  },
};

/**
 * An npm workspace: the app in apps/web, its tsconfig extending the repository's base; the commands run
 * from the repository's root (`from: "root"`) or from apps/web.
 */
export function workspace(from: "root" | "app"): Variant {
  return {
    id: `workspace-${from}`,
    title: `an npm workspace with the app in apps/web, the commands run from ${from === "root" ? "the root" : "apps/web"}`,
    apps: serverApps,
    apply(project) {
      const dir = project.app;
      const web = join(dir, "apps/web");
      mkdirSync(web, { recursive: true });
      for (const name of readdirSync(dir)) if (name !== "apps") renameSync(join(dir, name), join(web, name));
      const app = JSON.parse(read(web, "tsconfig.json")) as { compilerOptions: Record<string, unknown> };
      const { outDir, ...shared } = app.compilerOptions;
      write(dir, "tsconfig.base.json", `${JSON.stringify({ compilerOptions: shared }, null, 2)}\n`);
      editJson(web, "tsconfig.json", (tsconfig) => {
        tsconfig.extends = "../../tsconfig.base.json";
        tsconfig.compilerOptions = { outDir };
      });
      write(
        dir,
        "package.json",
        `${JSON.stringify({ name: "monorepo", private: true, workspaces: ["apps/*"] }, null, 2)}\n`,
      );
      return { cwd: from === "root" ? dir : web, app: web };
    },
  };
}
