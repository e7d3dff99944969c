/**
 * The built-in provider family: any provider @auth/core ships, by name.
 * Declares its flags (per provider: an issuer, a sender, the hand-written
 * options), validates them, and plans a module that imports the built-in
 * from the framework's package and passes only what the user supplies.
 * Pure: options in, a ProviderSnippet out.
 */
import type { BuiltinOption } from "../catalog/builtin-provider-extras.js";
import { senderVariable } from "../catalog/builtin-provider-extras.js";
import { envRoot } from "../catalog/builtin-provider-types.js";
import type { BuiltinProvider } from "../catalog/builtin-providers.js";
import type { DependencyName } from "../catalog/dependencies.js";
import { nextAuthV4Providers } from "../catalog/next-auth-v4-providers.js";
import { UsageError } from "../lib/errors.js";
import { toFlag } from "../lib/options.js";
import { hideUrlCredentials } from "../lib/redact.js";
import { type EnvVariable, type ProviderSnippet, part } from "../render/parts.js";
import { jsLiteral, renderTemplate } from "../render/templates.js";
import { type KindOption, opt, type TokenChoice, type TokenFacts, tokensAsked } from "./family.js";
import { bindingName } from "./render.js";
import { dotenvSafe, mailbox, urlProblem } from "./shared.js";

export interface BuiltinOptions {
  module: string;
  id: string;
  issuer?: string;
  from?: string;
  /** The hand-written options' values by key, validated. */
  extras: Record<string, string>;
}

export type BuiltinParsed = { kind: "builtin"; options: BuiltinOptions };

const isOAuth = (p: BuiltinProvider) => p.type === "oauth" || p.type === "oidc";

/** A catalog entry's own option as a row: its flag, and the value taken when it is not given. */
export const builtinOptionRow = (o: NonNullable<BuiltinProvider["options"]>[number]): KindOption =>
  opt(o.key, o.flag, o.description, { required: o.required, fallback: o.default, values: o.values });

/** The flags this provider takes, as the prompts and --list show them. */
export function builtinFlags(p: BuiltinProvider): KindOption[] {
  const flags: KindOption[] = [];
  const issuerFromOption = p.options?.some((o) => o.property === "issuer");
  // OAuth 2 built-ins carry their endpoints; an issuer matters where Auth.js discovers from it.
  if (p.issuerRequired || (p.type === "oidc" && !issuerFromOption)) {
    flags.push(
      opt(
        "issuer",
        "--issuer <url>",
        `${p.name}: issuer URL${p.issuerRequired ? "" : " (only to replace the built-in one)"}`,
        {
          required: p.issuerRequired,
          values: p.issuerType?.values,
        },
      ),
    );
  }
  if (p.type === "email")
    flags.push(
      opt(
        "from",
        "--from <address>",
        `sender, e.g. "Sign in <no-reply@example.com>" (also read from ${senderVariable(envRoot(p.id))})`,
      ),
    );
  for (const o of p.options ?? []) flags.push(builtinOptionRow(o));
  return flags;
}

/** Required flags not given: asked in a terminal, a usage error elsewhere. */
export function builtinMissing(p: BuiltinProvider, given: Readonly<Record<string, unknown>>): KindOption[] {
  return builtinFlags(p).filter((f) => f.required && (given[f.key] === undefined || given[f.key] === ""));
}

const quoted = (value: unknown) => JSON.stringify(String(value));

function checkExtra(o: BuiltinOption, value: string): string | undefined {
  const problem = o.url ? urlProblem(value) : undefined;
  if (problem) return `${quoted(hideUrlCredentials(value))} ${problem}`;
  if (o.values && !o.values.includes(value)) return `${quoted(value)} is not allowed; expected ${o.values.join(", ")}`;
  if (o.pattern && !o.pattern.test.test(value)) return `${quoted(value)} is not valid; expected ${o.pattern.expected}`;
  return undefined;
}

/** Validates raw flag values; a bad one is a one-line UsageError naming its flag. */
export function parseBuiltin(p: BuiltinProvider, raw: Readonly<Record<string, unknown>>): BuiltinOptions {
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const flags = builtinFlags(p);
  const foreign = Object.keys(given).find((key) => !flags.some((f) => f.key === key));
  if (foreign !== undefined) {
    const takes = flags.length ? `it takes ${flags.map((f) => f.flag.split(" ")[0]).join(", ")}` : "it takes none";
    throw new UsageError(`${toFlag(foreign)}: not an option of add-provider ${p.module}; ${takes}.`);
  }
  const missing = builtinMissing(p, given);
  if (missing.length) throw new UsageError(`${missing[0]!.flag.split(" ")[0]}: is required for ${p.name}.`);
  const text = (key: string) => {
    const value = given[key];
    if (typeof value !== "string" || value.trim() === "") throw new UsageError(`${toFlag(key)}: expected a value.`);
    return value.trim();
  };
  const options: BuiltinOptions = { module: p.module, id: p.id, extras: {} };
  if (given.issuer !== undefined) {
    const issuer = text("issuer");
    const problem = urlProblem(issuer);
    if (problem) throw new UsageError(`--issuer: ${quoted(hideUrlCredentials(issuer))} ${problem}`);
    if (p.issuerType && !p.issuerType.values.includes(issuer))
      throw new UsageError(
        `--issuer: ${quoted(issuer)} is not one of ${p.name}'s; expected ${p.issuerType.values.join(", ")}`,
      );
    options.issuer = issuer;
  }
  if (given.from !== undefined) {
    const from = text("from");
    if (!mailbox.test(from))
      throw new UsageError(`--from: ${quoted(from)} is not an email address; expected no-reply@example.com`);
    options.from = from;
  }
  for (const o of p.options ?? []) {
    if (given[o.key] === undefined) continue;
    const value = text(o.key);
    const problem = checkExtra(o, value);
    if (problem) throw new UsageError(`${o.flag.split(" ")[0]}: ${problem}`);
    options.extras[o.key] = value;
  }
  return options;
}

interface Property {
  key: string;
  /** The expression written for it: a variable, a variable with a fallback, or a literal. */
  value: string;
}

const fromEnv = (name: string, fallback?: string) =>
  fallback === undefined ? `process.env.${name}` : `process.env.${name} || ${jsLiteral(fallback)}`;

/** What a built-in can do with tokens: the catalog's facts, else what its type implies. */
export function builtinTokenFacts(p: BuiltinProvider): TokenFacts {
  if (!isOAuth(p)) return { noRefresh: "signs in without OAuth tokens", noEndSession: "has no provider session" };
  return {
    noRefresh: p.tokens?.noRefresh,
    noEndSession:
      p.tokens?.noEndSession ??
      (p.type === "oauth"
        ? "is an OAuth 2.0 provider without OpenID Connect: it has no end-session endpoint"
        : undefined),
    refreshParams: p.tokens?.refreshParams,
  };
}

function properties(
  p: BuiltinProvider,
  o: BuiltinOptions,
  nextAuthV4 = false,
  tokens?: TokenChoice,
): { props: Property[]; env: EnvVariable[] } {
  const root = envRoot(p.id);
  const props: Property[] = [];
  const env: EnvVariable[] = [];
  const variable = (name: string, description: string, example = "") =>
    env.push({ name, description, example: dotenvSafe(example) ? example : "" });
  if (isOAuth(p)) {
    // next-auth v4 types both as required strings (v5 reads them from AUTH_<ID>_ID/SECRET when absent).
    const required = (name: string) => (nextAuthV4 ? `${fromEnv(name)} ?? ""` : fromEnv(name));
    props.push(
      { key: "clientId", value: required(p.env.id!) },
      { key: "clientSecret", value: required(p.env.secret!) },
    );
    variable(p.env.id!, `OAuth client ID of ${p.name}`);
    variable(p.env.secret!, `${p.name}: ${p.secret ?? "OAuth client secret"} (a secret: never commit it)`);
    const refreshParams = tokens?.refresh ? p.tokens?.refreshParams : undefined;
    // Auth.js deep-merges these into the built-in's own authorization parameters.
    if (refreshParams) props.push({ key: "authorization", value: `{ params: ${jsLiteral(refreshParams)} }` });
    if (o.issuer !== undefined) {
      const value = fromEnv(p.env.issuer!, o.issuer);
      const typed = p.issuerType && !nextAuthV4;
      props.push({ key: "issuer", value: typed ? `(${value}) as ${p.issuerType!.name}` : value });
      variable(p.env.issuer!, `Issuer URL of ${p.name}`, o.issuer);
    }
  } else if (p.module === "nodemailer") {
    // Nodemailer refuses to start without a server; its own default is localhost:25.
    props.push({ key: "server", value: fromEnv("EMAIL_SERVER", "smtp://localhost:25") });
    variable("EMAIL_SERVER", "SMTP server for the sign-in links, e.g. smtp://user:password@smtp.example.com:587");
  } else if (p.type === "email") {
    props.push({ key: "apiKey", value: fromEnv(p.env.key!) });
    variable(p.env.key!, `API key of ${p.name} (a secret: never commit it)`);
  }
  if (p.type === "email") {
    const sender = senderVariable(root);
    props.push({ key: "from", value: fromEnv(sender, o.from) });
    variable(sender, `Sender of the sign-in emails (${p.name})`, o.from ?? "no-reply@example.com");
  }
  for (const extra of p.options ?? []) {
    const given = o.extras[extra.key] ?? extra.default;
    if (given === undefined) continue;
    const value = extra.toValue ? extra.toValue(given) : given;
    if (extra.env) {
      const name = `${root}_${extra.env}`;
      props.push({ key: extra.property, value: fromEnv(name, String(value)) });
      variable(name, extra.description, String(value));
    } else props.push({ key: extra.property, value: jsLiteral(value) });
  }
  return { props, env };
}

/** The import's name, from the display name as Auth.js's docs write it: GitHub, MicrosoftEntraID. */
function factoryName(p: BuiltinProvider): string {
  const letters = p.name.replace(/[^A-Za-z0-9]/g, "");
  const name = letters.charAt(0).toUpperCase() + letters.slice(1);
  return /^[A-Z]/.test(name) ? name : `Provider${name}`;
}

export interface BuiltinContext {
  /** The Auth.js package the project's framework imports (built-ins come from `<package>/providers/<module>`). */
  authPackage?: string;
  /** Where Auth.js answers in the app, for the callback URL the module's comment names. */
  basePath?: string;
  importExtension?: "" | ".js";
  /** The project runs next-auth v4: only the providers v4 ships, typed as v4 reads them. */
  nextAuthV4?: boolean;
  tokens?: TokenChoice;
  /** An email service's sign-in emails are counted through the sign-in throttle (see GenerateContext). */
  throttleModule?: string;
}

export async function planBuiltin(
  p: BuiltinProvider,
  o: BuiltinOptions,
  context: BuiltinContext = {},
): Promise<ProviderSnippet> {
  const binding = bindingName(o.id);
  const factory = factoryName(p);
  const file = `providers/${o.id}.ts`;
  const ext = context.importExtension ?? "";
  if (context.nextAuthV4 && !nextAuthV4Providers.has(p.module))
    throw new UsageError(
      `${p.name} is not among next-auth v4's providers (next-auth/providers/${p.module} came with v5); upgrade first with create-auth upgrade.`,
    );
  const { props, env } = properties(p, o, context.nextAuthV4, context.tokens);
  const authPackage = context.authPackage ?? "@auth/core";
  const specifier = `${authPackage}/providers/${p.module}`;
  const throttle =
    p.type === "email" && context.throttleModule && !context.nextAuthV4 ? `${context.throttleModule}${ext}` : false;
  const contents = await renderTemplate("providers/builtin.ts.hbs", {
    throttle,
    ...p,
    binding,
    factory,
    specifier,
    props,
    oauth: isOAuth(p),
    registerAt: p.console ?? p.docs,
    issuerTypeName: p.issuerType && o.issuer !== undefined && !context.nextAuthV4 ? p.issuerType.name : undefined,
    providersModule: `${authPackage}/providers`,
    basePath: context.basePath ?? "/api/auth",
  });
  // @auth/core's Nodemailer imports nodemailer itself; the app must have it.
  const dependencies: DependencyName[] = p.module === "nodemailer" ? ["nodemailer"] : [];
  const emailNote =
    "Email sign-in needs an adapter with createVerificationToken, useVerificationToken and getUserByEmail: https://authjs.dev/getting-started/authentication/email";
  return {
    ...part({
      files: [{ path: file, contents }],
      env,
      dependencies,
      devDependencies: p.module === "nodemailer" ? ["@types/nodemailer"] : [],
    }),
    id: o.id,
    kind: p.module,
    imports: [{ from: `./providers/${o.id}${ext}`, named: [binding] }],
    entry: binding,
    hasCallback: isOAuth(p),
    registerAt: isOAuth(p) ? (p.console ?? p.docs) : undefined,
    ...(tokensAsked(context.tokens) && isOAuth(p) ? { tokens: context.tokens } : {}),
    ...(throttle ? { throttled: true, throttledEmails: true } : {}),
    steps: [
      ...(p.type === "email" ? [emailNote] : []),
      ...(p.notes ?? []),
      ...(isOAuth(p) && !p.console ? [] : [`Set-up guide: ${p.docs}`]),
    ],
  };
}
