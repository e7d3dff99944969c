/**
 * The provider families this project generates, one module each: adding a
 * family is writing its module and listing it here. `--list`, the commander
 * flags, the prompts, parsing and generation all read this list.
 */
import type { z } from "zod";
import { UsageError } from "../lib/errors.js";
import { toFlag } from "../lib/options.js";
import { credentialsFamily } from "./credentials.js";
import { emailFamily } from "./email.js";
import { flagOf, type KindOption, type ProviderFamily } from "./family.js";
import { oauthFamily } from "./oauth.js";
import { oidcFamily } from "./oidc.js";
import { socialFamily } from "./social.js";
import { webauthnFamily } from "./webauthn.js";

const families = [oauthFamily, oidcFamily, emailFamily, credentialsFamily, webauthnFamily, socialFamily] as const;
type Family = (typeof families)[number];

export type ProviderKind = Family["kind"];
export type KindEntry = ProviderFamily<ProviderKind>;

/** The families in --list and prompt order. */
export const kindCatalog: readonly KindEntry[] = families;
export const providerKinds: readonly ProviderKind[] = families.map((f) => f.kind);

export type ProviderOptions<K extends ProviderKind = ProviderKind> = z.output<Extract<Family, { kind: K }>["schema"]>;

/** A provider kind with its validated options. */
export type ParsedProvider = { [K in ProviderKind]: { kind: K; options: ProviderOptions<K> } }[ProviderKind];

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
  const { options, alternatives } = kindEntry(kind);
  const missing = options.filter((o) => o.required && !has(o.key));
  for (const key of alternatives?.(has) ?? []) missing.push(options.find((o) => o.key === key)!);
  return missing;
}

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
  const parsed = entry.schema.safeParse(given);
  if (parsed.success) return parsed.data as ProviderOptions<K>;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? "");
  const option = entry.options.find((o) => o.key === key);
  throw new UsageError(`${option ? flagOf(option) : toFlag(key)}: ${issue.message}`);
}

/** A kind or alias (any case) and raw values, validated: what the planners take. */
export function parseProvider(kindName: string, raw: Readonly<Record<string, unknown>>): ParsedProvider {
  const kind = resolveKind(kindName);
  return { kind, options: parseProviderOptions(kind, raw) } as ParsedProvider;
}
