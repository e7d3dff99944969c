/**
 * The provider kinds `add-provider` and `init` know: one catalog that feeds
 * `--list`, the commander flags, the prompts and the generators. The options'
 * validation lives beside it in src/schemas/provider-options.ts.
 */

import { UsageError } from "../lib/errors.js";
import type { DependencyName } from "./dependencies.js";

export const providerKinds = ["oauth", "oidc", "email", "credentials", "webauthn", "social"] as const;
export type ProviderKind = (typeof providerKinds)[number];

/** CSRF checks on the callback (§2.4, §2.5). */
export const oauthChecks = ["none", "state", "pkce"] as const;
export const oidcChecks = ["none", "state", "nonce", "pkce"] as const;

/** VK's two sign-in flows: the classic OAuth 2.0 dialog (the spec's default) and VK ID's OAuth 2.1. */
export const vkFlows = ["oauth", "vkid"] as const;

/** VK's domains: vk.ru since VK moved its OAuth and API hosts there in October 2025, vk.com before. */
export const vkDomains = ["vk.ru", "vk.com"] as const;
export type VkDomain = (typeof vkDomains)[number];

export interface KindOption {
  /** camelCase key, as commander names the flag's value. */
  key: string;
  /** commander flag definition, e.g. "--api-version <version>". */
  flag: string;
  description: string;
  /** Needed whatever else is given (alternatives such as --issuer/--well-known are checked by the schema). */
  required: boolean;
  default?: string;
  values?: readonly string[];
  /** One line per value, shown where a prompt offers the values. */
  hints?: Readonly<Record<string, string>>;
  /** Asked in a terminal when not given, though the default serves elsewhere (a choice worth making consciously). */
  ask?: boolean;
  /** Keys of options that settle this choice when given (e.g. --api-version implies --flow oauth): then it is not asked. */
  settledBy?: readonly string[];
}

export interface KindEntry {
  kind: ProviderKind;
  title: string;
  description: string;
  aliases?: readonly string[];
  options: readonly KindOption[];
  /** Packages the generated code imports beyond the auth library itself; versions from catalog/dependencies.ts. */
  dependencies?: readonly DependencyName[];
}

const opt = (key: string, flag: string, description: string, extra: Partial<KindOption> = {}): KindOption => ({
  key,
  flag,
  description,
  required: false,
  ...extra,
});

const id = (fallback?: string) =>
  opt(
    "id",
    "--id <id>",
    "provider id, part of the callback URL /api/auth/callback/<id> (lowercase letters, digits, - and _)",
    fallback ? { default: fallback } : { required: true },
  );
const name = (fallback: string) =>
  opt("name", "--name <name>", `name on the sign-in button ("Sign in with <name>"; default ${fallback})`);

const oauthCommon = (checks: readonly string[]): KindOption[] => [
  opt("scope", "--scope <scopes>", "space-separated scopes to request"),
  opt(
    "checks",
    "--checks <list>",
    'comma-separated CSRF checks on the callback; "state" is added with a redirect proxy',
    { default: "pkce", values: checks },
  ),
  opt(
    "redirectProxyUrl",
    "--redirect-proxy-url <url>",
    "auth URL of a redirect proxy, e.g. https://auth.example.com/api/auth (preview deployments)",
  ),
  opt(
    "allowDangerousEmailAccountLinking",
    "--allow-dangerous-email-account-linking",
    "link to an existing user with the same email (only if the provider verifies emails)",
  ),
  opt("brandColor", "--brand-color <color>", "button colour on the sign-in page, e.g. #24292f"),
  opt("logo", "--logo <url>", "button logo URL on the sign-in page"),
];

export const kindCatalog: readonly KindEntry[] = [
  {
    kind: "oauth",
    title: "OAuth 2.0",
    description: "any OAuth 2.0 provider, from its authorization, token and userinfo URLs",
    options: [
      id(),
      name("the id"),
      opt("authorization", "--authorization <url>", "authorization endpoint (or --issuer)"),
      opt("token", "--token <url>", "token endpoint", { required: true }),
      opt("userinfo", "--userinfo <url>", "userinfo endpoint that returns the profile", { required: true }),
      opt(
        "issuer",
        "--issuer <url>",
        "issuer URL, instead of --authorization (its metadata gives the authorization endpoint)",
      ),
      ...oauthCommon(oauthChecks),
    ],
  },
  {
    kind: "oidc",
    title: "OpenID Connect",
    description: "an OpenID Connect provider, discovered from its issuer",
    options: [
      id(),
      name("the id"),
      opt("issuer", "--issuer <url>", "issuer URL (or --well-known)"),
      opt("wellKnown", "--well-known <url>", "discovery document URL ending in /.well-known/openid-configuration"),
      ...oauthCommon(oidcChecks).map((o) => (o.key === "scope" ? { ...o, default: "openid profile email" } : o)),
    ],
  },
  {
    kind: "email",
    title: "Email link",
    description: "passwordless sign-in by a link sent by email (needs an adapter)",
    options: [
      id("email"),
      name("Email"),
      opt("from", "--from <address>", 'sender, e.g. "Sign in <no-reply@example.com>" (also read from AUTH_<ID>_FROM)'),
      opt("maxAge", "--max-age <seconds>", "how long a sign-in link stays valid", { default: "86400" }),
      opt(
        "service",
        "--service <name>",
        "send through an email service of Auth.js instead: resend, sendgrid, postmark, mailgun, loops, forwardemail, nodemailer (same as add-provider <name>)",
      ),
    ],
    // Production sends the link over SMTP (EMAIL_SERVER).
    dependencies: ["nodemailer", "@types/nodemailer"],
  },
  {
    kind: "credentials",
    title: "Credentials",
    description: "a sign-in form checked by your own authorize() function",
    options: [
      id("credentials"),
      name("Credentials"),
      opt("fields", "--fields <list>", "comma-separated form fields", { default: "email,password" }),
    ],
  },
  {
    kind: "webauthn",
    title: "Passkey (WebAuthn)",
    description: "passkeys and security keys (experimental in Auth.js; needs an adapter)",
    aliases: ["passkey"],
    options: [id("webauthn"), name("Passkey")],
    // @auth/core's peer dependencies for WebAuthn.
    dependencies: ["@simplewebauthn/server", "@simplewebauthn/browser"],
  },
  {
    kind: "social",
    title: "VK",
    description: "the social network VK: its classic OAuth 2.0 dialog with a pinned API version, or VK ID",
    options: [
      id("vk"),
      name("VK"),
      opt("flow", "--flow <flow>", "how VK signs users in", {
        default: "oauth",
        values: vkFlows,
        hints: {
          oauth: "classic OAuth dialog with a pinned --api-version: apps created on vk.com before VK ID",
          vkid: "VK ID (OAuth 2.1 with PKCE): apps created in the VK ID console, which the classic dialog refuses",
        },
        ask: true,
        settledBy: ["apiVersion"],
      }),
      opt("apiVersion", "--api-version <version>", "VK API version sent as v= on every endpoint (--flow oauth)", {
        default: "5.126",
      }),
      opt("domain", "--domain <domain>", "VK's domain, the host of every endpoint (both flows)", {
        default: "vk.ru",
        values: vkDomains,
        hints: {
          "vk.ru": "oauth.vk.ru, api.vk.ru and id.vk.ru, where VK has served sign-in since October 2025",
          "vk.com": "oauth.vk.com, api.vk.com and id.vk.com, for apps that still need VK's old hosts",
        },
      }),
    ],
    // The generated profile schemas use the zod API common to v3 and v4.
    dependencies: ["zod"],
  },
];

export function kindEntry(kind: ProviderKind): KindEntry {
  return kindCatalog.find((k) => k.kind === kind)!;
}

const allNames = () =>
  kindCatalog.map((k) => (k.aliases?.length ? `${k.kind} (alias ${k.aliases.join(", ")})` : k.kind)).join(", ");

/** Maps a kind or alias (any case) to the kind; anything else is a usage error listing the kinds. */
export function resolveKind(input: string): ProviderKind {
  const wanted = input.trim().toLowerCase();
  const entry = kindCatalog.find((k) => k.kind === wanted || k.aliases?.includes(wanted));
  if (!entry) {
    throw new UsageError(
      `Unknown provider kind ${JSON.stringify(input)}; expected one of ${allNames()}.`,
      "See create-auth add-provider --list.",
    );
  }
  return entry.kind;
}

/** "--api-version" of "--api-version <version>". */
export const flagOf = (option: KindOption) => option.flag.split(" ")[0]!;

/**
 * What a terminal asks beyond `given`: the options still needed, then the
 * choices marked `ask` that no flag made. Elsewhere only the needed ones
 * are an error; the others take their defaults.
 */
export function questions(kind: ProviderKind, given: Readonly<Record<string, unknown>>): KindOption[] {
  const chosen = kindEntry(kind).options.filter(
    (o) => o.ask && given[o.key] === undefined && !o.settledBy?.some((key) => given[key] !== undefined),
  );
  return [...missingOptions(kind, given), ...chosen];
}

/**
 * Options a kind still needs beyond `given`, alternatives included (oidc:
 * --issuer unless --well-known; oauth: --authorization unless --issuer).
 * For prompts: ask these rather than only `required` ones.
 */
export function missingOptions(kind: ProviderKind, given: Readonly<Record<string, unknown>>): KindOption[] {
  const has = (key: string) => given[key] !== undefined && given[key] !== "";
  const options = kindEntry(kind).options;
  const missing = options.filter((o) => o.required && !has(o.key));
  const add = (key: string) => missing.push(options.find((o) => o.key === key)!);
  if (kind === "oidc" && !has("issuer") && !has("wellKnown")) add("issuer");
  if (kind === "oauth" && !has("issuer") && !has("authorization")) add("authorization");
  return missing;
}
