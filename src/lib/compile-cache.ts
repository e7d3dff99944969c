/**
 * V8 code caching for the CLI's own bundle and for ts-morph, which bundles the
 * whole TypeScript compiler (12 MB of JavaScript).
 *
 * Node's own cache (module.enableCompileCache, 22.1+) and the v8-compile-cache
 * packages take the code cache right after compiling a file, when V8 has
 * compiled little more than its top level, so every function a command then
 * calls is compiled again on every run. This cache is taken at process exit
 * instead: it holds all the code the command ran, and later runs skip nearly
 * all compilation (Node 20, loading ts-morph and editing a config: 270 -> 180
 * ms). Since what runs depends on the command, each command (the "profile")
 * keeps its own caches. Files are keyed by path, length and mtime rather than
 * by a hash of their content, which alone cost ~27 ms for the compiler file.
 *
 * Only the files named go through it, never a user's modules. They are
 * compiled with node:vm, where Node 20 cannot run `import()` without an
 * experimental flag; none of them calls it (see lib/dynamic-import.ts).
 *
 * The launcher loads this file before the bundle (through lib/launch.ts), so
 * it imports nothing but Node's modules.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { Script } from "node:vm";

interface CjsModule {
  exports: unknown;
  require(id: string): unknown;
}
type Compile = (this: CjsModule, content: string, filename: string, format?: string) => unknown;
type ModuleInternals = typeof module & {
  prototype: { _compile: Compile };
  wrap(content: string): string;
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: CjsModule): string[] | null;
  _cache: unknown;
  _extensions: unknown;
  enableCompileCache?: () => unknown;
};

export interface CompileCacheOptions {
  /** Folders whose CommonJS files are cached (absolute). */
  roots: readonly string[];
  /** Packages, by name, whose CommonJS files are cached wherever they are installed. */
  packages: readonly string[];
  /** What the process will run: its code, and so its caches, differ. */
  profile: string;
}

const internals = module as ModuleInternals;
const toWrite: { script: Script; file: string }[] = [];
let installed = false;

/** Where the caches live: one folder per user and Node build (V8 rejects another build's cache anyway). */
function compileCacheDir(): string {
  const user = process.getuid?.() ?? "user";
  return (
    process.env.CREATE_AUTH_COMPILE_CACHE ||
    join(tmpdir(), `create-auth-compile-cache-${user}`, `${process.version}-${process.arch}`)
  );
}

/**
 * Turns caching on for the rest of the process: Node's built-in cache where
 * it exists, and the exit-time cache for the files named in `options`.
 * NODE_DISABLE_COMPILE_CACHE, Node's own switch, turns both off.
 */
export function enableCompileCache(options: CompileCacheOptions): void {
  if (installed || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  installed = true;
  internals.enableCompileCache?.();

  const original = internals.prototype._compile;
  const cacheDir = compileCacheDir();
  const fragments = options.packages.map((name) => `${sep}node_modules${sep}${name.split("/").join(sep)}${sep}`);
  const covered = (filename: string) =>
    options.roots.some((root) => filename.startsWith(root)) || fragments.some((f) => filename.includes(f));
  // A failed run may have stopped early and run little of the code: not worth keeping.
  process.once("exit", (code) => code === 0 && flushCompileCache());

  internals.prototype._compile = function compileCached(content, filename, format) {
    if (!covered(filename) || (format !== undefined && format !== "commonjs"))
      return original.call(this, content, filename, format);
    const file = join(cacheDir, cacheKey(filename, content, options.profile));
    const cachedData = readIfPresent(file);
    let script: Script;
    try {
      script = new Script(internals.wrap(withoutHashbang(content)), { filename, cachedData });
    } catch {
      // Let Node report the error, or load the file another way (ES module syntax in a .js file, Node 22+).
      return original.call(this, content, filename, format);
    }
    if (!cachedData || script.cachedDataRejected) toWrite.push({ script, file });
    const run = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return run.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
}

/** The `require` a module sees, as Node builds it. */
function requireFor(parent: CjsModule) {
  const resolve = Object.assign(
    (request: string, options?: unknown) => internals._resolveFilename(request, parent, false, options),
    {
      paths: (request: string) => internals._resolveLookupPaths(request, parent),
    },
  );
  return Object.assign((request: string) => parent.require(request), {
    resolve,
    main: (process as { mainModule?: unknown }).mainModule,
    cache: internals._cache,
    extensions: internals._extensions,
  });
}

/** A hashbang is valid only at the very start of a script, and the wrapper moves it; keep the line count. */
function withoutHashbang(content: string): string {
  return content.startsWith("#!") ? `//${content.slice(2)}` : content;
}

/** "<profile>--<file name>--<hash of path, length, mtime>": readable, and unique per version of the file. */
function cacheKey(filename: string, content: string, profile: string): string {
  let mtime = 0;
  try {
    mtime = statSync(filename).mtimeMs;
  } catch {
    // Without an mtime the length still guards the cache, and V8 checks it too.
  }
  const hash = createHash("sha1").update(`${filename}\0${content.length}\0${mtime}`).digest("hex").slice(0, 16);
  return `${profile}--${basename(filename)}--${hash}`;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the caches this run had to compile without; at exit, once all the
 * code that will run has run. A cache is written once per profile and file
 * version, so the first successful run of a command decides what it holds.
 */
function flushCompileCache(): void {
  const entries = toWrite.splice(0);
  if (entries.length === 0) return;
  try {
    mkdirSync(dirname(entries[0]!.file), { recursive: true });
    for (const { script, file } of entries) {
      // Written aside and renamed, so a parallel run never reads half a cache.
      const partial = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, file);
    }
  } catch {
    // A read-only or full temp dir: the next run compiles again, that is all.
  }
}
