/** init's checks of its input that need no plan: the project folder, and flags that contradict each other. */
import { accessSync, constants, existsSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { detectFramework, type FrameworkDetection } from "../frameworks/registry.js";
import { UsageError } from "../lib/errors.js";
import type { Io } from "../lib/io.js";
import { dialectOf } from "../storage/registry.js";
import { ProjectView } from "../workspace/project-view.js";
import { workspacePackages } from "../workspace/workspace-packages.js";

/** --dir: created when absent, refused when it is a file or cannot be written. */
export function checkDir(dir: string, shown: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(`--dir ${shown}: is a file, not a directory.`);
  let existing = dir;
  while (!existsSync(existing)) existing = dirname(existing);
  try {
    // access() says yes to root everywhere; a real probe also catches read-only and pseudo filesystems.
    accessSync(existing, constants.W_OK);
    rmdirSync(mkdtempSync(join(existing, ".create-auth-probe-")));
  } catch {
    throw new UsageError(`--dir ${shown}: cannot write to ${existing}; nothing was written.`);
  }
}

/**
 * The project init sets up: the folder it was given, or, when that is a
 * workspace's root with no framework of its own (and none named), the one
 * package of the workspace that is an app, said in a note. Several apps:
 * the user names one.
 */
export function appProject(
  root: string,
  named: string | undefined,
  io: Io,
): { root: string; project: ProjectView; detected: FrameworkDetection } {
  const project = new ProjectView(root);
  const detected = detectFramework(project);
  if (named !== undefined || detected.framework.id !== "none") return { root, project, detected };
  const apps = workspacePackages(root).flatMap((folder) => {
    const app = new ProjectView(join(root, folder));
    const found = detectFramework(app);
    return found.framework.id === "none" ? [] : [{ folder, project: app, detected: found }];
  });
  if (apps.length > 1)
    throw new UsageError(
      `This is a workspace's root, and ${apps.length} of its packages are apps (${apps.map((a) => a.folder).join(", ")}): run create-auth init in the one to set up (or pass --dir <it>). Nothing was written.`,
    );
  const [app] = apps;
  if (!app) return { root, project, detected };
  io.out.write(
    `note: this is a workspace's root; init sets up its app in ${app.folder} (${app.detected.framework.title}). Run create-auth there next time.\n`,
  );
  return { root: join(root, app.folder), project: app.project, detected: app.detected };
}

export function conflicts(o: { backend: string; dialect?: string; session: string; kinds: string[] }): void {
  const own = dialectOf(o.backend);
  if (o.dialect && own && o.dialect !== own)
    throw new UsageError(
      `--dialect ${o.dialect} conflicts with --backend ${o.backend}, which speaks ${own}; drop --dialect or change --backend.`,
    );
  // Auth.js signs credentials in with a JWT cookie whatever the strategy: with database sessions it refuses a
  // config of credentials alone, and beside another provider the password sign-in leaves a cookie no session
  // lookup finds (signed in, then signed out at once). No kinds: init adds none to a config of the project's own.
  if (o.session === "database" && o.kinds.includes("credentials")) {
    throw new UsageError(
      "--session database conflicts with --providers credentials: Auth.js keeps password sign-ins in JWT sessions only (with database sessions they end with no session); use --session jwt (the adapter still stores users and accounts) or leave credentials out.",
    );
  }
}
