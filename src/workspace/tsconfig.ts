/**
 * The project's compiler settings as its compiler reads them: tsconfig.json
 * (else jsconfig.json) with its `extends` chain, relative or from a package
 * (`@tsconfig/node22/tsconfig.json`), each path option resolved against the
 * file that sets it. What generated modules must fit: the folder the
 * compiler takes (`rootDir`, `include`), the import style (`module`), the
 * aliases (`paths`).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, posix, resolve } from "node:path";
import { posixRelative } from "../lib/posix-path.js";
import { type PathAlias, parseJsonc } from "./auth-setup/aliases.js";
import { readIfExists } from "./plan.js";

export interface ProjectTsconfig {
  /** The file read, project-relative (tsconfig.json or jsconfig.json); undefined when there is neither. */
  file: string | undefined;
  /** Project-relative folders, "" for the project's own; may start with "../" (a monorepo's base). */
  rootDir?: string;
  outDir?: string;
  /** Project-relative patterns, as the file that sets them wrote them. */
  include?: string[];
  files?: string[];
  module?: string;
  moduleResolution?: string;
  allowJs?: boolean;
  /** `paths`, with absolute targets. */
  paths: PathAlias[];
}

interface Layer {
  compilerOptions: Record<string, unknown>;
  /** Where each path-valued option and the include/files lists were set. */
  base: Record<string, string>;
  include?: string[];
  files?: string[];
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

const pathOptions = ["rootDir", "outDir", "baseUrl", "paths"] as const;

/** A config `extends` names: relative to the file, else a package's (its tsconfig.json, or the file it names). */
function resolveExtends(from: string, name: string): string | undefined {
  const dir = dirname(from);
  const candidates = (path: string) =>
    (/\.json$/i.test(path) ? [path] : [path, `${path}.json`, join(path, "tsconfig.json")]).filter(isFile);
  if (name.startsWith(".") || isAbsolute(name)) return candidates(resolve(dir, name))[0];
  for (let at = dir; ; at = dirname(at)) {
    const found = candidates(join(at, "node_modules", name))[0];
    if (found) return found;
    if (dirname(at) === at) return undefined;
  }
}

function readLayer(file: string, depth: number): Layer | undefined {
  let text: string | null = null;
  try {
    text = readIfExists(file);
  } catch {
    return undefined;
  }
  const json = text === null ? undefined : parseJsonc(text);
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined;
  const own = json as { extends?: unknown; compilerOptions?: unknown; include?: unknown; files?: unknown };
  const layer: Layer = { compilerOptions: {}, base: {} };
  // Later entries of an `extends` list win over earlier ones, and the file itself over all of them.
  const parents = (Array.isArray(own.extends) ? own.extends : [own.extends]).filter(
    (e): e is string => typeof e === "string",
  );
  for (const name of depth < 8 ? parents : []) {
    const target = resolveExtends(file, name);
    const parent = target ? readLayer(target, depth + 1) : undefined;
    if (!parent) continue;
    Object.assign(layer.compilerOptions, parent.compilerOptions);
    Object.assign(layer.base, parent.base);
    if (parent.include) layer.include = parent.include;
    if (parent.files) layer.files = parent.files;
  }
  const options = own.compilerOptions;
  if (options && typeof options === "object" && !Array.isArray(options)) {
    Object.assign(layer.compilerOptions, options);
    for (const name of pathOptions) if (name in options) layer.base[name] = dirname(file);
  }
  const strings = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((v): v is string => typeof v === "string").map((v) => resolve(dirname(file), v))
      : undefined;
  if (own.include !== undefined) layer.include = strings(own.include);
  if (own.files !== undefined) layer.files = strings(own.files);
  return layer;
}

export function readTsconfig(root: string): ProjectTsconfig {
  const file = ["tsconfig.json", "jsconfig.json"].find((name) => existsSync(join(root, name)));
  const layer = file ? readLayer(join(root, file), 0) : undefined;
  if (!layer) return { file: undefined, paths: [] };
  const options = layer.compilerOptions;
  const text = (name: string) => (typeof options[name] === "string" ? (options[name] as string) : undefined);
  const folder = (name: "rootDir" | "outDir") => {
    const value = text(name);
    return value === undefined ? undefined : posixRelative(root, resolve(layer.base[name]!, value));
  };
  const paths: PathAlias[] = [];
  if (options.paths && typeof options.paths === "object") {
    // Without baseUrl, paths are relative to the config that declares them (TypeScript 4.1 and later).
    const base = text("baseUrl") === undefined ? layer.base.paths! : resolve(layer.base.baseUrl!, text("baseUrl")!);
    for (const [pattern, targets] of Object.entries(options.paths as Record<string, unknown>)) {
      if (!Array.isArray(targets)) continue;
      paths.push({ pattern, targets: targets.filter((t) => typeof t === "string").map((t) => resolve(base, t)) });
    }
  }
  return {
    file,
    ...(folder("rootDir") !== undefined ? { rootDir: folder("rootDir") } : {}),
    ...(folder("outDir") !== undefined ? { outDir: folder("outDir") } : {}),
    ...(layer.include ? { include: layer.include.map((p) => posixRelative(root, p)) } : {}),
    ...(layer.files ? { files: layer.files.map((p) => posixRelative(root, p)) } : {}),
    ...(text("module") ? { module: text("module")!.toLowerCase() } : {}),
    ...(text("moduleResolution") ? { moduleResolution: text("moduleResolution")!.toLowerCase() } : {}),
    ...(typeof options.allowJs === "boolean" ? { allowJs: options.allowJs } : {}),
    paths,
  };
}

/** Relative imports carry ".js" under Node's own ESM resolution (module or moduleResolution node16/nodenext). */
export const nodeResolution = (tsconfig: ProjectTsconfig) =>
  [tsconfig.module, tsconfig.moduleResolution].some((v) => v === "node16" || v === "nodenext");

/** The folder a pattern of `include` starts from: "src/**\/*.ts" -> "src", "**\/*" -> "", "src/index.ts" -> "src". */
function patternFolder(pattern: string): string {
  const segments = posix.normalize(pattern).split("/");
  const fixed: string[] = [];
  for (const segment of segments) {
    if (/[*?]/.test(segment)) return fixed.join("/");
    fixed.push(segment);
  }
  // A pattern with no wildcard names a folder, or a file by its extension.
  if (/\.[cm]?[jt]sx?$|\.json$/.test(fixed.at(-1) ?? "")) fixed.pop();
  return fixed.join("/").replace(/^\.$/, "");
}

const inside = (path: string, folder: string) => folder === "" || path === folder || path.startsWith(`${folder}/`);

/**
 * The folder a project's generated modules go in, so its compiler takes
 * them and its build keeps its shape: tsconfig's `rootDir`; else the folder
 * of the `include` pattern (or `files` entry) that holds `near` (the module
 * they are wired into), or the first; else `near`'s top folder; else src/
 * when there is one. Project-relative, "" for the project's own folder.
 */
export function sourceFolder(tsconfig: ProjectTsconfig, near: string | undefined, hasSrc: boolean): string {
  const usable = (folder: string) => !folder.startsWith("../") && folder !== "..";
  if (tsconfig.rootDir !== undefined && usable(tsconfig.rootDir)) return tsconfig.rootDir;
  const listed = (tsconfig.include ?? tsconfig.files ?? []).map(patternFolder).filter(usable);
  if (listed.length)
    return (
      listed.find((folder) => near !== undefined && inside(near, folder)) ??
      listed.find((folder) => folder === "src") ??
      listed[0]!
    );
  const top = near?.includes("/") ? near.split("/")[0]! : undefined;
  if (top !== undefined) return top;
  return hasSrc ? "src" : "";
}
