/**
 * What init tells the user once the plan is made: every file created,
 * updated or left alone (with --dry-run, the diff first), then the next
 * steps, which ask only for what is still missing.
 */
import { relative, resolve } from "node:path";
import type { Io } from "../lib/io.js";
import { shellQuote } from "../lib/shell.js";
import type { InitPlan } from "../planners/init-request.js";
import { fillInSteps } from "../render/project-env.js";
import { detectPackageManager, installCommand } from "../workspace/package-manager.js";
import { callbackUrl } from "../workspace/project.js";

const show = (root: string, path: string) => relative(root, path) || ".";

/** What changed, what was left alone and what was kept; with --dry-run, the diff first. */
export async function reportPlan(plan: InitPlan, root: string, dryRun: boolean): Promise<string> {
  const lines: string[] = [];
  if (dryRun && plan.changes.length)
    lines.push(await (await import("../workspace/plan.js")).renderDiff(plan.changes, root), "");
  const verb = (before: string | null) =>
    dryRun ? (before === null ? "would create" : "would update") : before === null ? "created" : "updated";
  for (const c of plan.changes) lines.push(`${verb(c.before)} ${show(root, c.path)}`);
  for (const path of plan.leftAlone) lines.push(`left alone ${path} (exists with other contents; --force replaces it)`);
  if (!plan.changes.length) lines.push("Auth is already set up here; nothing changed.");
  for (const n of plan.notices) lines.push(`note: ${n}`);
  if (dryRun) lines.push("", `Dry run: ${plan.changes.length} file(s) would change; nothing was written.`);
  return `${lines.join("\n")}\n`;
}

export async function nextSteps(
  plan: InitPlan,
  io: Io,
  o: { installed: boolean; root: string; tablesReady: boolean },
): Promise<void> {
  const lines: string[] = [];
  if (o.root !== resolve(io.cwd)) {
    // A path that climbs out of the cwd reads better absolute.
    const fromCwd = relative(io.cwd, o.root);
    lines.push(`cd ${shellQuote(fromCwd.startsWith("..") ? o.root : fromCwd)}`);
  }
  if (!o.installed)
    lines.push(`Install the dependencies: ${installCommand(detectPackageManager(o.root, io.env).manager).join(" ")}`);
  // Only what is still empty; EMAIL_SERVER may stay empty in development, where the link is logged.
  lines.push(...fillInSteps(plan.envToFill.filter((v) => v.name !== "EMAIL_SERVER")));
  const { storage } = plan;
  if (storage.afterInstall && !o.installed) lines.push(`Generate the client: npx ${storage.afterInstall.join(" ")}`);
  if (storage.tablesStep && !o.tablesReady)
    lines.push(
      storage.embedded
        ? storage.tablesStep.charAt(0).toUpperCase() + storage.tablesStep.slice(1)
        : `Point DATABASE_URL in ${plan.envWhere.DATABASE_URL ?? ".env.local"} at your database, then ${storage.tablesStep}`,
    );
  if (plan.passwords) lines.push("Add a user who signs in with a password: npm run auth:add-user -- you@example.com");
  lines.push(...plan.manualSteps);
  const { app, basePath } = plan.framework;
  if (app.devCommand)
    lines.push(`Start the app (${app.devCommand}) and sign in at http://localhost:${app.port}${basePath}/signin`);
  const redirecting = plan.snippets.filter((s) => s.hasCallback);
  for (const s of redirecting)
    lines.push(
      `Register the callback URL of "${s.id}" at the provider: ${callbackUrl(s.id, undefined, io.env, { port: app.port, basePath })}`,
    );
  for (const s of redirecting.filter((r) => r.tokens?.federatedLogout))
    lines.push(`Register the post-logout redirect URI of "${s.id}" at the provider: ${plan.postLogoutRedirectUri}`);
  if (redirecting.some((s) => s.tokens?.refresh))
    lines.push(
      'Read a fresh access token for your own API calls with getAccessToken(session.user.id, providerId) from the auth config; session.error is "RefreshTokenError" when a refresh failed (the user signs in again when the provider refused it for good)',
    );
  if ("verify-adapter" in plan.scripts) lines.push("Check the adapter against the contract: npm run verify-adapter");
  lines.push(
    ...plan.snippets.flatMap((s) =>
      s.steps.filter((n) => !n.startsWith("Needs ") && !(plan.passwords && n.startsWith("Add a user"))),
    ),
  );
  if (io.interactive) (await import("../prompts/questions.js")).outro(lines, "Auth is set up.");
  else io.out.write(`\nNext steps:\n${lines.map((l) => `  - ${l}`).join("\n")}\n`);
}
