/**
 * Which package manager a project uses, and installing with it (the
 * command's side, a spinner and the check of what was installed, is
 * installDependencies in src/commands/install.ts). The
 * lockfile in the project wins (it is what the team committed); then the
 * manager that launched us (`npm create auth`, `pnpm create auth`... set
 * npm_config_user_agent); then npm, which ships with Node.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CliError, ExitCode } from "../lib/errors.js";

export const packageManagers = ["npm", "pnpm", "yarn", "bun"] as const;
export type PackageManager = (typeof packageManagers)[number];

/** Lockfiles in order of precedence: a bun project may keep a yarn.lock for other tools, not the reverse. */
const lockfiles: readonly [string, PackageManager][] = [
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
];

export interface Detection {
  manager: PackageManager;
  /** Why: "pnpm-lock.yaml", "npm_config_user_agent" or "default". */
  source: string;
}

/** The manager named at the start of a user agent such as "pnpm/9.1.0 npm/? node/v20.12.0 linux x64". */
export function fromUserAgent(userAgent: string | undefined): PackageManager | undefined {
  const name = userAgent?.trim().split("/")[0]?.toLowerCase();
  return packageManagers.find((m) => m === name);
}

export function detectPackageManager(root: string, env: NodeJS.ProcessEnv = process.env): Detection {
  const lock = lockfiles.find(([file]) => existsSync(join(root, file)));
  if (lock) return { manager: lock[1], source: lock[0] };
  const agent = fromUserAgent(env.npm_config_user_agent);
  if (agent) return { manager: agent, source: "npm_config_user_agent" };
  return { manager: "npm", source: "default" };
}

/** The command line that installs a project's dependencies, as shown to the user. */
export const installCommand = (manager: PackageManager): string[] => [manager, "install"];

/**
 * Runs the install in `root`. Output is captured (a spinner or a progress
 * line is shown instead) and printed only when it fails. execa is imported
 * here, lazily: --no-install and --dry-run never load it.
 */
export async function runInstall(manager: PackageManager, root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [command, ...args] = installCommand(manager);
  const { execa } = await import("execa");
  // The command's environment, not this process's: a library caller's PATH and registry settings hold.
  const result = await execa(command!, args, {
    cwd: root,
    env,
    extendEnv: false,
    reject: false,
    all: true,
    stdin: "ignore",
  });
  if (result.exitCode === 0 && !result.failed) return;
  const reason =
    result.exitCode === undefined ? (result.shortMessage ?? "could not start") : `exit code ${result.exitCode}`;
  const tail = String(result.all ?? "")
    .trim()
    .split("\n")
    .slice(-15)
    .join("\n");
  throw new InstallFailed(installCommand(manager).join(" "), reason, tail, root);
}

/** The install failed: its command, why (an exit code), and the end of its output, for a command that words it its own way. */
export class InstallFailed extends CliError {
  constructor(
    readonly command: string,
    readonly reason: string,
    readonly output: string,
    root: string,
  ) {
    super(`${command} failed (${reason}); the files were written, the dependencies are not installed.`, {
      exitCode: ExitCode.failed,
      hint: `${output ? `${output}\n\n` : ""}Fix the problem above, then run \`${command}\` in ${root}.`,
    });
    this.name = "InstallFailed";
  }
}

/** The --package-manager row every installing command's options table shares. */
export const packageManagerOption = {
  flag: "--package-manager <name>",
  description: `${packageManagers.join(", ")} (default: from the lockfile, else the one running create-auth, else npm)`,
  schema: z.enum(packageManagers).optional(),
  expects: packageManagers.join(", "),
};
