/** What the CLI may assume about where it runs: colour, CI, a person at a terminal. */

/** CI=true (or any value but "", "0" and "false"), as CI services set it. */
function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI !== "false";
}

/**
 * Whether to colour output. NO_COLOR counts when set and non-empty
 * (no-color.org); FORCE_COLOR overrides the terminal check, as CI services set it.
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "")
    return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return Boolean(stream.isTTY);
}

/** Live progress is worth drawing only on a terminal outside CI. */
export function showsProgress(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && !isCI(env);
}

/** Prompts run only with a person at a terminal; CI and pipes get flags-only errors. */
export function isInteractive(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(process.stdin.isTTY) && showsProgress(process.stdout, env);
}
