/**
 * The import aliases a project's own code uses: tsconfig.json's or
 * jsconfig.json's `paths` (with `baseUrl` and one level of `extends`), and
 * SvelteKit's `$lib`. A specifier is resolved to one of the project's files
 * the way TypeScript and the bundlers do: the extension may be left out or
 * written as `.js`, and a folder means its index file.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readIfExists } from "../plan.js";

export interface PathAlias {
  /** The pattern as written, `@/*` or `~/*` or an exact name. */
  pattern: string;
  /** Absolute targets, each with at most one `*`. */
  targets: string[];
}

const extensions = ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/** JSON with comments and trailing commas, as tsconfig allows; undefined when it still does not parse. */
export function parseJsonc(text: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return undefined;
  }
}

interface CompilerOptions {
  baseUrl?: string;
  paths?: Record<string, string[]>;
}

function readOptions(file: string, depth = 0): { options: CompilerOptions; dir: string } | undefined {
  let text: string | null = null;
  try {
    text = readIfExists(file);
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  const json = parseJsonc(text) as { extends?: unknown; compilerOptions?: CompilerOptions } | undefined;
  if (!json || typeof json !== "object") return undefined;
  const own = { options: json.compilerOptions ?? {}, dir: dirname(file) };
  // A relative `extends` (a monorepo's shared base) may hold the paths; a package name is left alone.
  if (depth < 3 && typeof json.extends === "string" && json.extends.startsWith(".") && !own.options.paths) {
    const base = json.extends.endsWith(".json") ? json.extends : `${json.extends}.json`;
    const parent = readOptions(resolve(own.dir, base), depth + 1);
    if (parent?.options.paths) return { options: { ...parent.options, ...own.options }, dir: parent.dir };
  }
  return own;
}

/** The project's aliases: tsconfig.json, else jsconfig.json; `$lib` for SvelteKit's layout. */
export function readAliases(root: string): PathAlias[] {
  const found = readOptions(join(root, "tsconfig.json")) ?? readOptions(join(root, "jsconfig.json"));
  const aliases: PathAlias[] = [];
  if (found?.options.paths && typeof found.options.paths === "object") {
    // Without baseUrl, paths are relative to the tsconfig that declares them (TypeScript 4.1 and later).
    const base = resolve(found.dir, found.options.baseUrl ?? ".");
    for (const [pattern, targets] of Object.entries(found.options.paths)) {
      if (!Array.isArray(targets)) continue;
      const absolute = targets.filter((t): t is string => typeof t === "string").map((t) => resolve(base, t));
      aliases.push({ pattern, targets: absolute });
    }
  }
  if (!aliases.some((a) => a.pattern.startsWith("$lib"))) {
    aliases.push({ pattern: "$lib/*", targets: [join(root, "src/lib/*")] });
    aliases.push({ pattern: "$lib", targets: [join(root, "src/lib")] });
  }
  return aliases;
}

/** The file `base` names: itself, with an extension, a `.js` written for a `.ts`, or a folder's index. */
export function probeFile(base: string): string | undefined {
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  if (isFile(base)) return base;
  const bare = base.replace(/\.[cm]?jsx?$/, "");
  for (const ext of extensions) if (isFile(`${bare}.${ext}`)) return `${bare}.${ext}`;
  for (const ext of extensions) if (isFile(join(base, `index.${ext}`))) return join(base, `index.${ext}`);
  return undefined;
}

/** The project file `specifier` names from `from`: relative, or through an alias; undefined for packages. */
export function resolveSpecifier(aliases: readonly PathAlias[], from: string, specifier: string): string | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..")
    return probeFile(resolve(dirname(from), specifier));
  for (const alias of aliases) {
    const star = alias.pattern.indexOf("*");
    let rest: string | undefined;
    if (star === -1) rest = specifier === alias.pattern ? "" : undefined;
    else {
      const prefix = alias.pattern.slice(0, star);
      const suffix = alias.pattern.slice(star + 1);
      if (
        specifier.startsWith(prefix) &&
        specifier.endsWith(suffix) &&
        specifier.length >= prefix.length + suffix.length
      )
        rest = specifier.slice(prefix.length, specifier.length - suffix.length);
    }
    if (rest === undefined) continue;
    for (const target of alias.targets) {
      const file = probeFile(target.replace("*", rest));
      if (file) return file;
    }
  }
  return undefined;
}
