/** Facts about the user's project that generated code must fit. */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readIfExists } from "./plan.js";
import { nodeResolution, readTsconfig } from "./tsconfig.js";

/**
 * Relative imports need a ".js" extension under Node's own ESM resolution
 * (tsconfig module/moduleResolution node16 or nodenext, set in the file or a
 * config it extends); bundler-style projects (Next.js, SvelteKit, Vite)
 * write them bare.
 */
export function importExtension(root: string): "" | ".js" {
  return nodeResolution(readTsconfig(root)) ? ".js" : "";
}

/**
 * A JavaScript project: an ES module package ("type": "module") with no
 * tsconfig.json and no TypeScript among its packages. Where its server runs
 * its modules as written, the modules create-auth writes are JavaScript too.
 */
export function isJavaScriptProject(root: string): boolean {
  if (readIfExists(join(root, "tsconfig.json")) !== null) return false;
  let pkg: { type?: unknown; dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(readIfExists(join(root, "package.json")) ?? "{}");
  } catch {
    return false;
  }
  return pkg.type === "module" && !pkg.dependencies?.typescript && !pkg.devDependencies?.typescript;
}

export const emailAdapterMethods = ["createVerificationToken", "useVerificationToken", "getUserByEmail"] as const;

/**
 * Email sign-in needs three adapter methods (§5.4). Looks at the config's
 * `adapter:` binding without running anything: a published @auth adapter
 * has them; a local module is searched for the method names.
 */
export function describeEmailSupport(configPath: string, configText: string): string {
  // `adapter: x` or the shorthand `{ adapter }`.
  const binding =
    /\badapter\s*:\s*([A-Za-z_$][\w$]*)/.exec(configText)?.[1] ??
    (/[{,]\s*adapter\s*[,}]/.test(configText) ? "adapter" : undefined);
  if (!binding)
    return "No adapter is configured in the auth config yet: email sign-in needs one with createVerificationToken, useVerificationToken and getUserByEmail.";
  const escaped = binding.replace(/\$/g, "\\$");
  const source = new RegExp(`import\\s+(?:${escaped}|[^;]*\\b${escaped}\\b[^;]*)\\s+from\\s+["']([^"']+)["']`).exec(
    configText,
  )?.[1];
  if (!source)
    return `The adapter (${binding}) is defined in the config; check that it has createVerificationToken, useVerificationToken and getUserByEmail (create-auth verify-adapter runs them).`;
  if (/^@auth\/[\w-]+-adapter$/.test(source))
    return `The adapter comes from ${source}, which implements createVerificationToken, useVerificationToken and getUserByEmail.`;
  if (!source.startsWith("."))
    return `Could not inspect the adapter from ${source}; make sure it has createVerificationToken, useVerificationToken and getUserByEmail.`;
  const base = resolve(dirname(configPath), source.replace(/\.js$/, ""));
  const file = ["", ".ts", ".mts", ".js", ".mjs", "/index.ts", "/index.js"]
    .map((ext) => base + ext)
    .find((p) => existsSync(p) && statSync(p).isFile());
  if (!file)
    return `Could not find the adapter module ${source}; make sure it has createVerificationToken, useVerificationToken and getUserByEmail.`;
  const text = readIfExists(file) ?? "";
  const missing = emailAdapterMethods.filter((m) => !new RegExp(`\\b${m}\\b`).test(text));
  return missing.length === 0
    ? `The adapter in ${source} has createVerificationToken, useVerificationToken and getUserByEmail.`
    : `The adapter in ${source} lacks ${missing.join(", ")}: email sign-in will fail until it has them.`;
}

/** The redirect URI to register at an OAuth provider (§4.1): --base-url, else AUTH_URL, else localhost. */
export function callbackUrl(
  id: string,
  baseUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  app: { port: number; basePath: string } = { port: 3000, basePath: "/api/auth" },
): string {
  const base = baseUrl ?? env.AUTH_URL ?? `http://localhost:${app.port}`;
  return `${base.replace(/\/+$/, "")}${app.basePath}/callback/${id}`;
}
