/**
 * Which ORM a project already uses, and where its pieces are: for Prisma the
 * schema file (package.json's `prisma.schema`, prisma.config.*, else
 * prisma/schema.prisma), its major version and the client module the app
 * imports; for Drizzle the drizzle.config.* (dialect, schema, out) and the
 * module exporting `db`. The only part of src/orms/ that reads the disk;
 * the modules' plan() takes what this finds.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { readIfExists } from "../workspace/plan.js";
import type { OrmId } from "./orm.js";

export interface ModuleExport {
  /** Project-relative path of the module. */
  path: string;
  /** The exported binding, or "default". */
  name: string;
}

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

export interface OrmFacts {
  orm: OrmId;
  reason: string;
  prisma: PrismaProject;
  drizzle: DrizzleProject;
}

const configNames = (base: string) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((e) => `${base}.${e}`);

const prismaClientPlaces = [
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

const drizzleDbPlaces = [
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

function packageJson(root: string): Record<string, unknown> {
  const text = readIfExists(join(root, "package.json"));
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    // Anything but an object is refused later, where init reads package.json for its own merge.
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const dependencyRange = (pkg: Record<string, unknown>, name: string): string | undefined => {
  for (const field of ["dependencies", "devDependencies"]) {
    const range = (pkg[field] as Record<string, string> | undefined)?.[name];
    if (typeof range === "string") return range;
  }
  return undefined;
};

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** The binding a module exports that `test` says is the one (e.g. a PrismaClient), preferring the usual names. */
function findExport(root: string, places: string[], test: RegExp, usual: string[]): ModuleExport | undefined {
  for (const path of places) {
    const text = isFile(join(root, path)) ? readIfExists(join(root, path)) : null;
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
const configString = (text: string, key: string) =>
  new RegExp(`\\b${key}\\s*:\\s*(?:\\[\\s*)?["'\`]([^"'\`]+)["'\`]`).exec(text)?.[1];

function prismaProject(root: string, pkg: Record<string, unknown>): PrismaProject {
  const configPath = configNames("prisma.config").find((p) => isFile(join(root, p)));
  const fromConfig = configPath ? configString(readIfExists(join(root, configPath)) ?? "", "schema") : undefined;
  const fromPackage = (pkg.prisma as { schema?: unknown } | undefined)?.schema;
  const schemaPath = (fromConfig ?? (typeof fromPackage === "string" ? fromPackage : "prisma/schema.prisma"))
    .replace(/^\.\//, "")
    .replace(/\\/g, "/");
  const full = join(root, schemaPath);
  const range = dependencyRange(pkg, "prisma") ?? dependencyRange(pkg, "@prisma/client");
  const major = Number(/\d+/.exec(range ?? "")?.[0] ?? 7);
  return {
    schemaPath,
    schemaFolder: existsSync(full) && !isFile(full),
    schemaText: isFile(full) ? readIfExists(full) : null,
    configPath,
    client: findExport(root, prismaClientPlaces, /\bPrismaClient\b/, ["prisma", "db", "client"]),
    major: Number.isFinite(major) && major > 0 ? major : 7,
  };
}

function drizzleProject(root: string): DrizzleProject {
  const configPath = configNames("drizzle.config").find((p) => isFile(join(root, p)));
  const text = configPath ? (readIfExists(join(root, configPath)) ?? "") : "";
  const db = findExport(root, drizzleDbPlaces, /\bdrizzle\s*\(/, ["db", "database"]);
  const dbText = db ? (readIfExists(join(root, db.path)) ?? "") : "";
  const schemaPath = configString(text, "schema")?.replace(/^\.\//, "");
  return {
    configPath,
    dialect: configString(text, "dialect"),
    schemaPath,
    schemaTexts: schemaPath ? schemaModules(root, schemaPath) : undefined,
    out: configString(text, "out")?.replace(/^\.\//, ""),
    db: db ? { ...db, driver: /from\s+["']drizzle-orm\/([\w-]+)["']/.exec(dbText)?.[1] } : undefined,
  };
}

/** The text of a schema file, or of the TypeScript files in a schema folder (or a glob's folder). */
function schemaModules(root: string, schemaPath: string): Record<string, string> {
  const star = schemaPath.indexOf("*");
  const folder = (star < 0 ? schemaPath : schemaPath.slice(0, star)).replace(/\/$/, "");
  const full = join(root, folder);
  const paths = isFile(full)
    ? [folder]
    : existsSync(full)
      ? readdirSync(full, { recursive: true, encoding: "utf8" })
          .filter((p) => /\.[cm]?[jt]s$/.test(p))
          .map((p) => posix.join(folder, p.replace(/\\/g, "/")))
      : [];
  const texts: Record<string, string> = {};
  for (const path of paths) {
    const text = readIfExists(join(root, path));
    if (text !== null) texts[path] = text;
  }
  return texts;
}

/** The ORM the project shows, and why; "none" when it shows neither. */
export function detectOrm(root: string): OrmFacts {
  const pkg = packageJson(root);
  const prisma = prismaProject(root, pkg);
  const drizzle = drizzleProject(root);
  const facts = (orm: OrmId, reason: string): OrmFacts => ({ orm, reason, prisma, drizzle });
  if (prisma.schemaText !== null || prisma.schemaFolder) return facts("prisma", prisma.schemaPath);
  if (prisma.configPath) return facts("prisma", prisma.configPath);
  if (typeof pkg.prisma === "object" && pkg.prisma !== null) return facts("prisma", 'package.json "prisma"');
  if (dependencyRange(pkg, "@prisma/client")) return facts("prisma", "@prisma/client in package.json");
  if (drizzle.configPath) return facts("drizzle", drizzle.configPath);
  if (dependencyRange(pkg, "drizzle-orm")) return facts("drizzle", "drizzle-orm in package.json");
  return facts("none", "no Prisma or Drizzle in this project");
}
