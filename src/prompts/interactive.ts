/** Prompts run only with a person at a terminal; CI and pipes get flags-only errors. */
export function isInteractive(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI !== "false";
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !ci;
}
