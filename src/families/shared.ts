/**
 * What several provider families share: the id and button name, the text,
 * URL and list checks behind their zod options, the OAuth family's flags,
 * options and CSRF checks, and the env names their plans write. Issue
 * messages are the part after "--flag: " (the registry adds the flag).
 */
import { z } from "zod";
import { hideUrlCredentials } from "../lib/redact.js";
import { portProblem } from "../lib/urls.js";
import type { EnvVariable } from "../render/parts.js";
import { type FamilyPlan, type GenerateContext, type KindOption, opt, type PlanNames } from "./family.js";

export const quoted = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));

/** §2.1/§4.1: the id is a path segment of /api/auth/callback/<id> and part of env names and file names. */
export const idPattern = /^[a-z0-9_-]{1,50}$/;

function suggestId(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
}

export const text = (what: string) =>
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
export const label = (what: string) =>
  text(what).refine(
    (v) => v.trim() !== "",
    (v) => ({ message: `${quoted(v)} is empty; expected ${what}` }),
  );

export const httpUrl = text("an http(s) URL").superRefine((v, ctx) => {
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
  if (/[\s\p{C}]/u.test(value)) return "is not an http(s) URL; expected e.g. https://login.example.com";
  // The parser takes port 0, which nothing listens on, and its error for 65536 names no part.
  const port = portProblem(value);
  if (port) return `is not a valid URL: ${port}`;
  if (!URL.canParse(value)) return "is not an http(s) URL; expected e.g. https://login.example.com";
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

const logoExpected = "expected a path on the app such as /logo.svg or an https URL";

/**
 * Why a logo is refused, or undefined when it is fine. Auth.js puts it in
 * its sign-in page's <img src>, and it is written into a committed file: a
 * path on the app or an http(s) URL, never another scheme (javascript:,
 * data:), never a user name or password. Control characters and line breaks
 * are refused too: the URL parser drops tabs and newlines, so "java\tscript:"
 * would read as "javascript:".
 */
export function logoProblem(value: string): string | undefined {
  if (/[\p{C}\p{Zl}\p{Zp}]/u.test(value)) return `contains a control character or a line break; ${logoExpected}`;
  const scheme = /^\s*([a-z][a-z\d+.-]*):/i.exec(value)?.[1];
  if (scheme !== undefined) {
    if (!/^https?$/i.test(scheme))
      return `uses the ${scheme.toLowerCase()}: scheme, which a logo cannot; ${logoExpected}`;
    const port = portProblem(value);
    if (port || !URL.canParse(value)) return `is not a valid URL: ${port ?? logoExpected}`;
  }
  if (hasUserinfo(value)) return "contains a user name or password; give the URL without them";
  return undefined;
}

const flag = z
  .union([z.boolean(), z.enum(["true", "false"])], { errorMap: () => ({ message: "expected true or false" }) })
  .transform((v) => v === true || v === "true");

/** Splits "a, b" and accepts an array; used for --checks and --fields. */
export const list = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()),
);

export const joinOr = (values: readonly string[]) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

export function checksSchema<const C extends readonly string[]>(allowed: C) {
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

export const commonOptions = { id: idSchema, name: label('a button label such as "Acme"').optional() };

/** Options every OAuth-family kind shares (§2.4–2.6). */
export const oauthSharedOptions = {
  ...commonOptions,
  issuer: httpUrl.optional(),
  scope: label('space-separated scopes such as "openid profile email"').optional(),
  redirectProxyUrl: httpUrl.optional(),
  allowDangerousEmailAccountLinking: flag.default(false),
  brandColor: label("a CSS colour such as #24292f").optional(),
  // A path served by the app or an http(s) URL (logoProblem).
  logo: label("a logo URL")
    .superRefine((v, ctx) => {
      const problem = logoProblem(v);
      if (problem)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${quoted(hideUrlCredentials(v))} ${problem}` });
    })
    .optional(),
};

type Issue = { path: string; message: string };
type WithChecks = { checks?: string[] | undefined; redirectProxyUrl?: string | undefined };

/** §2.4/§5.2: a redirect proxy makes Auth.js add "state"; "none" would silently be overridden. */
export function redirectProxyIssue(o: WithChecks): Issue | undefined {
  if (o.redirectProxyUrl && o.checks?.includes("none")) {
    return { path: "checks", message: `"none" cannot be used with --redirect-proxy-url, which needs "state"` };
  }
  return undefined;
}

export function withChecks<T extends WithChecks>(o: T): T & { checks: string[] } {
  const checks = o.checks ?? ["pkce"];
  return { ...o, checks: o.redirectProxyUrl && !checks.includes("state") ? [...checks, "state"] : checks };
}

export function report(ctx: z.RefinementCtx, issue: Issue | undefined) {
  if (issue) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [issue.path], message: issue.message });
}

/** CSRF checks on the callback (§2.4, §2.5). */
export const oauthChecks = ["none", "state", "pkce"] as const;
export const oidcChecks = ["none", "state", "nonce", "pkce"] as const;

/** The flags every OAuth-family kind shares, after its own. */
export const oauthCommonFlags = (checks: readonly string[]): KindOption[] => [
  opt("scope", "--scope <scopes>", "space-separated scopes to request"),
  opt(
    "checks",
    "--checks <list>",
    'comma-separated CSRF checks on the callback; "state" is added with a redirect proxy',
    { fallback: "pkce", values: checks },
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

/** Auth.js's own convention: AUTH_<ID>_ID with the id uppercased and "-" -> "_". */
export const envPrefix = (id: string) => `AUTH_${id.toUpperCase().replace(/-/g, "_")}`;

export const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Env descriptions and examples are written raw into dotenv files: only the id (validated) goes into them. */
export function clientEnv(id: string): EnvVariable[] {
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

/** "Name <addr@host>" or "addr@host"; no CR/LF, which would be header injection in a mail. */
export const mailbox = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

/** A value dotenv reads back unchanged when unquoted (no #, quotes, $, backslash, control or edge spaces). */
export const dotenvSafe = (value: string) => /^[^\s#"'`$\\\p{C}](?:[^#"'`$\\\p{C}]*[^\s#"'`$\\\p{C}])?$/u.test(value);

interface OAuthPlanOptions {
  id: string;
  issuer?: string | undefined;
  brandColor?: string | undefined;
  logo?: string | undefined;
  authorization?: string | undefined;
  token?: string | undefined;
  userinfo?: string | undefined;
  wellKnown?: string | undefined;
}

/** The oauth and oidc kinds' plan: one module from the kind's template, the client's env and the issuer's. */
export function planOAuth(
  kind: "oauth" | "oidc",
  o: OAuthPlanOptions & { scope?: string | undefined },
  names: PlanNames,
  context: GenerateContext = {},
): FamilyPlan {
  const refresh = context.tokens?.refresh === true;
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
      // OpenID Connect asks for a refresh token with offline_access (Core §11), granted with prompt=consent.
      refreshTokens: refresh && kind === "oidc",
      scope:
        refresh && kind === "oidc" && o.scope !== undefined && !o.scope.split(" ").includes("offline_access")
          ? `${o.scope} offline_access`
          : o.scope,
      envIssuer: issuer?.name,
      profileType: `${pascal(names.binding)}Profile`,
      missingIdError: `Provider "${o.id}": the profile has neither "sub" nor "id"; adapt profile() in ${names.file}`,
    },
    hasCallback: true,
    notes: [],
  };
}
