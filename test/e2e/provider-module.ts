/**
 * Loads a ProviderSnippet the way the user's app would: its files written
 * beside an "auth config", that config importing them with the snippet's own
 * import lines and `providers: [entry]`, each file compiled by TypeScript's
 * transpiler and imported natively. Any mistake in the paths, import
 * specifiers, export names or the TypeScript itself fails here exactly as it
 * would in the app. Native imports (not tsx's namespaced ones) share
 * @auth/core with the test's Auth(), as an app has one copy of it: the
 * customFetch symbol the modules import is the one Auth() reads.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Provider } from "@auth/core/providers";
import ts from "typescript";
import type { GenerateContext } from "../../src/families/family.js";
import { type ProviderKind, parseProviderOptions } from "../../src/families/registry.js";
import { generateProvider } from "../../src/families/render.js";
import type { ImportSpec, ProviderSnippet } from "../../src/render/parts.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface LoadedProvider {
  provider: Provider;
  snippet: ProviderSnippet;
  /** The temp "app" directory; removed by cleanup(). */
  dir: string;
  /** Source of each generated file, for failure messages that point at lines. */
  sources: Record<string, string>;
  /** A generated module ("providers/vk.ts") as the app imports it: the same instance the config uses. */
  module<T>(path: string): Promise<T>;
  cleanup(): void;
}

/** Writes `path` (a .ts file) and its JavaScript beside it, as a build would. */
export function writeModule(dir: string, path: string, source: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), source);
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: path,
    reportDiagnostics: true,
  });
  if (js.diagnostics?.length)
    throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(js.diagnostics[0]!.messageText, "\n")}`);
  writeFileSync(join(dir, path.replace(/\.ts$/, ".js")), js.outputText);
}

function renderImport(spec: ImportSpec): string {
  const bindings = [spec.defaultImport, spec.named?.length ? `{ ${spec.named.join(", ")} }` : undefined]
    .filter(Boolean)
    .join(", ");
  return bindings ? `import ${bindings} from ${JSON.stringify(spec.from)};` : `import ${JSON.stringify(spec.from)};`;
}

export async function importSnippet(snippet: ProviderSnippet): Promise<LoadedProvider> {
  const dir = mkdtempSync(join(tmpdir(), "create-auth-e2e-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    // The temp app resolves @auth/core & co. from this project, as an installed app would from its own.
    symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const sources: Record<string, string> = {};
    for (const file of snippet.files) {
      if (file.path.startsWith("/") || file.path.split("/").includes(".."))
        throw new Error(`generated file escapes the config directory: ${file.path}`);
      writeModule(dir, file.path, file.contents);
      sources[file.path] = file.contents;
    }
    // What the config edit produces: the snippet's imports plus `providers: [entry]`.
    const config = [...snippet.imports.map(renderImport), `export const providers = [${snippet.entry}];`, ""].join(
      "\n",
    );
    writeModule(dir, "auth.ts", config);
    sources["auth.ts"] = config;
    const load = <T>(path: string) => import(pathToFileURL(join(dir, path.replace(/\.ts$/, ".js"))).href) as Promise<T>;
    const { providers } = await load<{ providers: Provider[] }>("auth.ts");
    const provider = providers[0];
    if (!provider) throw new Error(`entry ${snippet.entry} evaluated to nothing`);
    return { provider, snippet, dir, sources, module: load, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/**
 * `create-auth add-provider <kind> --flags` minus the file editing: the same
 * option parsing and generator, with NodeNext-style ".js" import specifiers
 * (the stricter of the two styles the generator emits).
 */
export async function generated(
  kind: ProviderKind,
  flags: Record<string, unknown>,
  context: GenerateContext = {},
): Promise<LoadedProvider> {
  const options = parseProviderOptions(kind, flags);
  const snippet = await generateProvider(kind, options, { importExtension: ".js", ...context });
  return importSnippet(snippet);
}

/** Sets variables for the duration of a test (generated modules may read process.env at import or call time). */
export function withEnv(vars: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
