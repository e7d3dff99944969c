/**
 * --refresh-tokens and --federated-logout, shared by init and add-provider:
 * whether each provider can do what is asked (the catalog's and the family's
 * facts, and for an OpenID provider whose issuer is known its discovery
 * document), refused in one line before anything is planned; and the
 * post-logout redirect URI the output names.
 */

import type { TokenChoice } from "../families/family.js";
import {
  type AnyParsedProvider,
  discoveryUrl,
  hasProviderTokens,
  tokenFacts,
  tokenRefusal,
} from "../families/index.js";
import { UsageError } from "../lib/errors.js";
import { postLogoutVariable } from "../planners/auth-config.js";
import { tokenOptionRows } from "./token-options.js";

/** The app's home page, where the provider sends the browser after its own sign-out. */
export function postLogoutRedirectUri(baseUrl: string | undefined, env: NodeJS.ProcessEnv, port: number): string {
  const base = baseUrl ?? env[postLogoutVariable] ?? env.AUTH_URL ?? `http://localhost:${port}`;
  return URL.canParse(base) ? `${new URL(base).origin}/` : base;
}

const DISCOVERY_TIMEOUT_MS = 5000;

/** The providers tokens concern: those with a provider session (OAuth and OpenID Connect sign-in). */
export function withTokens(providers: readonly AnyParsedProvider[]): AnyParsedProvider[] {
  return providers.filter(hasProviderTokens);
}

/**
 * Refuses (UsageError: one line, exit 2) a provider that cannot do what
 * `choice` asks; returns notes for what could not be checked here.
 */
export async function checkTokenSupport(
  providers: readonly AnyParsedProvider[],
  choice: TokenChoice,
  send: typeof fetch = fetch,
): Promise<string[]> {
  if (!choice.refresh && !choice.federatedLogout) return [];
  const notes: string[] = [];
  for (const provider of providers) {
    const refusal = tokenRefusal(provider, choice);
    if (refusal) throw new UsageError(refusal);
    const where = discoveryUrl(provider);
    if (!where) continue;
    const id = provider.options.id;
    let doc: Record<string, unknown>;
    try {
      const response = await send(where, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      doc = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      // Offline or not deployed yet: the app reads the same document when it first needs it.
      notes.push(
        `Could not read ${where} (${error instanceof Error ? error.message : String(error)}) to check that "${id}" offers what --refresh-tokens/--federated-logout need; the app reads it at run time.`,
      );
      continue;
    }
    const grants = doc.grant_types_supported;
    if (choice.refresh && Array.isArray(grants) && !grants.includes("refresh_token"))
      throw new UsageError(
        `--refresh-tokens: ${id} cannot: its discovery document (${where}) does not list the refresh_token grant.`,
      );
    if (choice.federatedLogout && typeof doc.end_session_endpoint !== "string")
      throw new UsageError(
        `--federated-logout: ${id} cannot: its discovery document (${where}) names no end_session_endpoint.`,
      );
  }
  return notes;
}

/**
 * The flags, and in a terminal the questions for what they left open: only
 * where every provider with tokens can do it (a flag that asks the
 * impossible is refused by checkTokenSupport instead).
 */
export async function askTokens(
  providers: readonly AnyParsedProvider[],
  given: { refresh?: boolean | undefined; federatedLogout?: boolean | undefined },
  ask: boolean,
): Promise<TokenChoice> {
  const choice = { refresh: given.refresh ?? false, federatedLogout: given.federatedLogout ?? false };
  if (!ask || providers.length === 0) return choice;
  const facts = providers.map(tokenFacts);
  const asked = [
    ...(given.refresh === undefined && facts.every((f) => !f.noRefresh) ? (["refreshTokens"] as const) : []),
    ...(given.federatedLogout === undefined && facts.every((f) => !f.noEndSession)
      ? (["federatedLogout"] as const)
      : []),
  ];
  if (asked.length === 0) return choice;
  const { askQuestions } = await import("../prompts/questions.js");
  const answers = await askQuestions(
    asked.map((key) => ({ key, question: tokenOptionRows[key].question })),
    undefined,
  );
  return {
    refresh: answers.refreshTokens === undefined ? choice.refresh : answers.refreshTokens === "yes",
    federatedLogout: answers.federatedLogout === undefined ? choice.federatedLogout : answers.federatedLogout === "yes",
  };
}
