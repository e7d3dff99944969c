/**
 * The sign-in throttle the credentials and email families count their
 * attempts through (templates/config/throttle.ts.hbs), written beside the
 * adapter whose attempt counters it uses (incrementAttempts,
 * decrementAttempts, clearAttempts; every generated adapter has them), and
 * the client-address module of the framework's wiring, which it reads the
 * client from. Other kinds of attempt (a one-time code) count through the
 * same module: throttled({ kind, account, request, limits }, check).
 */
import type { PlannedFile } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";

export const throttlePath = (authDir: string) => `${authDir}/throttle.ts`;

/** What an adapter module must define for the throttle to count through it. */
export const attemptOperations = ["incrementAttempts", "decrementAttempts", "clearAttempts"] as const;

export async function throttleFile(authDir: string, ext: "" | ".js"): Promise<PlannedFile> {
  return { path: throttlePath(authDir), contents: await renderTemplate("config/throttle.ts.hbs", { ext }) };
}
