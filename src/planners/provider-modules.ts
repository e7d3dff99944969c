/**
 * Where a provider's modules go in a project that has its own auth config
 * (add-provider, init on next-auth v4), and how the config imports them.
 */
import { join } from "node:path";
import { posixRelative } from "../lib/posix-path.js";
import type { ProviderSnippet } from "../render/parts.js";

/**
 * Where the provider modules go: beside the config, unless the config sits
 * under Next.js's pages/ (v4's `pages/api/auth/[...nextauth].ts`), where
 * every file is a page or an API route; then lib/auth/ (src/lib/auth/ in a
 * src/ layout).
 */
export function providerModulesDir(root: string, configDir: string): string {
  const rel = posixRelative(root, configDir);
  const pages = /^(src\/)?pages(?:\/|$)/.exec(rel);
  if (!pages) return configDir;
  return join(root, pages[1] ? "src/lib/auth" : "lib/auth");
}

/** `../auth/passwords` from a folder to a .ts file: POSIX separators, no extension, always relative. */
export function moduleSpecifier(fromDir: string, file: string): string {
  const rel = posixRelative(fromDir, file).replace(/\.ts$/, "");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** A snippet imports its modules as `./providers/<id>`, beside the config; placed elsewhere, the import follows them. */
export function placeSnippet(generated: ProviderSnippet, configDir: string, modulesDir: string): ProviderSnippet {
  if (modulesDir === configDir) return generated;
  return {
    ...generated,
    imports: generated.imports.map((spec) =>
      spec.from.startsWith("./providers/")
        ? {
            ...spec,
            from:
              moduleSpecifier(configDir, join(modulesDir, `${spec.from.replace(/\.js$/, "")}.ts`)) +
              (spec.from.endsWith(".js") ? ".js" : ""),
          }
        : spec,
    ),
  };
}
