/**
 * A Prisma project as init finds it: the schema file (package.json's
 * `prisma.schema`, prisma.config.*, else prisma/schema.prisma), Prisma's
 * major version and the client module the app imports.
 */
import type { ProjectView } from "../../workspace/project-view.js";
import { configNames, configString, findExport, type ModuleExport } from "../module-exports.js";

export interface PrismaProject {
  /** Project-relative path of schema.prisma (prisma/schema.prisma when there is none yet). */
  schemaPath: string;
  /** Its text, or null when the file is not there. */
  schemaText: string | null;
  /** The schema setting names a folder of .prisma files. */
  schemaFolder: boolean;
  /** prisma.config.*, when the project has one. */
  configPath?: string;
  /** The module exporting the app's PrismaClient, when there is one. */
  client?: ModuleExport;
  /** From package.json's prisma or @prisma/client range; 7 when neither is there. */
  major: number;
}

const clientPlaces = [
  "lib/prisma.ts",
  "src/lib/prisma.ts",
  "lib/db.ts",
  "src/lib/db.ts",
  "src/server/db.ts",
  "server/db.ts",
  "db.ts",
  "src/db.ts",
  "prisma/client.ts",
  "src/prisma.ts",
  "lib/prisma/index.ts",
  "src/lib/prisma/index.ts",
];

export function readPrismaProject(project: ProjectView): PrismaProject {
  const configPath = project.firstFile(configNames("prisma.config"));
  const fromConfig = configPath ? configString(project.read(configPath) ?? "", "schema") : undefined;
  const fromPackage = (project.packageJson.prisma as { schema?: unknown } | undefined)?.schema;
  const schemaPath = (fromConfig ?? (typeof fromPackage === "string" ? fromPackage : "prisma/schema.prisma"))
    .replace(/^\.\//, "")
    .replace(/\\/g, "/");
  const major = Number(/\d+/.exec(project.range("prisma") ?? project.range("@prisma/client") ?? "")?.[0] ?? 7);
  return {
    schemaPath,
    schemaFolder: project.isDir(schemaPath),
    schemaText: project.isFile(schemaPath) ? project.read(schemaPath) : null,
    configPath,
    client: findExport(project, clientPlaces, /\bPrismaClient\b/, ["prisma", "db", "client"]),
    major: Number.isFinite(major) && major > 0 ? major : 7,
  };
}

/** Why the project looks like a Prisma project, or undefined. */
export function prismaReason(project: ProjectView, facts: PrismaProject): string | undefined {
  if (facts.schemaText !== null || facts.schemaFolder) return facts.schemaPath;
  if (facts.configPath) return facts.configPath;
  const field = project.packageJson.prisma;
  if (typeof field === "object" && field !== null) return 'package.json "prisma"';
  if (project.has("@prisma/client")) return "@prisma/client in package.json";
  return undefined;
}
