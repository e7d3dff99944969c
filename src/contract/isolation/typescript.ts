/**
 * How the worker imports a user's TypeScript module. create-auth ships no
 * compiler (tsx brings esbuild, 11 MB, which most runs never need): the
 * module is compiled by the project's own tsx (init adds it; most TypeScript
 * projects have it), else by Node's own type stripping (Node 22.18+, 23.6+)
 * with a resolver for TypeScript's import conventions, else the run stops
 * with what to install.
 */
import { existsSync } from "node:fs";
import { register } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { LoadError } from "../../lib/errors.js";
import { packageEntry } from "../../lib/package-entry.js";

interface TsxApi {
  tsImport(url: string, options: { parentURL: string; tsconfig?: string | false }): Promise<Record<string, unknown>>;
  register(options: { namespace: string }): unknown;
}

const found = new Map<string, Promise<TsxApi | undefined>>();

/**
 * tsx's module API as installed for the code in `folder` (its project's
 * node_modules, as Node resolves packages), else beside create-auth.
 */
export function projectTsx(folder: string): Promise<TsxApi | undefined> {
  let api = found.get(folder);
  if (!api) {
    api = (async () => {
      for (const from of [folder, import.meta.url]) {
        const entry = packageEntry("tsx", from, "./esm/api");
        if (entry) return (await import(pathToFileURL(entry).href)) as TsxApi;
      }
      return undefined;
    })();
    found.set(folder, api);
  }
  return api;
}

function findTsconfig(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "tsconfig.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether this Node strips TypeScript's types itself (on by default since 22.18 and 23.6). */
function nodeStripsTypes(): boolean {
  return Boolean((process.features as { typescript?: string | false }).typescript);
}

let resolverRegistered = false;

/** Imports a .ts/.mts/.cts module by whichever of the three ways this machine has. */
export async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  const tsx = await projectTsx(dirname(path));
  // tsx also compiles what Node's stripping refuses (enums, decorators) and honours tsconfig `paths`.
  if (tsx) return tsx.tsImport(url, { parentURL: import.meta.url, tsconfig: findTsconfig(dirname(path)) ?? false });
  if (nodeStripsTypes()) {
    if (!resolverRegistered) {
      register(new URL("./typescript-resolve.js", import.meta.url));
      resolverRegistered = true;
    }
    return import(url);
  }
  throw new LoadError(`${path} is TypeScript, and Node ${process.versions.node} cannot load TypeScript by itself.`, {
    hint: "Install tsx in the project (npm install --save-dev tsx), or run on Node 22.18 or later.",
  });
}
