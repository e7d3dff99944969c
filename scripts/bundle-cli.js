// Build step: the CLI as one CommonJS bundle, dist/cli/create-auth.cjs, and
// what the launcher loads before it (the code cache and its profile),
// dist/cli/launch.cjs.
//
// Why a bundle: on Node 20 the ES module loader resolves and compiles each of
// the ~40 files a command touches, none from a cache; one CommonJS file goes
// through lib/compile-cache.ts and comes out of V8's code cache. Measured on
// `add-provider social`, 637 -> 509 ms (bench/add-provider.js).
//
// The bundle sits two folders below the package root, as every module of
// dist/<folder>/ and src/<folder>/ does, so the paths modules compute from
// import.meta.url (templates/, dist/templates.precompiled.cjs, the package
// root) hold in all three layouts.
import { build } from "esbuild";

const shared = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  outdir: "dist/cli",
  outExtension: { ".js": ".cjs" },
  // `import()` becomes `require()`: the bundle runs from a code cache where
  // `import()` is unavailable (src/lib/dynamic-import.ts).
  supported: { "dynamic-import": false },
};

await build({
  ...shared,
  entryPoints: { "create-auth": "src/cli.ts" },
  // Kept as packages: ts-morph is loaded only by add-provider and cached as its
  // own files; tsx starts ESM hooks from its own files; handlebars is
  // CommonJS, and its compiler only a fallback for unbuilt templates.
  external: ["ts-morph", "tsx", "handlebars"],
  define: { "import.meta.url": "importMetaUrl" },
  banner: { js: 'const importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
});
await build({ ...shared, entryPoints: { launch: "src/lib/launch.ts" } });
console.log("bundled dist/cli/create-auth.cjs");
