/** Finding the project's own module that exports a client (a PrismaClient, a Drizzle `db`), read as text. */
import type { ProjectView } from "../workspace/project-view.js";

export interface ModuleExport {
  /** Project-relative path of the module. */
  path: string;
  /** The exported binding, or "default". */
  name: string;
}

/** The binding a module exports that `test` says is the one (e.g. a PrismaClient), preferring the usual names. */
export function findExport(
  project: ProjectView,
  places: readonly string[],
  test: RegExp,
  usual: readonly string[],
): ModuleExport | undefined {
  for (const path of places) {
    const text = project.isFile(path) ? project.read(path) : null;
    if (text === null || !test.test(text)) continue;
    const named = [...text.matchAll(/export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!);
    const listed = [...text.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(",").map(
        (s) =>
          s
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
      ),
    );
    const all = [...named, ...listed].filter(Boolean);
    const name = usual.find((u) => all.includes(u)) ?? all[0] ?? (/export\s+default\b/.test(text) ? "default" : "");
    if (name) return { path, name };
  }
  return undefined;
}

/** A string property of a config module's object, read as text (`schema: "./prisma/schema.prisma"`). */
export const configString = (text: string, key: string) =>
  new RegExp(`\\b${key}\\s*:\\s*(?:\\[\\s*)?["'\`]([^"'\`]+)["'\`]`).exec(text)?.[1];

export const configNames = (base: string) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((e) => `${base}.${e}`);
