/**
 * A family's provider as a part, for `add-provider <kind>` and `init` alike:
 * validated options -> a ProviderSnippet (the provider module(s) to write
 * beside the auth config, the import and entry the config edit adds, env
 * variables, dependencies and next steps). Each family plans its files;
 * this renders them. Nothing touches disk.
 */
import { type DependencyName, dependencyVersions } from "../catalog/dependencies.js";
import { type PlannedFile, type ProviderSnippet, part } from "../render/parts.js";
import { isBindingName, renderTemplate } from "../render/templates.js";
import { type GenerateContext, tokensAsked } from "./family.js";
import { kindEntry, type ProviderKind, type ProviderOptions } from "./registry.js";
import { envPrefix } from "./shared.js";

/**
 * Names an import of the provider would shadow in a typical auth config
 * (`export const { handlers, auth, signIn, signOut } = NextAuth(...)`) or
 * globals such a config uses (process.env...). Such ids get a "Provider" suffix.
 */
const taken = new Set([
  "auth",
  "handlers",
  "signIn",
  "signOut",
  "providers",
  "adapter",
  "config",
  "authConfig",
  "session",
  "process",
  "console",
  "fetch",
  "crypto",
  "globalThis",
  "require",
  "module",
  "exports",
  "z",
]);

/** The exported const for a provider id: "vk" -> vk, "my-oidc" -> myOidc, "42" -> provider42, "new" -> newProvider. */
export function bindingName(id: string): string {
  let name = id.replace(/-+([a-z0-9]?)/g, (_, c: string) => c.toUpperCase());
  if (name === "" || /^[0-9]/.test(name)) name = `provider${name}`;
  return isBindingName(name) && !taken.has(name) ? name : `${name}Provider`;
}

/** Bare package names a module imports ("zod", "@auth/core" of "@auth/core/providers"); type-only and dynamic imports included. */
export function importedPackages(source: string): string[] {
  const names = new Set<string>();
  const statements = /^\s*(?:import|export)\b(?:[^"'`;]*?\bfrom)?\s*["']([^"']+)["']/gm;
  const dynamic = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
  for (const [, specifier] of [...source.matchAll(statements), ...source.matchAll(dynamic)]) {
    if (specifier!.startsWith(".") || specifier!.startsWith("node:")) continue;
    const parts = specifier!.split("/");
    names.add(specifier!.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
  }
  return [...names];
}

const catalogued = (name: string): name is DependencyName => Object.hasOwn(dependencyVersions, name);

/**
 * The packages the provider's files import, beyond the auth library the
 * project already has: those its family declares and whatever the rendered
 * files import (a template that starts importing a package brings it along).
 */
function providerDependencies(kind: ProviderKind, files: PlannedFile[]): DependencyName[] {
  const imported = files.flatMap((f) => importedPackages(f.contents)).filter(catalogued);
  return [...new Set([...(kindEntry(kind).dependencies ?? []), ...imported])].filter((n) => n !== "@auth/core").sort();
}

/** Renders the module(s) `kind`'s family plans from options parsed by parseProviderOptions, and the import and entry of the config edit. */
export async function generateProvider<K extends ProviderKind>(
  kind: K,
  parsed: ProviderOptions<K>,
  context: GenerateContext = {},
): Promise<ProviderSnippet> {
  const binding = bindingName(parsed.id);
  const file = `providers/${parsed.id}.ts`;
  const ext = context.importExtension ?? "";
  const p = kindEntry(kind).plan(parsed, { binding, file }, context);
  const view = { ...p.view, kind, id: parsed.id, binding, file, ext, envPrefix: envPrefix(parsed.id) };
  const files: PlannedFile[] = await Promise.all(
    p.files.map(async (f) => ({ path: f.path, contents: await renderTemplate(`providers/${f.template}`, view) })),
  );
  const packages = providerDependencies(kind, files);
  return {
    ...part({
      files,
      env: p.env,
      dependencies: packages.filter((n) => !n.startsWith("@types/")),
      devDependencies: packages.filter((n) => n.startsWith("@types/")),
      steps: p.notes,
    }),
    id: parsed.id,
    kind,
    imports: [{ from: `./providers/${parsed.id}${ext}`, named: [binding] }],
    entry: binding,
    hasCallback: p.hasCallback,
    ...(tokensAsked(context.tokens) && p.hasCallback ? { tokens: context.tokens } : {}),
    ...(p.throttled ? { throttled: true } : {}),
    ...(p.throttled && p.throttledEmails ? { throttledEmails: true } : {}),
    ...(p.twoFactor ? { twoFactor: true } : {}),
  };
}
