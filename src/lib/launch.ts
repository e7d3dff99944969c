/**
 * What bin/create-auth.cjs loads before the CLI bundle: the code cache, and
 * the profile to cache this run under. Built on its own (scripts/bundle-cli.js).
 */
export { enableCompileCache } from "./compile-cache.js";
export { cacheProfile } from "./invocation.js";
