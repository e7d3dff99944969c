/** A throwaway project for generated provider modules: real @auth/core and zod types, tsx at runtime. */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import type { GenerateContext } from "../../src/families/family.js";
import { generateSnippet, parseResolved, resolveProviderName } from "../../src/families/index.js";
import { parseProvider } from "../../src/families/registry.js";
import { generateProvider } from "../../src/families/render.js";
import type { ProviderSnippet } from "../../src/render/parts.js";
import { renderTemplate } from "../../src/render/templates.js";
import { root, tempDir } from "../helpers.js";

/** The tsconfig a typical app would have (bundler resolution, strict). */
export const appTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "esnext",
    moduleResolution: "bundler",
    lib: ["ES2023"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    isolatedModules: true,
  },
  include: ["**/*.ts"],
  exclude: ["node_modules"],
};

export function makeProject(prefix = "create-auth-providers-"): string {
  const dir = tempDir(prefix);
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(appTsconfig, null, 2)}\n`);
  return dir;
}

/** Generates into `dir/<sub>/` (the auth config's folder) and returns the snippet. */
export async function generateInto(
  dir: string,
  kind: string,
  options: Record<string, unknown>,
  context: GenerateContext = {},
  sub = ".",
): Promise<ProviderSnippet> {
  const provider = parseProvider(kind, options);
  const snippet = await generateProvider(provider.kind, provider.options, context);
  for (const file of snippet.files) {
    const path = join(dir, sub, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  return snippet;
}

/** Imports a generated TypeScript module at runtime, as the user's app would. */
export function importGenerated<T = Record<string, unknown>>(dir: string, path: string): Promise<T> {
  return tsImport(pathToFileURL(join(dir, path)).href, import.meta.url) as Promise<T>;
}

/** Every character class a JS string literal can get wrong. */
export const tricky = "He said \"hi\" 'there' `x` ${y} \\ \\n \n\r\t ü 😀 \u2028\u2029 \ud800 */ </script> {{z}}";

/**
 * The tricky value as a logo path on the app: every printable class, without the control characters and
 * line breaks a logo refuses (the URL parser would drop some of them; see logoProblem).
 */
export const trickyLogo = `/${tricky.replace(/[\p{C}\p{Zl}\p{Zp}]/gu, "")}`;

/**
 * Every kind's module with the options that change its code, under both import styles, and the
 * escaping variants, each in `dir/<key>/`: what provider.test.ts reads and provider.typecheck.test.ts compiles.
 */
export async function generateEvery(dir: string): Promise<Record<string, ProviderSnippet>> {
  const snippets: Record<string, ProviderSnippet> = {};
  const gen = async (key: string, kind: string, options: Record<string, unknown>, ext: "" | ".js" = "", sub = key) => {
    snippets[key] = await generateInto(dir, kind, options, { importExtension: ext }, sub);
  };
  await gen("social", "social", { apiVersion: "5.131" });
  await gen("socialJs", "social", { id: "vk-ru", name: "VK (RU)" }, ".js");
  await gen("socialVkid", "social", { id: "vkid", flow: "vkid" });
  await gen("socialVkidJs", "social", { id: "vk-id", flow: "vkid" }, ".js");
  await gen("socialCom", "social", { id: "vk-com", apiVersion: "5.131", domain: "vk.com" });
  await gen("socialVkidCom", "social", { id: "vkid-com", flow: "vkid", domain: "vk.com" });
  await gen("oauth", "oauth", {
    id: "acme",
    authorization: "https://acme.example/oauth/authorize",
    token: "https://acme.example/oauth/token",
    userinfo: "https://acme.example/api/me",
    scope: "read:user user:email",
  });
  await gen("oauthIssuer", "oauth", {
    id: "acme2",
    issuer: "https://acme.example",
    token: "https://acme.example/token",
    userinfo: "https://acme.example/me",
    redirectProxyUrl: "https://auth.example.com/api/auth",
    allowDangerousEmailAccountLinking: true,
  });
  await gen("oidc", "oidc", { id: "my-oidc", issuer: "https://login.corp.example", checks: "pkce,nonce" });
  await gen("email", "email", { from: "Sign in <no-reply@example.com>", maxAge: "3600" });
  await gen("credentials", "credentials", { fields: "username,password,otp" });
  await gen("passkey", "passkey", {});
  // The escaping variants: every user value that reaches code.
  await gen("trickyOauth", "oauth", {
    id: "tricky",
    name: tricky,
    issuer: "https://a.example/?q=1&r='\"`",
    token: "https://a.example/token",
    userinfo: "https://a.example/me",
    brandColor: tricky,
    logo: `${trickyLogo}.svg`,
    scope: tricky,
  });
  await gen("trickyOidc", "oidc", {
    id: "tricky-oidc",
    name: tricky,
    issuer: "https://a.example",
    brandColor: tricky,
    logo: trickyLogo,
    scope: tricky,
  });
  await gen("trickyEmail", "email", {
    id: "tricky-email",
    name: tricky,
    from: '"He said \\"hi\\" `x` ${y} ü 😀" <a@b.example>',
  });
  await gen("trickyCredentials", "credentials", { id: "tricky-credentials", name: tricky });
  await gen("trickyPasskey", "webauthn", { id: "tricky-passkey", name: tricky });
  await gen("trickySocial", "social", { id: "tricky-vk", name: tricky });
  // Counting attempts through the sign-in throttle, beside the modules init writes with it (an adapter with counters).
  const throttled = { importExtension: ".js" as const, throttleModule: "../auth/throttle" };
  snippets.credentialsThrottled = await generateInto(
    dir,
    "credentials",
    { id: "password" },
    throttled,
    "credentialsThrottled",
  );
  snippets.credentialsUsername = await generateInto(
    dir,
    "credentials",
    { id: "username", fields: "username,password" },
    throttled,
    "credentialsUsername",
  );
  snippets.emailThrottled = await generateInto(dir, "email", { id: "magic-link" }, throttled, "emailThrottled");
  // An email service of Auth.js's own (the builtin family), its sendVerificationRequest counted too.
  const resend = await generateSnippet(parseResolved(resolveProviderName("resend"), {}), throttled);
  for (const file of resend.files) {
    mkdirSync(dirname(join(dir, "resendThrottled", file.path)), { recursive: true });
    writeFileSync(join(dir, "resendThrottled", file.path), file.contents);
  }
  snippets.resendThrottled = resend;
  for (const key of ["credentialsThrottled", "credentialsUsername", "emailThrottled", "resendThrottled"]) {
    mkdirSync(join(dir, key, "auth"), { recursive: true });
    for (const [path, template, view] of [
      ["throttle.ts", "config/throttle.ts.hbs", { ext: ".js" }],
      ["client-address.ts", "frameworks/web/client-address.ts.hbs", {}],
      ["adapter.ts", "adapters/memory.ts.hbs", {}],
    ] as const)
      writeFileSync(join(dir, key, "auth", path), await renderTemplate(template, view));
  }
  return snippets;
}
