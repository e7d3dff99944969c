/**
 * Module resolution hooks for Node's own type stripping (registered by
 * typescript.ts when the project has no tsx): TypeScript code imports
 * `./db.js` for `db.ts`, and often `./db` with no extension, which Node
 * alone does not find. Only relative imports of files are retried; what Node
 * resolves itself is left as it is.
 */

type Resolved = { url: string; format?: string | null };
type Next = (specifier: string, context: { parentURL?: string }) => Promise<Resolved>;

const swaps: Array<[RegExp, string[]]> = [
  [/\.js$/, [".ts", ".tsx"]],
  [/\.mjs$/, [".mts"]],
  [/\.cjs$/, [".cts"]],
  [/\/$/, ["index.ts"]],
];

function candidates(specifier: string): string[] {
  for (const [ending, replacements] of swaps)
    if (ending.test(specifier)) return replacements.map((r) => specifier.replace(ending, r));
  // No extension: a file of that name, or a folder's index.
  if (!/\.[cm]?[jt]sx?$/.test(specifier)) return [".ts", ".tsx", "/index.ts"].map((e) => specifier + e);
  return [];
}

export async function resolve(specifier: string, context: { parentURL?: string }, next: Next): Promise<Resolved> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (!relative || !context.parentURL?.startsWith("file:")) throw error;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "ERR_UNSUPPORTED_DIR_IMPORT") throw error;
    for (const candidate of candidates(specifier)) {
      try {
        return await next(candidate, context);
      } catch {
        // The next candidate.
      }
    }
    throw error;
  }
}

type Loaded = { format?: string | null; source?: string | ArrayBuffer | Uint8Array | null; shortCircuit?: boolean };
type NextLoad = (url: string, context: object) => Promise<Loaded>;

/** A top-level import or export statement (not TypeScript's `import x = require(...)`, which is CommonJS). */
const moduleSyntax = /^\s*(?:import\s*(?:[\w*{"'`]|type\s)(?!\s*\w+\s*=\s*require\b)|export\s)/m;

/**
 * A .ts module written with import/export in a package whose type is
 * CommonJS (tsc compiles it to require() for them): Node alone would run it
 * as CommonJS and fail on the first import, so it is loaded as a module.
 */
export async function load(url: string, context: object, next: NextLoad): Promise<Loaded> {
  const loaded = await next(url, context);
  if (loaded.format !== "commonjs-typescript") return loaded;
  const source = loaded.source ?? (await next(url, { ...context, format: "module-typescript" })).source;
  const text = typeof source === "string" ? source : new TextDecoder().decode(source ?? new Uint8Array());
  return moduleSyntax.test(text) ? { format: "module-typescript", source: text, shortCircuit: true } : loaded;
}
