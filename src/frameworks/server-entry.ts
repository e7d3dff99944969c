/**
 * What the server frameworks (Hono, Fastify, Elysia) share: finding the
 * module that starts the server, and planning the edit that mounts Auth.js
 * in it — or, where the edit cannot be made with certainty, the lines the
 * user adds.
 */
import { posix } from "node:path";
import type { EntryWiring } from "../ast/server-entry.js";
import type { ProjectView } from "../workspace/project-view.js";
import { detectBy, type FrameworkModule, type FrameworkPart } from "./framework.js";

export interface ServerEntry {
  /** Project-relative path of the module that starts the server. */
  path: string;
  text: string;
}

const entryCandidates = ["src/index.ts", "src/server.ts", "src/app.ts", "src/main.ts", "index.ts", "server.ts"];

/** The module the dev or start script runs (`tsx watch src/index.ts`), else the usual places. */
export function findServerEntry(project: ProjectView): ServerEntry | undefined {
  const scripts = project.packageJson.scripts ?? {};
  const named = [scripts.dev, scripts.start]
    .flatMap((script) => [...(script ?? "").matchAll(/(?:^|\s)((?:\.\/)?[\w./-]+\.[cm]?ts)\b/g)].map((m) => m[1]!))
    .map((path) => posix.normalize(path));
  const path = project.firstFile([...named, ...entryCandidates]);
  const text = path ? project.read(path) : null;
  return path && text !== null ? { path, text } : undefined;
}

/** The entry edit as a part: the edited text, or the lines to add by hand with the reason. */
export async function mountInEntry(
  entry: ServerEntry | undefined,
  wiring: EntryWiring,
  wiringPart: FrameworkPart,
  where: string,
): Promise<void> {
  const manual = [
    ...(wiring.firstImport ? [`import "${wiring.firstImport}"; (first)`] : []),
    ...wiring.imports,
    wiring.mount.replaceAll("$app", "app").trim(),
  ].join("\n    ");
  if (!entry) {
    wiringPart.steps.push(
      `No server module was found (${where}); in the one that creates the app, add:\n    ${manual}`,
    );
    return;
  }
  const { wireServerEntry } = await import("../ast/server-entry.js");
  const edit = wireServerEntry(entry.text, wiring, entry.path);
  if (edit.status === "edited") wiringPart.edits.push({ path: entry.path, contents: edit.text });
  else if (edit.status === "refused")
    wiringPart.steps.push(`${entry.path} was left alone (${edit.reason}); in it, add:\n    ${manual}`);
}

/**
 * What the server libraries on the generic wiring (Hono, Fastify, Elysia)
 * declare alike: found by their package, their routes under /auth of a
 * server they start themselves, and the auth module inside src/ when the
 * server's code is there (tsc's inferred rootDir would otherwise move the
 * build output).
 */
export function serverLibrary<F>(
  packageName: string,
  facts: (project: ProjectView) => F,
): Omit<FrameworkModule<F>, "id" | "title" | "plan" | "doctor"> {
  return {
    // A library inside the full-stack frameworks (Next.js route handlers, Nuxt...): they win.
    precedence: 3,
    detect: detectBy(facts, { packages: [packageName] }),
    assume: facts,
    dependencies: [],
    devDependencies: [],
    app: { port: 3000, devCommand: "npm run dev" },
    basePath: "/auth",
    authPackage: "@auth/core",
    envOrder: "next",
    protects: true,
    layout: (_facts, project) =>
      project.srcDir ? { configPath: "src/auth.ts", authDir: "src/auth" } : { configPath: "auth.ts", authDir: "auth" },
  };
}
