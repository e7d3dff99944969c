/**
 * The auth config init writes: one template (templates/config/auth.ts.hbs)
 * filled with the chosen providers (their modules come from the same
 * generator add-provider uses), the generated adapter and the session
 * strategy. Pure: returns planned files, paths relative to the project root.
 */
import { posix } from "node:path";
import { type Framework, frameworkCatalog } from "../frameworks/index.js";
import { renderTemplate } from "./render.js";
import type { ImportSpec, PlannedFile, ProviderSnippet } from "./types.js";

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
  /** The generated adapter module; every adapter template exports `createAdapter()`. */
  adapterPath: string;
  session: "jwt" | "database";
  /** Named in the config's header: the backend, or the ORM and its database. */
  backend: string;
  importExtension: "" | ".js";
  /** Shown in the config's header, e.g. "npm run verify-adapter". */
  verifyCommand: string;
  framework?: Framework;
  /** Next.js: the route handler file, named in the header. */
  routeFile?: string;
  /** SvelteKit: the module that copies $env/dynamic/private into process.env. */
  envPath?: string;
  /** Express: where the server mounts the handler, named in the header. */
  serverHint?: string;
}

export async function generateConfig(input: ConfigInput): Promise<PlannedFile[]> {
  const dir = posix.dirname(input.configPath);
  const framework = input.framework ?? "none";
  const adapterFrom = specifier(input.configPath, input.adapterPath, input.importExtension);
  const imports = [
    ...input.providers.flatMap((p) => p.imports.map(importLine)),
    `import { createAdapter } from "${adapterFrom}";`,
  ];
  const contents = await renderTemplate("config/auth.ts.hbs", {
    imports,
    providers: input.providers.map((p) => p.entry),
    adapterModule: input.adapterPath,
    backend: input.backend,
    session: input.session,
    databaseSessions: input.session === "database",
    webauthn: input.providers.some((p) => p.kind === "webauthn"),
    providersDir: "providers",
    verifyCommand: input.verifyCommand,
    next: framework === "next",
    sveltekit: framework === "sveltekit",
    express: framework === "express",
    configType: frameworkCatalog[framework].configType,
    routeFile: input.routeFile ?? "",
    serverHint: input.serverHint ?? "",
    envModule: input.envPath ? specifier(input.configPath, input.envPath, input.importExtension) : "",
  });
  const providerFiles = input.providers.flatMap((p) =>
    p.files.map((f) => ({ path: posix.join(dir, f.path), contents: f.contents })),
  );
  return [{ path: input.configPath, contents }, ...providerFiles];
}
