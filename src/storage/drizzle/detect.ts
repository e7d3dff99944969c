/**
 * A Drizzle project as init finds it: drizzle.config.* (dialect, schema,
 * out), the schema's modules, and the module exporting `db`.
 */

import { readdirSync } from "node:fs";
import { join, posix } from "node:path";
import type { ProjectView } from "../../workspace/project-view.js";
import { configNames, configString, findExport, type ModuleExport } from "../module-exports.js";

export interface DrizzleProject {
  configPath?: string;
  /** The dialect as drizzle.config writes it ("postgresql"). */
  dialect?: string;
  /** The schema file (or folder) drizzle.config names. */
  schemaPath?: string;
  /** The migrations folder, when drizzle.config names one (generate + migrate); else tables are pushed. */
  out?: string;
  db?: ModuleExport & { driver?: string };
  /** The schema's modules (project-relative path -> text): the file, or the files of the folder it names. */
  schemaTexts?: Record<string, string>;
}

const dbPlaces = [
  "src/db/index.ts",
  "db/index.ts",
  "src/db.ts",
  "db.ts",
  "lib/db.ts",
  "src/lib/db.ts",
  "lib/db/index.ts",
  "src/lib/db/index.ts",
  "src/server/db/index.ts",
  "server/db/index.ts",
  "src/lib/server/db/index.ts",
];

/** The text of a schema file, or of the TypeScript files in a schema folder (or a glob's folder). */
function schemaModules(project: ProjectView, schemaPath: string): Record<string, string> {
  const star = schemaPath.indexOf("*");
  const folder = (star < 0 ? schemaPath : schemaPath.slice(0, star)).replace(/\/$/, "");
  const paths = project.isFile(folder)
    ? [folder]
    : project.isDir(folder)
      ? readdirSync(join(project.root, folder), { recursive: true, encoding: "utf8" })
          .filter((p) => /\.[cm]?[jt]s$/.test(p))
          .map((p) => posix.join(folder, p.replace(/\\/g, "/")))
      : [];
  const texts: Record<string, string> = {};
  for (const path of paths) {
    const text = project.read(path);
    if (text !== null) texts[path] = text;
  }
  return texts;
}

export function readDrizzleProject(project: ProjectView): DrizzleProject {
  const configPath = project.firstFile(configNames("drizzle.config"));
  const text = configPath ? (project.read(configPath) ?? "") : "";
  const db = findExport(project, dbPlaces, /\bdrizzle\s*\(/, ["db", "database"]);
  const dbText = db ? (project.read(db.path) ?? "") : "";
  const schemaPath = configString(text, "schema")?.replace(/^\.\//, "");
  return {
    configPath,
    dialect: configString(text, "dialect"),
    schemaPath,
    schemaTexts: schemaPath ? schemaModules(project, schemaPath) : undefined,
    out: configString(text, "out")?.replace(/^\.\//, ""),
    db: db ? { ...db, driver: /from\s+["']drizzle-orm\/([\w-]+)["']/.exec(dbText)?.[1] } : undefined,
  };
}

/** Why the project looks like a Drizzle project, or undefined. */
export function drizzleReason(project: ProjectView, facts: DrizzleProject): string | undefined {
  if (facts.configPath) return facts.configPath;
  if (project.has("drizzle-orm")) return "drizzle-orm in package.json";
  return undefined;
}
