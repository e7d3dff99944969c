// The auth config init writes, rendered from providers by kind: for config.test.ts and config.typecheck.test.ts.
import { parseProvider } from "../../src/families/registry.js";
import { generateConfig } from "../../src/generators/config.js";
import { generateProvider } from "../../src/generators/provider.js";

export async function renderConfig(
  kinds: string[],
  o: { session?: "jwt" | "database"; configPath?: string; ext?: "" | ".js" } = {},
) {
  const ext = o.ext ?? "";
  const providers = await Promise.all(
    kinds.map((k) => parseProvider(k, {})).map((p) => generateProvider(p.kind, p.options, { importExtension: ext })),
  );
  return generateConfig({
    configPath: o.configPath ?? "auth.ts",
    providers,
    adapterPath: "auth/adapter.ts",
    session: o.session ?? "jwt",
    backend: "sqlite",
    importExtension: ext,
    verifyCommand: "npm run verify-adapter",
  });
}
