/**
 * What a provider family declares, in one module per family: its names,
 * its flags as --list, commander and the prompts show them, its zod
 * options, the packages its code needs and a pure plan of its files.
 */
import { z } from "zod";
import type { DependencyName } from "../catalog/dependencies.js";
import type { OptionRow } from "../lib/command-options.js";
import type { EnvVariable } from "../render/parts.js";

/**
 * A provider's option: a row of the one option vocabulary (src/lib/command-options.ts), whose flag
 * add-provider and init take and whose question questionOf() makes; the family's zod schema validates it.
 */
export interface KindOption extends OptionRow {
  /** camelCase key, as commander names the flag's value. */
  key: string;
  /** commander flag definition, e.g. "--api-version <version>". */
  flag: string;
  /** The value taken when it is not given. */
  fallback?: string;
  /** Needed whatever else is given (alternatives such as --issuer/--well-known are checked by the schema). */
  required: boolean;
  /** Asked in a terminal when not given, though the fallback serves elsewhere (a choice worth making consciously). */
  ask?: boolean;
  /** Keys of options that settle this choice when given (e.g. --api-version implies --flow oauth): then it is not asked. */
  settledBy?: readonly string[];
}

/** What a provider's flag gives before its family's schema reads it: a string from commander or a question, true for a bare flag. */
const providerValue = z.union([z.string(), z.boolean()]).optional();

/**
 * What a provider does beyond signing in, for --refresh-tokens and
 * --federated-logout: the reason it cannot (one line, after the provider's
 * name), and the authorization parameters that make it hand out a refresh token.
 */
export interface TokenFacts {
  noRefresh?: string;
  noEndSession?: string;
  refreshParams?: Readonly<Record<string, string>>;
}

/** --refresh-tokens and --federated-logout, as the commands pass them to the plans. */
export interface TokenChoice {
  refresh: boolean;
  federatedLogout: boolean;
}

/** The choice when it asks for anything; undefined otherwise (a provider with no token flags gets no rotation). */
export const tokensAsked = (choice: TokenChoice | undefined): TokenChoice | undefined =>
  choice?.refresh || choice?.federatedLogout ? choice : undefined;

export interface GenerateContext {
  /** Access-token rotation and federated sign-out asked for this provider. */
  tokens?: TokenChoice;
  /** Extension of relative imports in the user's project: ".js" under NodeNext resolution, else "". */
  importExtension?: "" | ".js";
  /**
   * Credentials: the module (a specifier from the provider's file, without
   * extension) exporting verifyUserPassword(), which init generates with a
   * SQL backend; without it the provider is a skeleton to fill in.
   */
  passwordsModule?: string;
  /**
   * Credentials and email: the sign-in throttle (throttle.ts beside the adapter), as a specifier from the
   * provider's file without extension; the families that count attempts import it. Without it, nothing is counted.
   */
  throttleModule?: string;
  /**
   * Credentials with --two-factor totp: two-factor.ts beside the adapter, as a specifier from the provider's
   * file without extension; without it, no second factor is written.
   */
  twoFactorModule?: string;
  /** The project runs next-auth v4: the module imports and types what v4 ships (families with `nextAuthV4`). */
  nextAuthV4?: boolean;
  /** The folder, from the project's root, that holds `providers/`: where messages send the user. */
  modulesDir?: string;
}

/** Where a provider's module goes and the const it exports. */
export interface PlanNames {
  binding: string;
  file: string;
}

/** A family's files before rendering: render.ts renders them and adds the import and entry. */
export interface FamilyPlan {
  env: EnvVariable[];
  /** Template names under templates/providers/, beside the path each renders to. */
  files: { template: string; path: string }[];
  view: Record<string, unknown>;
  hasCallback: boolean;
  notes: string[];
  /** Its module imports the sign-in throttle of the context's throttleModule, which must then be written. */
  throttled?: boolean;
  /** The throttled module sends sign-in emails (the config's adapter then stores no token of a refused one). */
  throttledEmails?: boolean;
  /** Its module asks for a second factor through the context's twoFactorModule, which must then be written. */
  twoFactor?: boolean;
}

export interface ProviderFamily<K extends string = string, S extends z.ZodTypeAny = z.ZodTypeAny> {
  kind: K;
  title: string;
  description: string;
  aliases?: readonly string[];
  options: readonly KindOption[];
  /** Its module is written for next-auth v4 too when the context says so; the others write Auth.js v5 code only. */
  nextAuthV4?: boolean;
  /** Packages the generated code imports beyond the auth library itself; versions from catalog/dependencies.ts. */
  dependencies?: readonly DependencyName[];
  /** Validates what commander and the prompts give; issue messages are the part after "--flag: ". */
  schema: S;
  /** Options needed beyond the `required` ones when their alternatives are not given either (e.g. --issuer or --well-known). */
  alternatives?: (has: (key: string) => boolean) => string[];
  /** What it can do with tokens beyond sign-in; without it, neither refresh nor federated sign-out. */
  tokens?(options: z.output<S>): TokenFacts;
  /** Pure: validated options in, files to render out. A method, so a family of one schema is a family of any. */
  plan(options: z.output<S>, names: PlanNames, context: GenerateContext): FamilyPlan;
}

/** Keeps a family's kind literal and ties its plan's options to its schema. */
export const defineFamily = <const K extends string, S extends z.ZodTypeAny>(
  family: ProviderFamily<K, S>,
): ProviderFamily<K, S> => family;

export const opt = (key: string, flag: string, description: string, extra: Partial<KindOption> = {}): KindOption => ({
  key,
  flag,
  description,
  schema: providerValue,
  required: false,
  ...extra,
});

export const idOption = (fallback?: string) =>
  opt(
    "id",
    "--id <id>",
    "provider id, part of the callback URL /api/auth/callback/<id> (lowercase letters, digits, - and _)",
    fallback ? { fallback } : { required: true },
  );

export const nameOption = (fallback: string) =>
  opt("name", "--name <name>", `name on the sign-in button ("Sign in with <name>"; default ${fallback})`);

/** "--api-version" of "--api-version <version>". */
export const flagOf = (option: KindOption) => option.flag.split(" ")[0]!;
