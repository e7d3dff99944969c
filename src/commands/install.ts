/**
 * Installing a project's dependencies as a command does it: a spinner in a
 * terminal (src/prompts/), then the installed tree read back for copies an
 * advisory affects. Here, above the workspace, so installing (package-manager.ts)
 * need not reach up to the prompts nor back to secure-packages.ts, which
 * imports it.
 */
import type { Io } from "../lib/io.js";
import {
  type Detection,
  detectPackageManager,
  installCommand,
  type PackageManager,
  runInstall,
} from "../workspace/package-manager.js";

/** What a failed install throws, for upgrade, which words it its own way. */
export { InstallFailed } from "../workspace/package-manager.js";

/**
 * Installs a project's dependencies for init and add-provider alike: the
 * manager from `flag`, else detected; a spinner in a terminal, a plain
 * progress line elsewhere. A failure throws runInstall's error (exit 1, the
 * command to rerun).
 */
export async function installDependencies(root: string, flag: PackageManager | undefined, io: Io): Promise<void> {
  const detected: Detection = flag
    ? { manager: flag, source: "--package-manager" }
    : detectPackageManager(root, io.env);
  const command = installCommand(detected.manager).join(" ");
  const progress = io.interactive ? (await import("../prompts/questions.js")).spinner(`Running ${command}`) : undefined;
  if (!progress) io.out.write(`Running ${command} in ${root} (${detected.source})...\n`);
  try {
    await runInstall(detected.manager, root, io.env);
  } catch (error) {
    progress?.failed(`${command} failed`);
    throw error;
  }
  if (progress) progress.done(`Installed with ${detected.manager}`);
  else io.out.write(`Installed with ${detected.manager}.\n`);
  // The installed tree, read back: a copy some package pins can outlive every floor create-auth sets.
  const { affectedAfterInstall } = await import("../workspace/secure-packages.js");
  const left = affectedAfterInstall(root);
  for (const line of left) io.err.write(`warning: ${line}\n`);
  if (left.length)
    io.err.write(
      `warning: create-auth doctor --fix adds what moves them (an override, a raised version); then ${command}.\n`,
    );
}
