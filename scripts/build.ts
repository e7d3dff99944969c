/**
 * The build, for `npm run build` (before packing) and for the global setup
 * of the test layers that run dist/ (test/setup/build.ts), so those tests
 * run the code as it is in src/. About a second; type declarations come
 * from tsc, in `npm run build` only.
 *
 * - dist/cli/: what the package runs, as one ES module bundle split per
 *   entry and command, so a command loads only its own code: the command
 *   line, verify-adapter's worker, and the library entry points
 *   `create-auth` and `create-auth/vitest`. Every dependency is inside but
 *   vitest, which create-auth/vitest takes from the user's project at run
 *   time (lib/running-vitest.ts), and tsx, which the worker takes from there
 *   too (isolation/typescript.ts), so the package declares no dependencies
 *   and no peers, and a first `npx create-auth` fetches one package. Of handlebars only the runtime
 *   is inside: templates are precompiled. @babel/parser is inside add-provider's chunk: loaded from
 *   node_modules instead, a cold add-provider took 20 ms (require) to 60 ms
 *   (import, which scans the CommonJS file for export names) longer on
 *   Node 20, and no less on Node 24. Chunks stay in dist/cli/, two folders
 *   below the package root like every module of dist/<folder>/ and
 *   src/<folder>/, so the paths modules compute from import.meta.url
 *   (templates/, the package root) hold in all three layouts.
 * - dist/**: src/ transpiled file by file, same layout, for the tests and
 *   benches that import one module of it; not shipped (package.json `files`).
 * - dist/templates.precompiled.cjs: every template, precompiled, so the CLI
 *   loads handlebars' small runtime instead of its compiler (~100 ms of a
 *   cold init); the package ships this instead of templates/ (each file a
 *   package holds costs a first `npx create-auth` about 3 ms to unpack).
 * - dist/THIRD-PARTY-NOTICES.txt: the licences of every package with code in
 *   dist/cli/, from esbuild's account of the bundle (third-party-notices.ts).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BuildOptions, build, type Plugin } from "esbuild";
import Handlebars from "handlebars";
import { compileOptions } from "../src/render/templates.js";
import { writeNotice } from "./third-party-notices.js";

const root = fileURLToPath(new URL("..", import.meta.url));

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name))
    .sort();
}

const node = { platform: "node", target: "node20", format: "esm", logLevel: "warning" } as const;

function library(dist: string) {
  const launchers = new Set([
    join(root, "src", "cli.ts"),
    join(root, "src", "contract", "isolation", "worker-entry.ts"),
  ]);
  const entryPoints = filesUnder(join(root, "src"), ".ts").filter((file) => !launchers.has(file));
  return build({ ...node, entryPoints, outbase: join(root, "src"), outdir: dist });
}

/**
 * The package renders only precompiled templates, so handlebars' compiler
 * (and the uglify-js and source-map it brings) stays out of the bundle:
 * `import("handlebars")` there is a module that says so.
 */
const precompiledOnly: Plugin = {
  name: "precompiled-templates-only",
  setup(build) {
    build.onResolve({ filter: /^handlebars$/ }, () => ({ path: "handlebars", namespace: "precompiled-only" }));
    build.onLoad({ filter: /.*/, namespace: "precompiled-only" }, () => ({
      contents: 'throw new Error("create-auth renders precompiled templates only (dist/templates.precompiled.cjs)");',
    }));
  },
};

/**
 * create-auth/vitest must register with the copy of vitest that runs the
 * user's test file, which it finds at run time (src/lib/running-vitest.ts):
 * a static import of vitest would be bundled (a second copy) or left for
 * Node to resolve beside create-auth (no vitest there under pnpm). The build
 * refuses one.
 */
const vitestFromTheProject: Plugin = {
  name: "vitest-from-the-project",
  setup(build) {
    build.onResolve({ filter: /^@?vitest(\/|$)/ }, (args) => ({
      errors: [
        { text: `${args.path} is imported by ${args.importer}: take vitest from lib/running-vitest.ts (loadVitest)` },
      ],
    }));
  },
};

/** The command line's esbuild options: the pack test builds with them to see what the bundle holds. */
export function commandLineOptions(dist: string) {
  return {
    ...node,
    absWorkingDir: root,
    entryPoints: {
      "create-auth": join(root, "src/cli.ts"),
      "private-cache": join(root, "src/lib/private-cache.ts"),
      // The process that loads a user's adapter module (src/contract/isolation/supervisor.ts starts it),
      // and what the launcher uses to start it early.
      "verify-worker": join(root, "src/contract/isolation/worker-entry.ts"),
      "spawn-worker": join(root, "src/contract/isolation/spawn-worker.ts"),
      // Registered by the worker when Node strips a TypeScript module's types itself.
      "typescript-resolve": join(root, "src/contract/isolation/typescript-resolve.ts"),
      index: join(root, "src/index.ts"),
      vitest: join(root, "src/vitest.ts"),
    },
    outdir: join(dist, "cli"),
    bundle: true,
    splitting: true,
    chunkNames: "[name]-[hash]",
    plugins: [precompiledOnly, vitestFromTheProject],
    // Bundled CommonJS dependencies call require() for Node's modules.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    // What went in: the third-party notice is written from it.
    metafile: true,
  } satisfies BuildOptions;
}

function precompileTemplates(dist: string): number {
  const templates = join(root, "templates");
  const entries = filesUnder(templates, ".hbs").map((path) => {
    const key = relative(templates, path).split(sep).join("/");
    return `  ${JSON.stringify(key)}: ${Handlebars.precompile(readFileSync(path, "utf8"), compileOptions)},`;
  });
  writeFileSync(
    join(dist, "templates.precompiled.cjs"),
    `// Generated by scripts/build.ts from templates/. Do not edit.\nmodule.exports = {\n${entries.join("\n")}\n};\n`,
  );
  return entries.length;
}

/** Builds into `dist` (dist/ at the root unless told otherwise, e.g. to check the build on another Node). */
export async function buildAll(dist = join(root, "dist")): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  const [, cli] = await Promise.all([library(dist), build(commandLineOptions(dist))]);
  precompileTemplates(dist);
  writeNotice(dist, cli.metafile, root);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const out = process.argv[2];
  await buildAll(out);
  console.log(`built ${out ?? "dist/"} in ${Math.round(performance.now() - started)} ms`);
}
