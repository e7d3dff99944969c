/**
 * Where init puts a new auth config. Finding an existing one is
 * auth-setup/'s job: by what a module is, not where it sits.
 */
export const usualConfigPlaces = [
  "auth.ts",
  "auth.config.ts",
  "src/auth.ts",
  "src/auth.config.ts",
  "lib/auth.ts",
  "src/lib/auth.ts",
  "src/lib/server/auth.ts",
  "server/auth.ts",
];
