#!/usr/bin/env node
// Launcher. The CLI is one CommonJS bundle (scripts/bundle-cli.js) that
// later runs load from a V8 code cache (src/lib/compile-cache.ts), so the
// cache is installed first, keyed by the command about to run.
const { join, sep } = require("node:path");
const { enableCompileCache } = require("../dist/cli/compile-cache.cjs");

const args = process.argv.slice(2);
const command = args.find((arg) => !arg.startsWith("-"));
const onlyInforms = args.some((arg) => ["-h", "--help", "-v", "--version", "--list"].includes(arg));
enableCompileCache({
  roots: [join(__dirname, "..", "dist") + sep],
  packages: ["ts-morph", "@ts-morph/common", "handlebars"],
  // What runs, and so what is worth caching, differs by command; help and lists run little of any.
  profile: !onlyInforms && ["init", "add-provider", "verify-adapter"].includes(command) ? command : "other",
});
// An `import()` compiled by Node itself, for what must load as an ES module (src/lib/dynamic-import.ts).
require("../dist/cli/create-auth.cjs").main(process.argv, { dynamicImport: (specifier) => import(specifier) });
