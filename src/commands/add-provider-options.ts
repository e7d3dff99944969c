/**
 * add-provider's options, one row each (src/lib/command-options.ts): the
 * command's own flags, then one row per flag of the providers (--id,
 * --issuer, --api-version…), taken from the families' and the built-ins'
 * option lists. The provider's rows only collect the value: once the
 * provider is known, its own schema validates them and its options decide
 * what a terminal asks. A new command flag is one more row here.
 */
import { z } from "zod";
import { builtinProviders } from "../catalog/builtin-providers.js";
import { builtinOptionRow } from "../families/builtin.js";
import type { KindOption } from "../families/family.js";
import { kindCatalog } from "../families/registry.js";
import { defineOptions, type OptionRow } from "../lib/command-options.js";
import { appUrlProblem } from "../lib/urls.js";
import { packageManagerOption } from "../workspace/package-manager.js";
import { tokenOptionRows } from "./token-options.js";

const kindNames = kindCatalog.map((k) => [k.kind, ...(k.aliases ?? [])].join("|")).join(", ");

/**
 * One row per provider flag; a flag several providers share (--id, --issuer) is one row, described where first
 * listed. init's table has the same rows: a provider set up there takes the flags it takes here.
 */
function flagRows(): Record<string, OptionRow> {
  const rows: Record<string, OptionRow> = {};
  const options: KindOption[] = [
    ...kindCatalog.flatMap((k) => k.options),
    ...builtinProviders.flatMap((p) => (p.options ?? []).map(builtinOptionRow)),
  ];
  for (const option of options) {
    if (rows[option.key]) continue;
    const values = option.values ? `: ${option.values.join(", ")}` : "";
    // The id's default differs per provider: the provider's own, never one family's.
    const fallback = option.fallback !== undefined && option.key !== "id" ? ` (default: ${option.fallback})` : "";
    rows[option.key] = {
      flag: option.flag,
      description: `${option.description}${values}${fallback}`,
      // The provider's own schema says what is valid, once the provider is known.
      schema: option.schema,
    };
  }
  return rows;
}

export const providerFlagRows = flagRows();

/** The provider's own flags by key, as commander names them. */
export const providerFlagKeys = Object.keys(providerFlagRows);

export const addProviderOptions = defineOptions({
  // First, as --help has always listed them; a command row of the same key would win.
  ...providerFlagRows,
  provider: {
    argument: "[provider]",
    description: `a built-in provider of Auth.js (github, google, keycloak, resend… see --list) or a kind: ${kindNames}`,
    schema: z.string().min(1).optional(),
    expects: "a provider name (see create-auth add-provider --list)",
    question: {
      message: "Which kind of provider?",
      choices: () => kindCatalog.map((k) => ({ value: k.kind, label: k.title, hint: k.description })),
    },
  },
  config: {
    flag: "--config <path>",
    description:
      "the auth config to edit (default: the module of this package that calls NextAuth(), SvelteKitAuth(), ExpressAuth() or Auth(), or exports the config, found by its contents)",
    schema: z.string().min(1).optional(),
    expects: "a path",
  },
  baseUrl: {
    flag: "--base-url <url>",
    description: "your app's URL, for the callback URL to register (default: $AUTH_URL, else http://localhost:3000)",
    schema: z
      .string()
      .superRefine((v, ctx) => {
        const problem = appUrlProblem(v);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      })
      .optional(),
  },
  force: {
    flag: "--force",
    description: "replace a provider with the same id and its generated files",
    schema: z.boolean().default(false),
  },
  install: {
    flag: "--no-install",
    description: "add the provider's packages to package.json without installing them",
    schema: z.boolean().default(true),
  },
  packageManager: packageManagerOption,
  ...tokenOptionRows,
  dryRun: {
    flag: "--dry-run",
    description: "print the diff of every change and write nothing",
    schema: z.boolean().default(false),
  },
  list: {
    flag: "--list",
    description: "list every provider, grouped, with the options each needs",
    schema: z.boolean().default(false),
  },
  json: { flag: "--json", description: "with --list: the list as JSON", schema: z.boolean().default(false) },
});
