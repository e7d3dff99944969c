/**
 * Provider generators, for `add-provider <kind>` and `init` alike: validated
 * options -> a ProviderSnippet (the provider module(s) to write beside the
 * auth config, the import and entry the config edit adds, env variables,
 * dependencies and notes). Nothing touches disk.
 */
import { type DependencyName, dependencyVersions } from "../catalog/dependencies.js";
import { kindEntry, type ProviderKind, type VkDomain } from "../catalog/provider-kinds.js";
import type { ProviderOptions } from "../schemas/provider-options.js";
import { isBindingName, renderTemplate } from "./render.js";
import type { EnvVariable, PlannedFile, ProviderSnippet } from "./types.js";

export interface GenerateContext {
  /** Extension of relative imports in the user's project: ".js" under NodeNext resolution, else "". */
  importExtension?: "" | ".js";
  /**
   * Credentials: the module (a specifier from the provider's file, without
   * extension) exporting verifyUserPassword(), which init generates with a
   * SQL backend; without it the provider is a skeleton to fill in.
   */
  passwordsModule?: string;
}

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

/** Auth.js's own convention: AUTH_<ID>_ID with the id uppercased and "-" -> "_". */
export const envPrefix = (id: string) => `AUTH_${id.toUpperCase().replace(/-/g, "_")}`;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

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
 * project already has: the kind's catalog entry and whatever the rendered
 * files import (a template that starts importing a package brings it along).
 */
function providerDependencies(kind: ProviderKind, files: PlannedFile[]): DependencyName[] {
  const imported = files.flatMap((f) => importedPackages(f.contents)).filter(catalogued);
  return [...new Set([...(kindEntry(kind).dependencies ?? []), ...imported])].filter((n) => n !== "@auth/core").sort();
}

interface Plan {
  env: EnvVariable[];
  /** Template names under templates/providers/, beside the path each renders to. */
  files: { template: string; path: string }[];
  view: Record<string, unknown>;
  hasCallback: boolean;
  notes: string[];
}

/** Env descriptions and examples are written raw into dotenv files: only the id (validated) goes into them. */
function clientEnv(id: string): EnvVariable[] {
  const p = envPrefix(id);
  return [
    { name: `${p}_ID`, description: `OAuth client ID of provider "${id}"`, example: "" },
    {
      name: `${p}_SECRET`,
      description: `OAuth client secret of provider "${id}" (a secret: never commit it)`,
      example: "",
    },
  ];
}

/** A value dotenv reads back unchanged when unquoted (no #, quotes, $, backslash, control or edge spaces). */
const dotenvSafe = (value: string) => /^[^\s#"'`$\\\p{C}](?:[^#"'`$\\\p{C}]*[^\s#"'`$\\\p{C}])?$/u.test(value);

function planOAuth(
  kind: "oauth" | "oidc",
  o: ProviderOptions<"oauth"> | ProviderOptions<"oidc">,
  names: { binding: string; file: string },
): Plan {
  const p = envPrefix(o.id);
  const issuer = o.issuer
    ? {
        name: `${p}_ISSUER`,
        description: `Issuer URL of provider "${o.id}"`,
        example: dotenvSafe(o.issuer) ? o.issuer : "",
      }
    : undefined;
  return {
    env: [...clientEnv(o.id), ...(issuer ? [issuer] : [])],
    files: [{ template: `${kind}.ts.hbs`, path: names.file }],
    view: {
      ...o,
      authorization: "authorization" in o ? o.authorization : undefined,
      token: "token" in o ? o.token : undefined,
      userinfo: "userinfo" in o ? o.userinfo : undefined,
      wellKnown: "wellKnown" in o ? o.wellKnown : undefined,
      style: o.brandColor !== undefined || o.logo !== undefined,
      envIssuer: issuer?.name,
      profileType: `${pascal(names.binding)}Profile`,
      missingIdError: `Provider "${o.id}": the profile has neither "sub" nor "id"; adapt profile() in ${names.file}`,
    },
    hasCallback: true,
    notes: [],
  };
}

/** The origins of VK's services on `domain`: the OAuth dialog, the API, VK ID and the developer docs. */
export const vkOrigins = (domain: VkDomain) => ({
  oauth: `https://oauth.${domain}`,
  api: `https://api.${domain}`,
  id: `https://id.${domain}`,
  dev: `https://dev.${domain}`,
});

/** VK: the classic OAuth 2.0 dialog (the default, §2.8/§9) or VK ID; each a provider module and its profile schema. */
function planVk(o: ProviderOptions<"social">, names: { binding: string; file: string }): Plan {
  const profileFile = names.file.replace(/\.ts$/, "-profile.ts");
  const origins = vkOrigins(o.domain);
  const common = {
    ...o,
    name: o.name ?? "VK",
    profileModule: `./${profileFile.slice("providers/".length, -".ts".length)}`,
    origins,
    // Said in the module's header so a reader knows how to get the other hosts back.
    otherDomain: o.domain === "vk.ru" ? "vk.com" : "vk.ru",
  };
  if (o.flow === "vkid") {
    return {
      // A public client (PKCE): the app ID only, no secret.
      env: clientEnv(o.id).slice(0, 1),
      files: [
        { template: "social-vkid.ts.hbs", path: names.file },
        { template: "social-vkid-profile.ts.hbs", path: profileFile },
      ],
      view: {
        ...common,
        authorizationUrl: `${origins.id}/authorize`,
        tokenUrl: `${origins.id}/oauth2/auth`,
        userinfoUrl: `${origins.id}/oauth2/user_info`,
      },
      hasCallback: true,
      notes: [
        `VK ID adds a device_id to the callback that its token request needs, and Auth.js passes on only the code: run your auth route handler inside withVkIdCallback() from ${names.file} (examples at the top of that file).`,
      ],
    };
  }
  const v = o.apiVersion;
  // §9: every endpoint carries v=<api_version>; URLSearchParams writes the query, so the URLs are well formed by construction.
  const url = (base: string, params: Record<string, string>) => `${base}?${new URLSearchParams({ ...params, v })}`;
  return {
    env: clientEnv(o.id),
    files: [
      { template: "social.ts.hbs", path: names.file },
      { template: "social-profile.ts.hbs", path: profileFile },
    ],
    view: {
      ...common,
      authorizationUrl: url(`${origins.oauth}/authorize`, { response_type: "code", scope: "email" }),
      tokenUrl: url(`${origins.oauth}/access_token`, {}),
      userinfoUrl: url(`${origins.api}/method/users.get`, { fields: "photo_100" }),
    },
    hasCallback: true,
    notes: [],
  };
}

function plan(
  kind: ProviderKind,
  options: ProviderOptions,
  names: { binding: string; file: string },
  context: GenerateContext,
): Plan {
  const base = { env: [] as EnvVariable[], hasCallback: false, notes: [] as string[] };
  switch (kind) {
    case "oauth":
    case "oidc":
      return planOAuth(kind, options as ProviderOptions<"oauth" | "oidc">, names);
    case "email": {
      const o = options as ProviderOptions<"email">;
      const from = `${envPrefix(o.id)}_FROM`;
      return {
        ...base,
        env: [
          {
            name: from,
            description: `Sender of the sign-in emails of provider "${o.id}"`,
            example: o.from === undefined ? "no-reply@example.com" : dotenvSafe(o.from) ? o.from : "",
          },
          {
            name: "EMAIL_SERVER",
            description:
              "SMTP server the sign-in links are sent through, e.g. smtp://user:password@smtp.example.com:587 (empty in development: the link is logged)",
            example: "",
          },
        ],
        files: [{ template: "email.ts.hbs", path: names.file }],
        view: {
          ...o,
          name: o.name ?? "Email",
          envFrom: from,
          notConfigured: `EMAIL_SERVER is not set, so no sign-in email can be sent: set it to your SMTP server (smtp://user:password@host:587) in the environment or .env.local.`,
        },
        notes: [
          "Email sign-in needs an adapter with createVerificationToken, useVerificationToken and getUserByEmail: https://authjs.dev/getting-started/authentication/email",
          "Email links are logged in development; to send them, set EMAIL_SERVER (an SMTP URL) and the sender in .env.local.",
        ],
      };
    }
    case "credentials": {
      const o = options as ProviderOptions<"credentials">;
      const fields = o.fields.map((key) => ({
        key,
        label: pascal(key),
        type: key === "password" ? "password" : key === "email" ? "email" : "text",
      }));
      // The generated password check reads an email and a password; other forms keep the skeleton.
      const passwords =
        context.passwordsModule && o.fields.includes("email") && o.fields.includes("password")
          ? `${context.passwordsModule}${context.importExtension ?? ""}`
          : undefined;
      return {
        ...base,
        files: [{ template: "credentials.ts.hbs", path: names.file }],
        view: { ...o, name: o.name ?? "Credentials", fields, passwords: passwords ?? false },
        notes: [
          passwords
            ? "Add a user who signs in with a password: npm run auth:add-user -- you@example.com"
            : `Write the password check in ${names.file} (// TODO: check the password here); until then every sign-in is refused.`,
          'Auth.js keeps credentials sign-ins in JWT sessions only: keep session: { strategy: "jwt" } (the default).',
        ],
      };
    }
    case "webauthn": {
      const o = options as ProviderOptions<"webauthn">;
      return {
        ...base,
        files: [{ template: "webauthn.ts.hbs", path: names.file }],
        view: { ...o, name: o.name ?? "Passkey" },
        notes: [
          "Passkeys need experimental: { enableWebAuthn: true } in the auth config.",
          "They need an adapter with createAuthenticator, getAuthenticator, listAuthenticatorsByUserId and updateAuthenticatorCounter, and an Authenticator table: https://authjs.dev/getting-started/authentication/webauthn",
        ],
      };
    }
    case "social":
      return planVk(options as ProviderOptions<"social">, names);
  }
}

/** Generates the provider module(s) for `kind` from options parsed by parseProviderOptions. */
export async function generateProvider<K extends ProviderKind>(
  kind: K,
  parsed: ProviderOptions<K>,
  context: GenerateContext = {},
): Promise<ProviderSnippet> {
  const binding = bindingName(parsed.id);
  const file = `providers/${parsed.id}.ts`;
  const ext = context.importExtension ?? "";
  const p = plan(kind, parsed, { binding, file }, context);
  const view = { ...p.view, kind, id: parsed.id, binding, file, ext, envPrefix: envPrefix(parsed.id) };
  const files: PlannedFile[] = await Promise.all(
    p.files.map(async (f) => ({ path: f.path, contents: await renderTemplate(`providers/${f.template}`, view) })),
  );
  return {
    id: parsed.id,
    kind,
    imports: [{ from: `./providers/${parsed.id}${ext}`, named: [binding] }],
    entry: binding,
    files,
    env: p.env,
    dependencies: providerDependencies(kind, files).filter((n) => !n.startsWith("@types/")),
    devDependencies: providerDependencies(kind, files).filter((n) => n.startsWith("@types/")),
    hasCallback: p.hasCallback,
    notes: p.notes,
  };
}
