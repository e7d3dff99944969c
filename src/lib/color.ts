/**
 * Whether to colour output. NO_COLOR counts when set and non-empty
 * (no-color.org); FORCE_COLOR overrides the terminal check, as CI services set it.
 */
export function shouldColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.TERM === "dumb") return false;
  return Boolean(stream.isTTY);
}
