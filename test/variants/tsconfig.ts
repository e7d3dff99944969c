/**
 * tsconfig variants: the settings users' projects have that decide where
 * generated modules may go and how they are written: `rootDir` with
 * `outDir` (tsc refuses a file outside it, TS6059), `include`, settings in a
 * base the tsconfig `extends`, bundler resolution with no `target` (ES5,
 * where iterating a Map or Headers needs downlevelIteration), and a
 * tsconfig written as `tsc --init` writes one, with comments and a trailing
 * comma.
 */
import type { AppName } from "../e2e/apps.js";
import { editJson, read, type Variant, write } from "./index.js";

type Tsconfig = { extends?: string; compilerOptions: Record<string, unknown>; include?: string[] };

const anyApp: readonly AppName[] = ["express", "hono", "fastify", "elysia"];

/** rootDir and outDir, with include naming src/ alone: what `tsc` then builds into dist/. */
export const rootDir: Variant = {
  id: "root-dir",
  title: 'tsconfig "rootDir": "src", "outDir": "dist", "include": ["src"]',
  apps: anyApp,
  apply(project) {
    const dir = project.app;
    editJson<Tsconfig>(dir, "tsconfig.json", (tsconfig) => {
      tsconfig.compilerOptions.rootDir = "src";
      tsconfig.compilerOptions.outDir = "dist";
      tsconfig.include = ["src"];
    });
    return project;
  },
};

/** The compiler options in tsconfig.base.json, which tsconfig.json extends; the module setting only there. */
export const extendsBase: Variant = {
  id: "extends",
  title: "tsconfig.json extends ./tsconfig.base.json, which sets the module resolution",
  apps: anyApp,
  apply(project) {
    const dir = project.app;
    const tsconfig = JSON.parse(read(dir, "tsconfig.json")) as Tsconfig;
    const { outDir, ...shared } = tsconfig.compilerOptions;
    write(dir, "tsconfig.base.json", `${JSON.stringify({ compilerOptions: shared }, null, 2)}\n`);
    write(
      dir,
      "tsconfig.json",
      `${JSON.stringify({ ...tsconfig, extends: "./tsconfig.base.json", compilerOptions: { outDir } }, null, 2)}\n`,
    );
    return project;
  },
};

/**
 * Bundler resolution (imports without extensions) and no `target`: TypeScript's default, ES5. Not Fastify's
 * app: its own server.ts awaits at the top level, which needs ES2017.
 */
export const bundlerNoTarget: Variant = {
  id: "bundler-no-target",
  title: 'tsconfig "module": "ESNext", "moduleResolution": "Bundler" and no "target"',
  apps: ["express", "hono", "elysia"],
  apply(project) {
    const dir = project.app;
    editJson<Tsconfig>(dir, "tsconfig.json", (tsconfig) => {
      delete tsconfig.compilerOptions.target;
      tsconfig.compilerOptions.module = "ESNext";
      tsconfig.compilerOptions.moduleResolution = "Bundler";
    });
    return project;
  },
};

/** The same settings as `tsc --init` writes them: comments between them and a trailing comma. */
export const commented: Variant = {
  id: "commented",
  title: "a tsconfig with comments and trailing commas",
  apps: anyApp,
  apply(project) {
    const dir = project.app;
    const tsconfig = JSON.parse(read(dir, "tsconfig.json")) as Tsconfig;
    const options = Object.entries(tsconfig.compilerOptions)
      .map(([name, value]) => `    /* ${name} */\n    ${JSON.stringify(name)}: ${JSON.stringify(value)},`)
      .join("\n");
    const rest = Object.entries(tsconfig)
      .filter(([name]) => name !== "compilerOptions")
      .map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
    write(
      dir,
      "tsconfig.json",
      `{\n  // Visit https://aka.ms/tsconfig to read more about this file\n  "compilerOptions": {\n${options}\n  },\n${rest.join("\n")}\n}\n`,
    );
    return project;
  },
};
