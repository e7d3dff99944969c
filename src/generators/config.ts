/**
 * The auth config init writes: one template (templates/config/auth.ts.hbs)
 * filled with the chosen providers (their modules come from the same
 * generator add-provider uses), the generated adapter and the session
 * strategy. Pure: returns planned files, paths relative to the project root.
 */
import { posix } from "node:path";
import type { ImportSpec, ProviderSnippet } from "../providers/snippet.js";
import { renderTemplate } from "./render.js";
import type { Backend, PlannedFile } from "./types.js";

export interface AdapterExport {
  /** The import clause, e.g. `{ createAdapter }` or `createAdapter`. */
  clause: string;
  /** The expression for `adapter:`, e.g. `createAdapter()`. */
  expression: string;
}

/**
 * How the generated adapter module exposes its adapter, read from its text
 * so the config follows whatever the adapter generator writes: a named
 * factory (called), a named adapter object, or a default export.
 */
export function adapterExport(source: string): AdapterExport {
  // A factory named like an adapter may take parameters with defaults (`createAdapter(db = openDb())`); it is called bare.
  const fn =
    /^export\s+function\s+([A-Za-z_$][\w$]*[Aa]dapter[\w$]*)\s*\(/m.exec(source) ??
    /^export\s+function\s+([A-Za-z_$][\w$]*)\s*\(\s*\)/m.exec(source) ??
    /^export\s+const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:\(\s*\)|function\s*\(\s*\))/m.exec(source);
  if (fn) return { clause: `{ ${fn[1]} }`, expression: `${fn[1]}()` };
  const value = /^export\s+const\s+((?:[A-Za-z_$][\w$]*)?[Aa]dapter)\b/m.exec(source);
  if (value) return { clause: `{ ${value[1]} }`, expression: value[1]! };
  if (/^export\s+default\s+(?:function\s*[\w$]*\s*\(\s*\)|\(\s*\)\s*=>)/m.test(source))
    return { clause: "createAdapter", expression: "createAdapter()" };
  if (/^export\s+default\b/m.test(source)) return { clause: "adapter", expression: "adapter" };
  throw new Error("The generated adapter module has no adapter export the config can use");
}

const importLine = (spec: ImportSpec) => {
  const parts = [spec.defaultImport, spec.named?.length ? `{ ${spec.named.join(", ")} }` : undefined].filter(Boolean);
  return `import ${parts.join(", ")} from "${spec.from}";`;
};

/** A relative module specifier from one project file to another, with the project's import extension. */
export function specifier(fromFile: string, toFile: string, ext: "" | ".js"): string {
  const rel = posix.relative(posix.dirname(fromFile), toFile).replace(/\.ts$/, ext);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export interface ConfigInput {
  /** Where the config goes, relative to the project root: "auth.ts" or "src/auth.ts". */
  configPath: string;
  providers: ProviderSnippet[];
  adapter: { path: string; contents: string };
  session: "jwt" | "database";
  backend: Backend;
  importExtension: "" | ".js";
  /** Shown in the config's header, e.g. "npm run verify-adapter". */
  verifyCommand: string;
}

export async function generateConfig(input: ConfigInput): Promise<PlannedFile[]> {
  const dir = posix.dirname(input.configPath);
  const adapter = adapterExport(input.adapter.contents);
  const adapterFrom = specifier(input.configPath, input.adapter.path, input.importExtension);
  const imports = [
    ...input.providers.flatMap((p) => p.imports.map(importLine)),
    `import ${adapter.clause} from "${adapterFrom}";`,
  ];
  const contents = await renderTemplate("config/auth.ts.hbs", {
    imports,
    providers: input.providers.map((p) => p.entry),
    adapterExpression: adapter.expression,
    adapterModule: input.adapter.path,
    backend: input.backend,
    session: input.session,
    databaseSessions: input.session === "database",
    webauthn: input.providers.some((p) => p.kind === "webauthn"),
    providersDir: "providers",
    verifyCommand: input.verifyCommand,
  });
  const providerFiles = input.providers.flatMap((p) =>
    p.files.map((f) => ({ path: posix.join(dir, f.path), contents: f.contents })),
  );
  return [{ path: input.configPath, contents }, ...providerFiles];
}
