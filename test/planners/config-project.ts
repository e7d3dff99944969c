// The auth config init writes, rendered from providers by kind: for config.test.ts and config.typecheck.test.ts.
import { parseProvider } from "../../src/families/registry.js";
import { generateProvider } from "../../src/families/render.js";
import { plainConfig } from "../../src/frameworks/framework.js";
import { generateConfig } from "../../src/planners/auth-config.js";

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
    storage: "sqlite",
    importExtension: ext,
    shape: plainConfig(),
    verifyCommand: "npm run verify-adapter",
  });
}
