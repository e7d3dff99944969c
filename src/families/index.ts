/**
 * One way in for every provider name `add-provider` and `init` take: this
 * project's kinds (oauth, oidc, email, credentials, webauthn/passkey,
 * social) and every built-in of @auth/core (github, keycloak, resend…).
 * Resolves a name, lists what it needs, validates its options and plans
 * its module; the commands and planners go through here only. The kinds
 * are the families of registry.ts, the built-ins builtin.ts.
 */
import { type BuiltinProvider, findBuiltin, generatedBuiltins } from "../catalog/builtin-providers.js";
import { UsageError } from "../lib/errors.js";
import { closestWord } from "../lib/suggest.js";
import type { ProviderSnippet } from "../render/parts.js";
import {
  type BuiltinParsed,
  builtinFlags,
  builtinMissing,
  builtinTokenFacts,
  parseBuiltin,
  planBuiltin,
} from "./builtin.js";
import type { GenerateContext, KindOption, TokenChoice, TokenFacts } from "./family.js";
import {
  kindCatalog,
  kindEntry,
  missingOptions,
  type ParsedProvider,
  type ProviderKind,
  parseProviderOptions,
  questions,
} from "./registry.js";

export type AnyParsedProvider = ParsedProvider | BuiltinParsed;

export type ResolvedName = { kind: ProviderKind; builtin?: undefined } | { builtin: BuiltinProvider; kind?: undefined };

/** Every name a user can type, kinds and their aliases first. */
export function providerNames(): string[] {
  const kinds = kindCatalog.flatMap((k) => [k.kind, ...(k.aliases ?? [])]);
  return [...kinds, ...generatedBuiltins.map((p) => p.module)];
}

/** A kind, an alias or a built-in (by module or id), any case; anything else is a usage error with a suggestion. */
export function resolveProviderName(input: string): ResolvedName {
  const wanted = input.trim().toLowerCase();
  const kind = kindCatalog.find((k) => k.kind === wanted || k.aliases?.includes(wanted));
  if (kind) return { kind: kind.kind };
  const builtin = findBuiltin(wanted);
  if (builtin?.servedBy) return { kind: builtin.servedBy };
  if (builtin) return { builtin };
  const guess = closestWord(wanted, [...providerNames(), ...generatedBuiltins.map((p) => p.id)]);
  throw new UsageError(
    `Unknown provider ${JSON.stringify(input)}${guess ? `; did you mean ${JSON.stringify(guess)}?` : "."}`,
    "See create-auth add-provider --list for every provider.",
  );
}

/** `add-provider email --service resend`: the email kind handing over to an email service. */
export function emailService(service: unknown): BuiltinProvider {
  const name = String(service);
  const builtin = findBuiltin(name);
  if (builtin?.type !== "email" || builtin.servedBy) {
    const services = generatedBuiltins.filter((p) => p.type === "email").map((p) => p.module);
    throw new UsageError(
      `--service: ${JSON.stringify(name)} is not an email service; expected ${services.join(", ")}.`,
    );
  }
  return builtin;
}

/**
 * `email --service resend` is `resend`: the email kind handing over to a
 * service's built-in, with the other flags; any other name and flags as given.
 */
export function withEmailService(
  resolved: ResolvedName,
  given: Readonly<Record<string, unknown>>,
): { resolved: ResolvedName; given: Record<string, unknown> } {
  if (resolved.kind !== "email" || given.service === undefined) return { resolved, given: { ...given } };
  const { service, ...rest } = given;
  return { resolved: { builtin: emailService(service) }, given: rest };
}

/** Every flag the provider takes (its family's, or the built-in's). */
export function optionsFor(resolved: ResolvedName): readonly KindOption[] {
  return resolved.builtin ? builtinFlags(resolved.builtin) : kindEntry(resolved.kind).options;
}

/** Options still needed beyond `given` (asked in a terminal, an error elsewhere). */
export function missingFor(resolved: ResolvedName, given: Readonly<Record<string, unknown>>): KindOption[] {
  return resolved.builtin ? builtinMissing(resolved.builtin, given) : missingOptions(resolved.kind, given);
}

/** What a terminal asks: the needed options, and for kinds the choices worth making. */
export function questionsFor(resolved: ResolvedName, given: Readonly<Record<string, unknown>>): KindOption[] {
  return resolved.builtin ? builtinMissing(resolved.builtin, given) : questions(resolved.kind, given);
}

export function parseResolved(resolved: ResolvedName, raw: Readonly<Record<string, unknown>>): AnyParsedProvider {
  if (resolved.builtin) return { kind: "builtin", options: parseBuiltin(resolved.builtin, raw) };
  return { kind: resolved.kind, options: parseProviderOptions(resolved.kind, raw) } as ParsedProvider;
}

export interface SnippetContext extends GenerateContext {
  /** The Auth.js package the project's framework imports, and where Auth.js answers in the app. */
  authPackage?: string;
  basePath?: string;
}

export async function generateSnippet(provider: AnyParsedProvider, context: SnippetContext): Promise<ProviderSnippet> {
  if (context.nextAuthV4 && provider.kind !== "builtin" && !kindEntry(provider.kind).nextAuthV4)
    throw new UsageError(
      `${provider.kind} writes a provider module for Auth.js v5, and this project runs next-auth v4: upgrade first with create-auth upgrade, or add a provider next-auth v4 ships (credentials, github, google, keycloak… see create-auth add-provider --list).`,
    );
  if (provider.kind === "builtin") {
    const entry = findBuiltin(provider.options.module)!;
    return planBuiltin(entry, provider.options, context);
  }
  const { generateProvider } = await import("./render.js");
  return generateProvider(provider.kind, provider.options, context);
}

/** Whether the provider signs in through OAuth (and so has tokens at all): a built-in of those types, a family that says. */
export function hasProviderTokens(provider: AnyParsedProvider): boolean {
  if (provider.kind === "builtin") {
    const type = findBuiltin(provider.options.module)!.type;
    return type === "oauth" || type === "oidc";
  }
  return kindEntry(provider.kind).tokens !== undefined;
}

/** What the provider can do with tokens (refresh, end-session), from its family or the built-in catalog. */
export function tokenFacts(provider: AnyParsedProvider): TokenFacts {
  if (provider.kind === "builtin") return builtinTokenFacts(findBuiltin(provider.options.module)!);
  const family = kindEntry(provider.kind);
  const facts = family.tokens?.(provider.options as never);
  return (
    facts ?? {
      noRefresh: `${family.title} sign-in has no OAuth tokens to refresh`,
      noEndSession: `${family.title} sign-in has no provider session to end`,
    }
  );
}

/** The one-line refusal when the provider cannot do what `choice` asks, else undefined. */
export function tokenRefusal(provider: AnyParsedProvider, choice: TokenChoice): string | undefined {
  const facts = tokenFacts(provider);
  const name = provider.kind === "builtin" ? findBuiltin(provider.options.module)!.name : provider.options.id;
  if (choice.refresh && facts.noRefresh) return `--refresh-tokens: ${name} cannot: ${facts.noRefresh}.`;
  if (choice.federatedLogout && facts.noEndSession) return `--federated-logout: ${name} cannot: ${facts.noEndSession}.`;
  return undefined;
}

/** Where an OpenID provider's discovery document is, when the options say (the oidc kind, a built-in given --issuer). */
export function discoveryUrl(provider: AnyParsedProvider): string | undefined {
  const options = provider.options as { issuer?: string; wellKnown?: string };
  if (options.wellKnown) return options.wellKnown;
  const oidc =
    provider.kind === "oidc" || (provider.kind === "builtin" && findBuiltin(provider.options.module)!.type === "oidc");
  return oidc && options.issuer ? `${options.issuer.replace(/\/$/, "")}/.well-known/openid-configuration` : undefined;
}
