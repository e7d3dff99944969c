/**
 * `create-auth upgrade`: a next-auth v4 app moved to v5 (5.0.0-beta.32,
 * pinned) as one reviewable change: the config, the route, the session
 * calls, the middleware, next.config, the env names, the adapters'
 * packages (at versions whose peers the project has), with signed-in users
 * kept signed in. Planned first, written all at once, then one install,
 * undone when the install fails; --dry-run prints the diff (env values hidden).
 * A second run finds v5 and changes nothing.
 */
import { relative } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { defineOptions } from "../lib/command-options.js";
import { CliError, ExitCode, type ExitCodeValue } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { packageManagerOption } from "../workspace/package-manager.js";

export const upgradeOptions = defineOptions({
  config: {
    flag: "--config <path>",
    description: "the v4 auth config (default: found by its contents: the authOptions NextAuth() is given)",
    schema: z.string().min(1).optional(),
  },
  dryRun: {
    flag: "--dry-run",
    description: "print the diff of every change and write nothing (env values hidden)",
    schema: z.boolean().default(false),
  },
  install: {
    flag: "--no-install",
    description: "change package.json without installing",
    schema: z.boolean().default(true),
  },
  packageManager: packageManagerOption,
});

export type UpgradeInput = z.input<typeof upgradeOptions.schema>;

export async function runUpgrade(input: UpgradeInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = upgradeOptions.parse(input);
  const [{ planUpgrade, describeChanges, migrationGuide }, { withProjectLock }, { applyPlan, renderDiff, undoPlan }] =
    await Promise.all([
      import("../planners/upgrade/plan.js"),
      import("../workspace/lock.js"),
      import("../workspace/plan.js"),
    ]);
  const { packageRoot } = await import("../workspace/auth-setup/index.js");
  const lockRoot = packageRoot(io.cwd);
  const done = await withProjectLock(lockRoot, async () => {
    // Planned under the lock from what is on disk now, so a parallel edit is read, not lost.
    const plan = await planUpgrade(io.cwd, options.config);
    if (plan.status === "current") {
      io.out.write(`${plan.reason}\n`);
      return undefined;
    }
    if (plan.status === "refused") {
      throw new CliError(`Cannot upgrade: ${plan.reason} Nothing was written.`, {
        exitCode: ExitCode.failed,
        hint: `The steps by hand: ${migrationGuide}`,
      });
    }
    const show = (path: string) => relative(io.cwd, path) || path;
    if (options.dryRun) io.out.write(await renderDiff(plan.changes, io.cwd));
    const applied = options.dryRun ? undefined : applyPlan(plan.changes);
    const lines = options.dryRun
      ? [``, `Dry run: ${plan.changes.length} file(s) would change; nothing was written.`]
      : describeChanges(io.cwd, plan.changes);
    if (plan.notes.length) lines.push("", ...plan.notes.map((n) => `note: ${n}`));
    if (plan.manual.length)
      lines.push(
        "",
        `Left for you (create-auth could not change these safely; see ${migrationGuide}):`,
        ...plan.manual.map((m) => `  - ${m}`),
      );
    if (!options.dryRun && plan.packageJsonChanged && !options.install)
      lines.push("", `Install the new packages: ${options.packageManager ?? "npm"} install (in ${show(plan.root)})`);
    io.out.write(`${lines.join("\n")}\n`);
    return applied && { plan, applied };
  });
  if (done?.plan.packageJsonChanged && options.install) {
    io.out.write("\n");
    const { installDependencies, InstallFailed } = await import("./install.js");
    try {
      await installDependencies(done.plan.root, options.packageManager, io);
    } catch (error) {
      if (!(error instanceof InstallFailed)) throw error;
      // The new code with the old packages would be half an upgrade: the files go back to next-auth 4.
      const undone = await withProjectLock(lockRoot, async () => {
        try {
          undoPlan(done.applied);
          return undefined;
        } catch (undoError) {
          return undoError instanceof CliError ? undoError.message : String(undoError);
        }
      });
      throw new CliError(
        undone === undefined
          ? `${error.command} failed (${error.reason}), so the upgrade was undone: every file is as it was, on next-auth 4.`
          : `${error.command} failed (${error.reason}), and undoing the upgrade failed too (${undone}): the files are upgraded, the packages are not.`,
        {
          exitCode: ExitCode.failed,
          hint: `${error.output ? `${error.output}\n\n` : ""}${
            undone === undefined
              ? "Fix the problem above and run create-auth upgrade again (--no-install writes the files and leaves the install to you)."
              : `Fix the problem above, then run \`${error.command}\` in ${done.plan.root}.`
          }`,
          cause: error,
        },
      );
    }
  }
  return ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  upgradeOptions
    .configure(command)
    .addHelpText(
      "after",
      `
Moves a next-auth v4 app to next-auth 5.0.0-beta.32 in one change: authOptions becomes
NextAuth(config) exporting handlers, auth, signIn and signOut; the route moves to
app/api/auth/[...nextauth]/route.ts; getServerSession() becomes auth(); withAuth becomes
auth middleware with the same protection; NEXTAUTH_SECRET and NEXTAUTH_URL become AUTH_SECRET
and AUTH_URL (values kept); @next-auth/*-adapter becomes @auth/*-adapter. Signed-in users stay
signed in. What it cannot change safely it lists, with the migration guide:
https://authjs.dev/getting-started/migrating-to-v5

Examples:
  $ create-auth upgrade --dry-run
  $ create-auth upgrade
  $ create-auth upgrade --config lib/auth.ts --no-install

Exit codes: 0 upgraded (or already on v5), 1 the config cannot be rewritten safely, or a package
cannot fit the project (nothing written), or the install failed (the upgrade undone: every file as
it was), 2 usage error.`,
    )
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(await runUpgrade(flags as UpgradeInput, io));
    });
}
