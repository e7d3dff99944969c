/**
 * init's options, one row each: its flag and --help line, its validation,
 * its --yes answer, and the question a terminal asks when no flag gave it.
 * The prompts, the CI error and --help all read this table.
 */
import { z } from "zod";
import { builtinProviders, byPopularity, generatedBuiltins } from "../catalog/builtin-providers.js";
import { nextAuthV4Providers } from "../catalog/next-auth-v4-providers.js";
import { dialects } from "../catalog/sql-dialects.js";
import { kindCatalog } from "../families/registry.js";
import { twoFactorMethods } from "../families/two-factor.js";
import { frameworkById, frameworkIds } from "../frameworks/registry.js";
import { commaList, defineOptions } from "../lib/command-options.js";
import { backends, orms, storageById } from "../storage/registry.js";
import { schemaFlavours } from "../storage/schemas.js";
import { packageManagerOption } from "../workspace/package-manager.js";
import { providerFlagRows } from "./add-provider-options.js";
import { tokenOptionRows } from "./token-options.js";

/** What the questions show: what detection found, and the ORM already chosen. */
export interface InitQuestionContext {
  framework: { id: string; reason: string };
  orm: { id: string | undefined; reason: string; chosen?: string };
  /** The project runs next-auth v4 and keeps it: only the providers v4 can import are offered. */
  nextAuthV4?: boolean;
  /** What flags and earlier questions answered, by option key. */
  answers: Record<string, unknown>;
}

/** Password sign-in keeps its sessions in a signed cookie: Auth.js's Credentials provider has no database sessions. */
function signsInWithPassword(providers: unknown): boolean {
  const names = typeof providers === "string" ? providers.split(",") : Array.isArray(providers) ? providers : [];
  const credentials = kindCatalog.find((k) => k.kind === "credentials");
  return names.some((n) => [credentials?.kind, ...(credentials?.aliases ?? [])].includes(String(n).trim()));
}

const providerNames = kindCatalog.flatMap((k) => [k.kind, ...(k.aliases ?? [])]);
/** The prompt's short list: the kinds, then the most asked-for built-ins; a search covers the rest. */
const popularBuiltins = byPopularity(generatedBuiltins).filter((p) => p.popular !== undefined);

const choice = (values: readonly string[], hints: Record<string, string | undefined> = {}) =>
  values.map((v) => ({ value: v, label: v, hint: hints[v] }));

/** Path patterns such as /dashboard/:path*. */
const pathList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length > 0 && list.every((m) => m.startsWith("/")));

export const initOptions = defineOptions({
  folder: {
    argument: "[folder]",
    description: "the project to set up, as --dir",
    schema: z.string().min(1).optional(),
  },
  dir: {
    flag: "--dir <path>",
    description: "the project to set up (created when absent)",
    schema: z.string().min(1).default("."),
  },
  framework: {
    flag: "--framework <name>",
    description: `wire sign-in into ${frameworkIds.join(", ")} (default: detected from package.json and files; none writes a framework-neutral config)`,
    schema: z.enum(frameworkIds).optional(),
    expects: frameworkIds.join(", "),
    question: {
      message: "Framework to wire sign-in into (--framework)",
      choices: (c: InitQuestionContext) =>
        frameworkIds.map((id) => ({
          value: id,
          label: frameworkById(id).title,
          hint: id === c.framework.id ? `detected: ${c.framework.reason}` : undefined,
        })),
      initial: (c: InitQuestionContext) => c.framework.id,
    },
  },
  orm: {
    flag: "--orm <name>",
    description: `${orms.join(", ")}: the ORM the adapter goes through (default: the project's, detected from schema.prisma, drizzle.config and package.json; none writes an adapter over the driver)`,
    schema: z.enum(orms).optional(),
    expects: orms.join(", "),
    question: {
      message: "ORM the adapter goes through (--orm)",
      choices: (c: InitQuestionContext) =>
        orms.map((id) => ({
          value: id,
          label: id === "none" ? "None" : storageById(id).title,
          hint:
            id === (c.orm.id ?? "none")
              ? `detected: ${c.orm.reason}`
              : id === "none"
                ? "an adapter written for you over the database driver"
                : storageById(id).hint,
        })),
      initial: (c: InitQuestionContext) => c.orm.id ?? "none",
    },
  },
  providers: {
    flag: "--providers <list>",
    description: `comma list of providers: ${providerNames.join(", ")}, or any of the ${builtinProviders.length} built-ins of Auth.js (github, google…; see create-auth add-provider --list) (default with --yes: credentials)`,
    schema: commaList().optional(),
    expects: `a comma list of providers such as github,google,email (${providerNames.join(", ")} or any of create-auth add-provider --list)`,
    fallback: ["credentials"],
    question: {
      message: "Sign-in providers (--providers; space to choose, enter to confirm)",
      multiple: true,
      choices: (c: InitQuestionContext) => [
        ...kindCatalog
          .filter((k) => !c.nextAuthV4 || k.nextAuthV4)
          .map((k) => ({ value: k.kind, label: k.title, hint: k.description })),
        ...popularBuiltins
          .filter((p) => !c.nextAuthV4 || nextAuthV4Providers.has(p.module))
          .map((p) => ({ value: p.module, label: p.name, hint: `Auth.js built-in (${p.type})` })),
      ],
      initial: () => ["credentials"],
      more: {
        label: "Another built-in provider…",
        choices: (c: InitQuestionContext) =>
          byPopularity(generatedBuiltins)
            .filter((p) => p.popular === undefined && (!c.nextAuthV4 || nextAuthV4Providers.has(p.module)))
            .map((p) => ({ value: p.module, label: p.name, hint: p.module })),
      },
    },
  },
  // What a provider of --providers needs (keycloak's --issuer, oidc's --id...), as add-provider takes it.
  ...providerFlagRows,
  backend: {
    flag: "--backend <name>",
    description: `the adapter's store: ${backends.join(", ")} (default: sqlite, embedded)`,
    schema: z.enum(backends).optional(),
    expects: backends.join(", "),
    fallback: "sqlite",
    question: {
      message: "Database adapter (--backend)",
      choices: () => backends.map((b) => ({ value: b, label: b, hint: storageById(b).hint })),
      initial: () => "sqlite",
    },
  },
  schema: {
    flag: "--schema <flavour>",
    description: `entity schema: ${schemaFlavours.join(", ")} (default: sql)`,
    schema: z.enum(schemaFlavours).optional(),
    expects: schemaFlavours.join(", "),
    fallback: "sql",
    question: {
      message: "Entity schema flavour (--schema)",
      // Prisma and Drizzle schemas mean their ORM: after "none" to the ORM question they are not offered.
      choices: (c: InitQuestionContext) =>
        choice(c.orm.chosen === "none" ? schemaFlavours.filter((f) => !orms.includes(f)) : schemaFlavours),
      initial: () => "sql",
    },
  },
  dialect: {
    flag: "--dialect <name>",
    description: `SQL dialect of the schema: ${dialects.join(", ")} (default: the backend's; memory and skeleton: sqlite)`,
    schema: z.enum(dialects).optional(),
    expects: dialects.join(", "),
  },
  session: {
    flag: "--session <strategy>",
    description: "jwt or database (default: jwt)",
    schema: z.enum(["jwt", "database"]).optional(),
    expects: "jwt or database",
    fallback: "jwt",
    question: {
      message: "Session strategy (--session)",
      choices: (c: InitQuestionContext) =>
        signsInWithPassword(c.answers.providers)
          ? choice(["jwt"], { jwt: "a signed cookie: the one kind password sign-in has" })
          : choice(["jwt", "database"], { jwt: "a signed cookie (default)", database: "stored through the adapter" }),
      initial: () => "jwt",
    },
  },
  // Asked after the providers, and only when one of them signs in through OAuth (init.ts).
  ...tokenOptionRows,
  // Asked after the providers, and only when one of them is credentials (init.ts).
  twoFactor: {
    flag: "--two-factor <method>",
    description:
      "with the credentials provider: totp asks for a code from an authenticator app after the password (enrolment and recovery codes at /two-factor); none (default) asks for none",
    schema: z.enum(twoFactorMethods).optional(),
    expects: twoFactorMethods.join(" or "),
  },
  tablePrefix: {
    flag: "--table-prefix <prefix>",
    description: "with --orm: give the auth tables names of their own, e.g. auth_",
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/)
      .optional(),
    expects: "letters, digits and _ (e.g. auth_)",
  },
  protect: {
    flag: "--protect <paths>",
    description:
      "comma list of paths whose visitors are sent to sign in first (by the framework's middleware), e.g. /dashboard/:path*",
    schema: pathList.optional(),
    expects: 'a comma list of paths starting with "/", e.g. /dashboard/:path*',
  },
  yes: {
    flag: "-y, --yes",
    description: "take the defaults for every question not answered by a flag",
    schema: z.boolean().default(false),
  },
  install: { flag: "--no-install", description: "do not install the dependencies", schema: z.boolean().default(true) },
  packageManager: packageManagerOption,
  force: {
    flag: "--force",
    description:
      "replace generated files that already exist (package.json, .gitignore and .env files are always merged)",
    schema: z.boolean().default(false),
  },
  dryRun: {
    flag: "--dry-run",
    description: "print every file and change as a diff and write nothing",
    schema: z.boolean().default(false),
  },
});

/** The options a CI run must give (or take with --yes): the asked ones that have a --yes answer. */
export const requiredInCi = initOptions.asked.filter((k) => initOptions.fallbacks[k] !== undefined);
