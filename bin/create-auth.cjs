#!/usr/bin/env node
// Launcher. The CLI is one CommonJS bundle (scripts/bundle-cli.js) that
// later runs load from a V8 code cache (src/lib/compile-cache.ts), so the
// cache is installed first, under the profile of the command about to run.
const { join, sep } = require("node:path");
const { cacheProfile, enableCompileCache } = require("../dist/cli/launch.cjs");

enableCompileCache({
  roots: [join(__dirname, "..", "dist") + sep],
  packages: ["ts-morph", "@ts-morph/common", "handlebars"],
  profile: cacheProfile(process.argv.slice(2)),
});
// An `import()` compiled by Node itself, for what must load as an ES module (src/lib/dynamic-import.ts).
require("../dist/cli/create-auth.cjs").main(process.argv, { dynamicImport: (specifier) => import(specifier) });
