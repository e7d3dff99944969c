/**
 * The zod schemas of `add-provider <kind>` options, one per kind, built from
 * shared pieces. Each accepts what commander and the prompts give (strings,
 * comma lists). The generators take only their output: the generated code is
 * safe for validated values only.
 *
 * Issue messages are the part after "--flag: " (parseProviderOptions adds the flag).
 */
import { z } from "zod";
import {
  flagOf,
  kindEntry,
  oauthChecks,
  oidcChecks,
  type ProviderKind,
  resolveKind,
  vkDomains,
  vkFlows,
} from "../catalog/provider-kinds.js";
import { UsageError } from "../lib/errors.js";
import { toFlag } from "../lib/options.js";
import { hideUrlCredentials } from "../lib/redact.js";

const quoted = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));

/** §2.1/§4.1: the id is a path segment of /api/auth/callback/<id> and part of env names and file names. */
export const idPattern = /^[a-z0-9_-]{1,50}$/;

function suggestId(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
}

const text = (what: string) =>
  z.string({ invalid_type_error: `expected ${what}`, required_error: `is required; expected ${what}` });

export const idSchema = text('an id such as "acme"').superRefine((value, ctx) => {
  if (idPattern.test(value)) return;
  const suggestion = suggestId(value);
  const hint = suggestion && suggestion !== value ? `; try ${quoted(suggestion)}` : "";
  ctx.addIssue({
    code: z.ZodIssueCode.custom,
    message: `${quoted(value)} cannot be used in the callback URL /api/auth/callback/<id>; expected 1-50 lowercase letters, digits, "-" or "_"${hint}`,
  });
});

/** Free text that ends up in a string literal (escaped by render.ts); only emptiness is refused. */
const label = (what: string) =>
  text(what).refine(
    (v) => v.trim() !== "",
    (v) => ({ message: `${quoted(v)} is empty; expected ${what}` }),
  );

const httpUrl = text("an http(s) URL").superRefine((v, ctx) => {
  const problem = urlProblem(v);
  if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${quoted(hideUrlCredentials(v))} ${problem}` });
});

/** Hosts where plain http stays on the machine. */
export const isLoopbackHost = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);

/**
 * Why a provider endpoint URL is refused, or undefined when it is fine: an
 * http(s) URL, https except on this machine (tokens and secrets cross it),
 * and no user name or password (they would be written into source files).
 */
export function urlProblem(value: string): string | undefined {
  // The URL parser silently drops tabs and newlines; refuse them (and spaces) instead of writing them out.
  if (/[\s\p{C}]/u.test(value) || !URL.canParse(value))
    return "is not an http(s) URL; expected e.g. https://login.example.com";
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "is not an http(s) URL; expected e.g. https://login.example.com";
  if (url.username || url.password)
    return "contains a user name or password; give the URL without them (secrets belong in .env.local)";
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return "uses plain http, which sends tokens unencrypted; use https (http is accepted only for localhost)";
  }
  return undefined;
}

/** Whether `value` is a URL with a user name or password in it. */
const hasUserinfo = (value: string) =>
  URL.canParse(value) && Boolean(new URL(value).username || new URL(value).password);

const flag = z
  .union([z.boolean(), z.enum(["true", "false"])], { errorMap: () => ({ message: "expected true or false" }) })
  .transform((v) => v === true || v === "true");

/** Splits "a, b" and accepts an array; used for --checks and --fields. */
const list = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()),
);

const joinOr = (values: readonly string[]) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

function checksSchema<const C extends readonly string[]>(allowed: C) {
  return list
    .superRefine((values, ctx) => {
      const bad = values.find((v) => !allowed.includes(v));
      if (bad !== undefined || values.length === 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${quoted(bad ?? "")} is not allowed; expected ${joinOr(allowed)}`,
        });
      } else if (values.includes("none") && values.some((v) => v !== "none")) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${quoted(values.join(","))}: "none" turns the checks off, so it cannot be combined with others`,
        });
      }
    })
    .transform((values) => [...new Set(values)] as C[number][]);
}

const common = { id: idSchema, name: label('a button label such as "Acme"').optional() };

/** Options every OAuth-family kind shares (§2.4–2.6). */
const oauthShared = {
  ...common,
  issuer: httpUrl.optional(),
  scope: label('space-separated scopes such as "openid profile email"').optional(),
  redirectProxyUrl: httpUrl.optional(),
  allowDangerousEmailAccountLinking: flag.default(false),
  brandColor: label("a CSS colour such as #24292f").optional(),
  // A path served by the app or a URL; never one carrying a user name or password into a committed file.
  logo: label("a logo URL")
    .refine(
      (v) => !hasUserinfo(v),
      (v) => ({
        message: `${quoted(hideUrlCredentials(v))} contains a user name or password; give the URL without them`,
      }),
    )
    .optional(),
};

type Issue = { path: string; message: string };
type WithChecks = { checks?: string[] | undefined; redirectProxyUrl?: string | undefined };

/** §2.4/§5.2: a redirect proxy makes Auth.js add "state"; "none" would silently be overridden. */
function redirectProxyIssue(o: WithChecks): Issue | undefined {
  if (o.redirectProxyUrl && o.checks?.includes("none")) {
    return { path: "checks", message: `"none" cannot be used with --redirect-proxy-url, which needs "state"` };
  }
  return undefined;
}

function withChecks<T extends WithChecks>(o: T): T & { checks: string[] } {
  const checks = o.checks ?? ["pkce"];
  return { ...o, checks: o.redirectProxyUrl && !checks.includes("state") ? [...checks, "state"] : checks };
}

function report(ctx: z.RefinementCtx, issue: Issue | undefined) {
  if (issue) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [issue.path], message: issue.message });
}

export const oauthSchema = z
  .object({
    ...oauthShared,
    authorization: httpUrl.optional(),
    token: httpUrl.optional(),
    userinfo: httpUrl.optional(),
    checks: checksSchema(oauthChecks).optional(),
  })
  .superRefine((o, ctx) => {
    // For type "oauth", Auth.js (core 0.41, callback handleOAuth) discovers from the issuer only when
    // neither token nor userinfo is set, and then still fails with "No userinfo endpoint configured";
    // so both URLs are always needed, and the issuer can only stand in for the authorization URL.
    const needs =
      "is required for an oauth provider (Auth.js does not discover it for type oauth; the oidc kind discovers everything from --issuer)";
    if (!o.token) report(ctx, { path: "token", message: needs });
    else if (!o.userinfo) report(ctx, { path: "userinfo", message: needs });
    else if (!o.issuer && !o.authorization)
      report(ctx, { path: "authorization", message: "is required unless --issuer is given" });
    report(ctx, redirectProxyIssue(o));
  })
  .transform((o) => withChecks({ ...o, name: o.name ?? o.id }));

/** Auth.js discovers from `${issuer}/.well-known/openid-configuration`; it never reads wellKnown itself. */
const wellKnownSuffix = "/.well-known/openid-configuration";

export const oidcSchema = z
  .object({
    ...oauthShared,
    wellKnown: httpUrl
      .refine(
        (v) => new URL(v).pathname.endsWith(wellKnownSuffix),
        (v) => ({ message: `${quoted(v)} does not end with ${wellKnownSuffix}` }),
      )
      .optional(),
    checks: checksSchema(oidcChecks).optional(),
  })
  .superRefine((o, ctx) => {
    if (!o.issuer && !o.wellKnown) report(ctx, { path: "issuer", message: "is required unless --well-known is given" });
    report(ctx, redirectProxyIssue(o));
  })
  .transform((o) => {
    const issuer = o.issuer ?? o.wellKnown!.slice(0, o.wellKnown!.length - wellKnownSuffix.length);
    // OIDC needs the "openid" scope; Auth.js sends no scope at all for an issuer-only config.
    return withChecks({ ...o, issuer, name: o.name ?? o.id, scope: o.scope ?? "openid profile email" });
  });

/** "Name <addr@host>" or "addr@host"; no CR/LF, which would be header injection in a mail. */
const mailbox = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function seconds(value: number | string): number | undefined {
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const emailSchema = z.object({
  ...common,
  id: idSchema.default("email"),
  from: text("an address such as no-reply@example.com")
    .refine(
      (v) => mailbox.test(v.trim()),
      (v) => ({
        message: `${quoted(v)} is not an email address; expected no-reply@example.com or "Name <no-reply@example.com>"`,
      }),
    )
    .transform((v) => v.trim())
    .optional(),
  maxAge: z
    .union([z.number(), z.string()], { errorMap: () => ({ message: "expected a number of seconds such as 86400" }) })
    .refine(
      (v) => seconds(v) !== undefined,
      (v) => ({ message: `${quoted(v)} is not a positive whole number of seconds; expected e.g. 86400 (one day)` }),
    )
    .transform((v) => seconds(v)!)
    .optional(),
});

/** Field names become object keys in the generated code and form field names. */
const fieldName = /^[a-zA-Z][a-zA-Z0-9_]{0,49}$/;

export const credentialsSchema = z.object({
  ...common,
  id: idSchema.default("credentials"),
  fields: list
    .superRefine((values, ctx) => {
      const bad = values.find((v) => !fieldName.test(v));
      if (bad !== undefined || values.length === 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${quoted(bad ?? "")} is not a field name; expected names such as email,password (a letter, then letters, digits or _)`,
        });
      }
    })
    .transform((values) => [...new Set(values)])
    .default(["email", "password"]),
});

export const webauthnSchema = z.object({ ...common, id: idSchema.default("webauthn") });

/** §9: the VK API version goes into a `v=` query parameter on every endpoint, so nothing but digits and one dot. */
export const vkApiVersion = /^\d+\.\d+$/;

export const socialSchema = z
  .object({
    ...common,
    id: idSchema.default("vk"),
    flow: z.enum(vkFlows, { errorMap: () => ({ message: `expected ${joinOr(vkFlows)}` }) }).default("oauth"),
    apiVersion: text("a VK API version such as 5.126")
      .refine(
        (v) => vkApiVersion.test(v),
        (v) => ({ message: `${quoted(v)} is not a VK API version; expected MAJOR.MINOR such as 5.126` }),
      )
      .optional(),
    domain: z
      .enum(vkDomains, {
        errorMap: (_issue, ctx) => ({
          message: `${quoted(ctx.data)} is not one of VK's domains; expected ${joinOr(vkDomains)}`,
        }),
      })
      .default("vk.ru"),
  })
  .superRefine((o, ctx) => {
    // VK ID's endpoints (id.vk.ru) are versioned by their path, not by v=: a version there would be silently ignored.
    if (o.flow === "vkid" && o.apiVersion !== undefined)
      report(ctx, {
        path: "apiVersion",
        message: "applies to --flow oauth only; VK ID's endpoints take no API version",
      });
  })
  .transform((o) => ({ ...o, apiVersion: o.apiVersion ?? "5.126" }));

export const providerSchemas = {
  oauth: oauthSchema,
  oidc: oidcSchema,
  email: emailSchema,
  credentials: credentialsSchema,
  webauthn: webauthnSchema,
  social: socialSchema,
} as const satisfies Record<ProviderKind, z.ZodTypeAny>;

export type ProviderOptions<K extends ProviderKind = ProviderKind> = z.output<(typeof providerSchemas)[K]>;

/** A provider kind with its validated options. */
export type ParsedProvider = { [K in ProviderKind]: { kind: K; options: ProviderOptions<K> } }[ProviderKind];

/**
 * Validates raw values (flags, prompt answers or already-parsed options) for
 * `kind`. Undefined values count as not given. On error: a UsageError whose
 * message is one line naming the flag, e.g.
 * `--api-version: "abc" is not a VK API version; expected MAJOR.MINOR such as 5.126`.
 */
export function parseProviderOptions<K extends ProviderKind>(
  kind: K,
  raw: Readonly<Record<string, unknown>>,
): ProviderOptions<K> {
  const entry = kindEntry(kind);
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  // A flag of another kind is a mistake worth naming (e.g. --issuer on social), not something to drop.
  const foreign = Object.keys(given).find((key) => !entry.options.some((o) => o.key === key));
  if (foreign !== undefined) {
    throw new UsageError(
      `${toFlag(foreign)}: not an option of ${kind} providers; they take ${entry.options.map(flagOf).join(", ")}.`,
    );
  }
  const parsed = providerSchemas[kind].safeParse(given);
  if (parsed.success) return parsed.data as ProviderOptions<K>;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? "");
  const option = entry.options.find((o) => o.key === key);
  throw new UsageError(`${option ? flagOf(option) : toFlag(key)}: ${issue.message}`);
}

/** A kind or alias (any case) and raw values, validated: what the generators take. */
export function parseProvider(kindName: string, raw: Readonly<Record<string, unknown>>): ParsedProvider {
  const kind = resolveKind(kindName);
  return { kind, options: parseProviderOptions(kind, raw) } as ParsedProvider;
}
