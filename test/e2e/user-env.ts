import { delimiter, dirname } from "node:path";

/**
 * The environment of a user's shell: nothing npm sets for the script running
 * vitest (npm_config_*, npm_package_*, user agent) and no node_modules/.bin of
 * this repo on PATH, so the commands see only the temp project. With `node`,
 * that Node comes first on PATH (so npm and its install scripts run on it)
 * and `nodedir` points native builds at its headers.
 */
export function userEnv(node?: { binary: string; home: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value === undefined ||
      /^npm_/i.test(key) ||
      key === "INIT_CWD" ||
      key === "NODE_OPTIONS" ||
      key.startsWith("VITEST")
    )
      continue;
    env[key] = value;
  }
  const path = (process.env.PATH ?? "").split(delimiter).filter((p) => !p.includes("node_modules"));
  env.PATH = [...(node ? [dirname(node.binary)] : []), ...path].join(delimiter);
  if (node) env.npm_config_nodedir = node.home;
  env.CI = "true";
  env.NODE_ENV = "development";
  return env;
}
