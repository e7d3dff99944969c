/**
 * What the server frameworks (Express, Hono, Fastify, Elysia) share: finding
 * the module that starts the server and the project modules it imports,
 * placing the auth modules where the project's compiler takes them, and
 * planning the edit that mounts Auth.js in the module that creates the app
 * (the entry, or the module its imports lead to) — or, where the edit cannot
 * be made with certainty, the lines the user adds.
 */
import { posix, resolve } from "node:path";
import type { ModuleSource } from "../ast/server-app.js";
import type { AppCreation, EntryWiring } from "../ast/server-entry.js";
import { posixRelative } from "../lib/posix-path.js";
import { resolveSpecifier } from "../workspace/auth-setup/aliases.js";
import type { ProjectView } from "../workspace/project-view.js";
import { sourceFolder } from "../workspace/tsconfig.js";
import type { Evidence, FrameworkModule, FrameworkPart } from "./framework.js";

export interface ServerEntry {
  /** Project-relative path of the module that starts the server. */
  path: string;
  text: string;
  /** The entry and the project modules it reaches through its imports (a bounded walk), by project path. */
  modules: Record<string, ModuleSource>;
}

const moduleFile = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const entryNames = ["src/index", "src/server", "src/app", "src/main", "index", "server", "app", "main"];
const entryCandidates = entryNames.flatMap((name) => ["ts", "mts", "js", "mjs"].map((ext) => `${name}.${ext}`));

/** Whether a path is the project's build output or installed code rather than its source. */
function isBuilt(project: ProjectView, path: string): boolean {
  const outDir = project.tsconfig.outDir;
  const built = ["node_modules", "dist", "build", ...(outDir ? [outDir] : [])];
  return built.some((folder) => folder !== "" && (path === folder || path.startsWith(`${folder}/`)));
}

/** Specifiers a module's text names (imports, re-exports, require, import()); the parser decides later what they are. */
const specifiersIn = (text: string) =>
  [...text.matchAll(/\b(?:from|import)\s*["']([^"']+)["']|\b(?:require|import)\s*\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );

/** The project modules `path` reaches by its imports: relative ones and tsconfig `paths` aliases, read as text. */
function reachableModules(project: ProjectView, path: string): Record<string, ModuleSource> {
  const modules: Record<string, ModuleSource> = {};
  const queue: [string, number][] = [[path, 0]];
  while (queue.length && Object.keys(modules).length < 40) {
    const [file, depth] = queue.shift()!;
    if (file in modules) continue;
    const text = project.read(file);
    if (text === null) continue;
    const imports: Record<string, string> = {};
    for (const specifier of specifiersIn(text)) {
      const found = resolveSpecifier(project.tsconfig.paths, resolve(project.root, file), specifier);
      const local = found && posixRelative(project.root, found);
      if (!local || local.startsWith("../") || isBuilt(project, local) || !moduleFile.test(local)) continue;
      imports[specifier] = local;
      if (depth < 4) queue.push([local, depth + 1]);
    }
    modules[file] = { text, imports };
  }
  return modules;
}

/**
 * The module that starts the server: the one the dev or start script runs
 * (`tsx watch src/index.ts`, `node server.js`; not a built file), else
 * package.json's `main`, else the usual places.
 */
export function findServerEntry(project: ProjectView): ServerEntry | undefined {
  const { scripts = {}, main } = project.packageJson;
  const named = [scripts.dev, scripts.start]
    .flatMap((script) =>
      [...(script ?? "").matchAll(/(?:^|[\s=])((?:\.\/)?[\w./@-]+\.(?:[cm]?[jt]s|[jt]sx))(?=$|[\s;&|)"'])/g)].map(
        (m) => m[1]!,
      ),
    )
    .concat(typeof main === "string" ? [main] : [])
    .map((path) => posix.normalize(path))
    .filter((path) => !isBuilt(project, path));
  const path = project.firstFile([...named, ...entryCandidates]);
  const text = path ? project.read(path) : null;
  return path && text !== null ? { path, text, modules: reachableModules(project, path) } : undefined;
}

/** The auth module and its folder in the folder the project's compiler takes, beside the server's code. */
export function serverLayout(entry: ServerEntry | undefined, project: ProjectView) {
  const folder = sourceFolder(project.tsconfig, entry?.path, project.srcDir);
  return { configPath: posix.join(folder, "auth.ts"), authDir: posix.join(folder, "auth") };
}

/** What a framework mounts, for the module its app is created in (specifiers are relative to that module). */
interface EntryMount {
  creates: AppCreation;
  wiring(module: string): Omit<EntryWiring, "creates">;
  /** Where the server module was looked for, for the message when there is none. */
  where: string;
  /** The module the lines to add are written for when there is none (their specifiers are relative to it). */
  fallback: string;
}

/** The lines to add by hand: each import, then the mount, indented under the step. */
function manualLines(wiring: Omit<EntryWiring, "creates">): string {
  return [
    ...(wiring.firstImport ? [`import "${wiring.firstImport}"; (first)`] : []),
    ...wiring.imports,
    ...wiring.mount.replaceAll("$app", "app").trim().split("\n"),
  ].join("\n    ");
}

/**
 * The mount as a part: an edit of the module that creates the app (the
 * entry, or the one its imports lead to), or the lines to add by hand with
 * the reason.
 */
export async function mountInEntry(
  entry: ServerEntry | undefined,
  mount: EntryMount,
  wiringPart: FrameworkPart,
): Promise<void> {
  if (!entry) {
    wiringPart.steps.push(
      `No server module was found (${mount.where}); in the one that creates the app, add:\n    ${manualLines(mount.wiring(mount.fallback))}`,
    );
    return;
  }
  const [{ locateApp }, { wireServerEntry }] = await Promise.all([
    import("../ast/server-app.js"),
    import("../ast/server-entry.js"),
  ]);
  const located = locateApp(entry.path, entry.modules, mount.creates);
  const path = located.status === "found" ? located.path : entry.path;
  const wiring = { creates: mount.creates, ...mount.wiring(path) };
  const edit =
    located.status === "found"
      ? wireServerEntry(entry.modules[path]!.text, wiring, path, located.at)
      : { status: "refused" as const, reason: located.reason };
  if (edit.status === "edited") wiringPart.edits.push({ path, contents: edit.text });
  else if (edit.status === "refused")
    wiringPart.steps.push(`${path} was left alone (${edit.reason}); in it, add:\n    ${manualLines(wiring)}`);
}

/**
 * What the server libraries declare alike: found by their package, their
 * routes under /auth of a server they start themselves, and the auth module
 * in the folder the project's compiler takes, beside the server's code
 * (tsconfig's rootDir, its include, src/), so the build keeps its shape.
 */
export function serverLibrary<F extends { entry: ServerEntry | undefined }>(
  packageName: string,
  facts: (project: ProjectView) => F,
): Pick<FrameworkModule<F>, "precedence" | "basePath" | "envOrder" | "runsModulesAsWritten" | "layout"> & {
  facts: (project: ProjectView) => F;
  shownBy: Evidence;
} {
  return {
    // A library inside the full-stack frameworks (Next.js route handlers, Nuxt...): they win.
    precedence: 3,
    facts,
    shownBy: { packages: [packageName] },
    basePath: "/auth",
    envOrder: "next",
    runsModulesAsWritten: true,
    layout: (facts, project) => serverLayout(facts.entry, project),
  };
}
