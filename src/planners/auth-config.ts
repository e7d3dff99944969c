/**
 * The auth config init writes: one template (templates/config/auth.ts.hbs)
 * whose framework slots the framework module fills, with the chosen
 * providers (their modules come from the generator add-provider uses), the
 * storage's adapter and the session strategy. Pure: returns planned files,
 * paths relative to the project root.
 */
import { posix } from "node:path";
import type { ConfigShape } from "../frameworks/framework.js";
import { importLine, specifier } from "../render/modules.js";
import type { PlannedFile, ProviderSnippet } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";

export interface ConfigInput {
  /** Where the config goes, relative to the project root: "auth.ts" or "src/auth.ts". */
  configPath: string;
  providers: ProviderSnippet[];
  /** The generated adapter module; every adapter template exports `createAdapter()`. */
  adapterPath: string;
  session: "jwt" | "database";
  /** Named in the config's header: the backend, or the ORM and its database. */
  storage: string;
  importExtension: "" | ".js";
  /** Shown in the config's header, e.g. "npm run verify-adapter". */
  verifyCommand: string;
  /** The framework's pieces of the module. */
  shape: ConfigShape;
}

export async function generateConfig(input: ConfigInput): Promise<PlannedFile[]> {
  const dir = posix.dirname(input.configPath);
  const adapterFrom = specifier(input.configPath, input.adapterPath, input.importExtension);
  const imports = [
    ...input.providers.flatMap((p) => p.imports.map(importLine)),
    `import { createAdapter } from "${adapterFrom}";`,
  ];
  const contents = await renderTemplate("config/auth.ts.hbs", {
    ...input.shape,
    frameworkImports: input.shape.imports,
    imports,
    providers: input.providers.map((p) => p.entry),
    adapterModule: input.adapterPath,
    backend: input.storage,
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
