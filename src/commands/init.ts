/**
 * `create-auth init`: set up auth in a project — the auth config with the
 * chosen providers, an adapter for the chosen backend and its entity schema,
 * env files, package.json and tsconfig — then install. Everything is planned
 * first and applied once (src/workspace/plan.ts); a file that exists is left
 * alone (or merged: package.json, .gitignore, .env files) unless --force.
 */
import { relative, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { backendEntry, backendHints, backends, dialectOf } from "../backends/index.js";
import { dialects, schemaFlavours } from "../catalog/backends.js";
import { builtinProviders, byPopularity, generatedBuiltins } from "../catalog/builtin-providers.js";
import {
  type AnyParsedProvider,
  missingFor,
  parseResolved,
  type ResolvedName,
  resolveProviderName,
} from "../families/index.js";
import { kindCatalog } from "../families/registry.js";
import { type Framework, frameworkCatalog, frameworks } from "../frameworks/index.js";
import type { InitPlan } from "../generators/init.js";
import { CliError, ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { parseOptions } from "../lib/options.js";
import { orms } from "../orms/orm.js";
import { detectFramework, type FrameworkFacts } from "../workspace/framework.js";
import { installDependencies, packageManagers } from "../workspace/package-manager.js";
import { checkDir, conflicts } from "./init-checks.js";
import { chooseOrm, runAfterInstall } from "./init-orm.js";
import { nextSteps, reportPlan } from "./init-report.js";

const providerNames = kindCatalog.flatMap((k) => [k.kind, ...(k.aliases ?? [])]);
/** The prompt's short list: the kinds, then the most asked-for built-ins; a search covers the rest. */
const popularBuiltins = byPopularity(generatedBuiltins).filter((p) => p.popular !== undefined);

export const initOptions = z.object({
  dir: z.string().min(1).default("."),
  /** A comma list on the command line, an array from prompts and tests. */
  providers: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (typeof v === "string" ? v.split(",") : v).map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.length > 0)
    .optional(),
  backend: z.enum(backends).optional(),
  schema: z.enum(schemaFlavours).optional(),
  dialect: z.enum(dialects).optional(),
  session: z.enum(["jwt", "database"]).optional(),
  framework: z.enum(frameworks).optional(),
  orm: z.enum(orms).optional(),
  /** Prefix of the auth tables' names, where the usual ones are taken. */
  tablePrefix: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/)
    .optional(),
  /** Next.js: a comma list of path matchers the proxy/middleware protects. */
  protect: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0 && list.every((m) => m.startsWith("/")))
    .optional(),
  yes: z.boolean().default(false),
  install: z.boolean().default(true),
  packageManager: z.enum(packageManagers).optional(),
  force: z.boolean().default(false),
  dryRun: z.boolean().default(false),
});

export type InitInput = z.input<typeof initOptions>;

/** The documented --yes answers (README, --help). */
export const defaults = { providers: ["credentials"], backend: "sqlite", schema: "sql", session: "jwt" } as const;

const expectations = {
  providers: `a comma list of providers such as github,google,email (${providerNames.join(", ")} or any of create-auth add-provider --list)`,
  backend: backends.join(", "),
  schema: schemaFlavours.join(", "),
  dialect: dialects.join(", "),
  session: "jwt or database",
  framework: frameworks.join(", "),
  orm: orms.join(", "),
  tablePrefix: "letters, digits and _ (e.g. auth_)",
  protect: 'a comma list of paths starting with "/", e.g. /dashboard/:path*',
  packageManager: packageManagers.join(", "),
};

type Options = z.output<typeof initOptions>;

/**
 * Fills in what flags did not give: defaults under --yes, prompts in a
 * terminal, else an error naming the flags. The framework is a fact of the
 * project, not a choice: detected unless --framework, and asked (detection
 * preselected) only among the other questions.
 */
async function complete(options: Options, io: Io, facts: FrameworkFacts, introShown: boolean) {
  const detected = { framework: options.framework ?? facts.framework };
  const given = {
    providers: options.providers,
    backend: options.backend,
    schema: options.schema,
    session: options.session,
  };
  const missing = (Object.keys(given) as (keyof typeof given)[]).filter((k) => given[k] === undefined);
  if (options.yes)
    return {
      ...defaults,
      ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
      ...detected,
    } as typeof defaults & typeof given & typeof detected;
  if (missing.length === 0) return { ...given, ...detected } as Required<typeof given> & typeof detected;
  if (!io.interactive) {
    throw new UsageError(
      `init needs ${missing.map((k) => `--${k}`).join(", ")} (no terminal to ask in), or --yes for the defaults.`,
      `Example: create-auth init --providers ${defaults.providers.join(",")} --backend ${defaults.backend} --schema ${defaults.schema} --session ${defaults.session}`,
    );
  }
  const { askInit, intro } = await import("../prompts/init.js");
  if (!introShown) intro();
  const choice = (values: readonly string[], hints: Record<string, string> = {}) =>
    values.map((v) => ({ value: v, label: v, hint: hints[v] }));
  const answers = await askInit({
    framework: options.framework
      ? undefined
      : {
          choices: frameworks.map((f) => ({
            value: f,
            label: frameworkCatalog[f].title,
            hint: f === facts.framework ? `detected: ${facts.reason}` : undefined,
          })),
          initial: facts.framework,
        },
    providers: given.providers
      ? undefined
      : {
          choices: [
            ...kindCatalog.map((k) => ({ value: k.kind, label: k.title, hint: k.description })),
            ...popularBuiltins.map((p) => ({ value: p.module, label: p.name, hint: `Auth.js built-in (${p.type})` })),
          ],
          more: byPopularity(generatedBuiltins)
            .filter((p) => p.popular === undefined)
            .map((p) => ({ value: p.module, label: p.name, hint: p.module })),
          initial: [...defaults.providers],
        },
    backend: given.backend
      ? undefined
      : {
          choices: choice(backends, backendHints()),
          initial: defaults.backend,
        },
    schema: given.schema ? undefined : { choices: choice(schemaFlavours), initial: defaults.schema },
    session: given.session
      ? undefined
      : {
          choices: choice(["jwt", "database"], {
            jwt: "a signed cookie (default)",
            database: "stored through the adapter",
          }),
          initial: defaults.session,
        },
  });
  return { ...given, ...detected, ...answers } as Required<typeof given> & { framework: Framework };
}

/** Each provider with its options: none needed under --yes or in CI, asked in a terminal. */
async function parsedProviders(named: Map<string, ResolvedName>, ask: boolean): Promise<AnyParsedProvider[]> {
  const needy = [...named].filter(([, r]) => missingFor(r, {}).length > 0).map(([name]) => name);
  if (needy.length && !ask) {
    const free = kindCatalog.filter((k) => missingFor({ kind: k.kind }, {}).length === 0).map((k) => k.kind);
    throw new UsageError(
      `--providers: ${needy.join(", ")} need options that init asks only in a terminal (not with --yes or in CI); use ${free.join(", ")} or a built-in such as github here and add ${needy.join(", ")} afterwards with create-auth add-provider.`,
    );
  }
  const { askOptions } = ask && needy.length ? await import("../prompts/add-provider.js") : { askOptions: undefined };
  const result: AnyParsedProvider[] = [];
  for (const resolved of named.values()) {
    const needed = missingFor(resolved, {});
    result.push(parseResolved(resolved, askOptions && needed.length ? await askOptions(needed) : {}));
  }
  return result;
}

/** Names to providers, each once ("passkey" and "webauthn" are one); an unknown name is a usage error with a suggestion. */
function resolveProviders(names: string[]): Map<string, ResolvedName> {
  const named = new Map<string, ResolvedName>();
  for (const name of names) {
    let resolved: ResolvedName;
    try {
      resolved = resolveProviderName(name);
    } catch (error) {
      // One line: the suggestion is enough here.
      throw error instanceof UsageError ? new UsageError(`--providers: ${error.message}`) : error;
    }
    const key = resolved.kind ?? resolved.builtin.module;
    if (!named.has(key)) named.set(key, resolved);
  }
  return named;
}

export async function runInit(input: InitInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = parseOptions(initOptions, input, expectations);
  const root = resolve(io.cwd, options.dir);
  checkDir(root, options.dir);
  const facts = detectFramework(root);
  if (options.protect && (options.framework ?? facts.framework) !== "next")
    throw new UsageError(
      `--protect is for Next.js (its proxy/middleware); this project is ${frameworkCatalog[options.framework ?? facts.framework].title}.`,
    );
  const chosen = await chooseOrm(options, io, root);
  const answers = await complete({ ...options, ...chosen.implied }, io, facts, chosen.asked);
  const framework = answers.framework as Framework;
  const parsed = parseOptions(
    initOptions.pick({ providers: true, backend: true, schema: true, session: true }).required(),
    answers,
    expectations,
  );
  const named = resolveProviders(parsed.providers);
  conflicts({ backend: parsed.backend, dialect: options.dialect, session: parsed.session, kinds: [...named.keys()] });
  const providers = await parsedProviders(named, io.interactive && !options.yes);

  const [{ planInit }, { applyPlan }, { withProjectLock }] = await Promise.all([
    import("../generators/init.js"),
    import("../workspace/plan.js"),
    import("../workspace/lock.js"),
  ]);
  // Planned and applied under the project's lock, so a parallel run's edit is read, not overwritten.
  const plan: InitPlan | undefined = await withProjectLock(root, async () => {
    const planned = await planInit({
      root,
      providers,
      backend: parsed.backend,
      schema: parsed.schema,
      session: parsed.session,
      dialect: options.dialect ?? dialectOf(parsed.backend) ?? "sqlite",
      force: options.force,
      framework,
      facts,
      protect: options.protect,
      orm: chosen.orm,
      ormFacts: chosen.facts,
      tablePrefix: options.tablePrefix,
    });
    if (options.dryRun) {
      io.out.write(await reportPlan(planned, root, true));
      return undefined;
    }
    applyPlan(planned.changes);
    return planned;
  });
  if (!plan) return ExitCode.ok;
  io.out.write(await reportPlan(plan, root, false));
  if (options.install) await installDependencies(root, options.packageManager, io);
  if (options.install) await runAfterInstall(plan, root, io);
  // The embedded database needs no server: its tables are created now (again: a no-op), once its driver is installed.
  const tablesReady =
    options.install && !plan.orm && backendEntry(parsed.backend).embedded === true && plan.schemaPath !== undefined;
  if (tablesReady) {
    const { applySchema } = await import("../workspace/migrate.js");
    const result = await applySchema(root, plan.schemaPath!, io.env).catch((error: unknown) => {
      throw new CliError(
        `The files are written and installed, but the auth tables could not be created: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        { exitCode: ExitCode.failed, hint: "Fix that, then run: npm run db:migrate" },
      );
    });
    io.out.write(`Auth tables ready in ${relative(root, result.target) || result.target}.\n`);
  }
  await nextSteps(plan, io, { installed: options.install, root, tablesReady });
  return ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  command
    .argument("[dir]", "the project to set up, as --dir")
    .option("--dir <path>", "the project to set up (created when absent)")
    .option(
      "--providers <list>",
      `comma list of providers: ${providerNames.join(", ")}, or any of the ${builtinProviders.length} built-ins of Auth.js (github, google…; see create-auth add-provider --list) (default with --yes: ${defaults.providers.join(",")})`,
    )
    .option("--backend <name>", `the adapter's store: ${backends.join(", ")} (default: ${defaults.backend}, embedded)`)
    .option("--schema <flavour>", `entity schema: ${schemaFlavours.join(", ")} (default: ${defaults.schema})`)
    .option(
      "--dialect <name>",
      `SQL dialect of the schema: ${dialects.join(", ")} (default: the backend's; memory and skeleton: sqlite)`,
    )
    .option(
      "--orm <name>",
      `${orms.join(", ")}: the ORM the adapter goes through (default: the project's, detected from schema.prisma, drizzle.config and package.json; none writes an adapter over the driver)`,
    )
    .option("--table-prefix <prefix>", "with --orm: give the auth tables names of their own, e.g. auth_")
    .option("--session <strategy>", `jwt or database (default: ${defaults.session})`)
    .option(
      "--framework <name>",
      `wire sign-in into ${frameworks.join(", ")} (default: detected from package.json and files; none writes a framework-neutral config)`,
    )
    .option(
      "--protect <paths>",
      "Next.js: comma list of paths the proxy/middleware signs visitors in for, e.g. /dashboard/:path*",
    )
    .option("-y, --yes", "take the defaults for every question not answered by a flag")
    .option("--no-install", "do not install the dependencies")
    .option(
      "--package-manager <name>",
      `${packageManagers.join(", ")} (default: from the lockfile, else the one running create-auth, else npm)`,
    )
    .option(
      "--force",
      "replace generated files that already exist (package.json, .gitignore and .env files are always merged)",
    )
    .option("--dry-run", "print every file and change as a diff and write nothing")
    .addHelpText(
      "after",
      `
Defaults with --yes: --providers ${defaults.providers.join(",")} --backend ${defaults.backend} --schema ${defaults.schema} --session ${defaults.session}.
Under --yes or in CI, --providers takes only kinds that need no options (email, credentials,
webauthn/passkey, social); add oauth and oidc afterwards with create-auth add-provider.
Conflicts: --dialect must match a database backend (sqlite, postgres, mysql); --session database
needs a provider other than credentials. With --orm prisma or drizzle (detected from the
project), the auth models go into your schema and the official adapter uses your client;
--backend memory or skeleton means no ORM.

Examples:
  $ npm create auth init -- --yes
  $ create-auth init --yes
  $ create-auth init --yes --providers github,google,email
  $ create-auth init --providers email,passkey --backend postgres --schema drizzle --session database
  $ create-auth init --dir my-app --yes --backend memory --no-install
  $ create-auth init ./my-app --yes
  $ create-auth init --yes --dry-run
  $ create-auth init --yes --framework next --protect "/dashboard/:path*"
  $ create-auth init --yes --orm prisma --providers email --session database

In a terminal, questions ask what flags did not give; in CI (CI=true) or without a
terminal, a missing answer is an error naming the flags (or pass --yes).
Exit codes: 0 set up (or already set up), 1 the install or creating the SQLite tables failed (files were written),
2 usage error (nothing written), 130 cancelled at a prompt (nothing written).`,
    )
    .action(async (dir: string | undefined, flags: Record<string, unknown>) => {
      if (dir !== undefined && flags.dir !== undefined && dir !== flags.dir) {
        throw new UsageError(`Two project folders given: ${dir} and --dir ${String(flags.dir)}; pass one.`);
      }
      setExitCode(await runInit({ ...flags, dir: dir ?? flags.dir } as InitInput, io));
    });
}
