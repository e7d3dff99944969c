/**
 * `create-auth init`: set up auth in a project — the auth config with the
 * chosen providers, the storage's adapter and schema, the framework's
 * wiring, env files, package.json and tsconfig — then install. The project
 * is read once (framework, ORM), the answers completed from flags, --yes,
 * prompts or an error, everything planned and applied once
 * (src/workspace/plan.ts); a file that exists is left alone (or merged:
 * package.json, .gitignore, .env files) unless --force.
 */
import { relative, resolve } from "node:path";
import type { Command } from "commander";
import {
  type AnyParsedProvider,
  missingFor,
  optionsFor,
  parseResolved,
  type ResolvedName,
  resolveProviderName,
  withEmailService,
} from "../families/index.js";
import { type TwoFactorMethod, twoFactorOption } from "../families/two-factor.js";
import { chosenFramework, type FrameworkDetection } from "../frameworks/registry.js";
import type { OptionRow } from "../lib/command-options.js";
import { CliError, ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { toFlag } from "../lib/options.js";
import type { InitPlan } from "../planners/init-request.js";
import type { AuthSetup } from "../workspace/auth-setup/index.js";
import { detectPackageManager } from "../workspace/package-manager.js";
import { providerFlagKeys } from "./add-provider-options.js";
import { appProject, checkDir, conflicts } from "./init-checks.js";
import { type InitQuestionContext, initOptions, requiredInCi } from "./init-options.js";
import { nextSteps, reportPlan } from "./init-report.js";
import { chooseStorage, keptStorage, runAfterInstall } from "./init-storage.js";
import { installDependencies } from "./install.js";

export type InitInput = Record<string, unknown>;
type Options = ReturnType<typeof initOptions.parse>;

/**
 * What flags did not give: the --yes answers, else in a terminal the
 * questions (the framework among them, detection preselected), else an
 * error naming the flags. Returns only the values it adds.
 */
async function complete(
  given: Record<string, unknown>,
  options: Options,
  io: Io,
  context: InitQuestionContext,
  introShown: boolean,
): Promise<Record<string, unknown>> {
  const unanswered = (k: string) => given[k] === undefined;
  if (options.yes) return Object.fromEntries(Object.entries(initOptions.fallbacks).filter(([k]) => unanswered(k)));
  const missing = requiredInCi.filter(unanswered);
  if (missing.length === 0) return {};
  if (!io.interactive) {
    const example = requiredInCi.map((k) => `--${k} ${[initOptions.fallbacks[k]].flat().join(",")}`);
    throw new UsageError(
      `init needs ${missing.map((k) => `--${k}`).join(", ")} (no terminal to ask in), or --yes for the defaults.`,
      `Example: create-auth init ${example.join(" ")}`,
    );
  }
  const { askQuestions, intro } = await import("../prompts/questions.js");
  if (!introShown) intro("create-auth init");
  const rows = initOptions.rows as Record<string, OptionRow>;
  const asked = initOptions.asked.filter((k) => k !== "orm" && unanswered(k));
  return askQuestions(
    asked.map((key) => ({ key, question: rows[key]!.question! })),
    context,
  );
}

/** Whether version `have` ("20.20.2") is below `need` ("22.12"). */
export function olderNode(have: string, need: string): boolean {
  const [a, b] = [have, need].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if ((a![i] ?? 0) !== (b![i] ?? 0)) return (a![i] ?? 0) < (b![i] ?? 0);
  return false;
}

/**
 * Beside an app's own adapter nothing about storage is asked: the questions
 * are answered as --yes answers them (the answers choose nothing), the session
 * strategy among them, which only a --session given changes in the app's config.
 */
const keptAnswers = (input: Readonly<Record<string, unknown>>) => ({
  backend: initOptions.fallbacks.backend,
  schema: initOptions.fallbacks.schema,
  session: input.session ?? initOptions.fallbacks.session,
});

const stripUndefined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * Each provider with its options: the provider flags given (each goes to the
 * one provider of --providers that takes it), then in a terminal the
 * questions for what they left out; under --yes or in CI what is still
 * needed is one usage error naming the flags.
 */
async function parsedProviders(
  named: Map<string, ResolvedName>,
  flags: Record<string, unknown>,
  ask: boolean,
): Promise<AnyParsedProvider[]> {
  const given = Object.fromEntries(providerFlagKeys.flatMap((k) => (flags[k] === undefined ? [] : [[k, flags[k]]])));
  const wanted = [...named].map(([name, resolved]) => {
    const takes = new Set(optionsFor(resolved).map((o) => o.key));
    return { name, resolved, takes };
  });
  // Each flag goes to the one provider that takes it; of several, to the one that cannot do without it (oidc's --id beside credentials').
  const owner = new Map<string, string>();
  for (const key of Object.keys(given)) {
    const flag = toFlag(key);
    let takers = wanted.filter((w) => w.takes.has(key));
    if (takers.length > 1) {
      const needing = takers.filter((w) => missingFor(w.resolved, {}).some((o) => o.key === key));
      if (needing.length === 1) takers = needing;
    }
    if (takers.length === 0)
      throw new UsageError(
        `${flag}: none of --providers (${[...named.keys()].join(", ")}) takes it; see create-auth add-provider --list.`,
      );
    const names = takers.map((w) => w.name);
    if (takers.length > 1)
      throw new UsageError(
        `${flag}: ${names.length === 2 ? `${names.join(" and ")} both` : `${names.join(", ")} all`} take it, so init cannot tell whose it is; set up ${names[0]} here and add ${names.slice(1).join(", ")} afterwards with create-auth add-provider.`,
      );
    owner.set(key, names[0]!);
  }
  const completed = wanted.map(({ name, resolved }) => ({
    name,
    ...withEmailService(resolved, Object.fromEntries(Object.entries(given).filter(([k]) => owner.get(k) === name))),
  }));
  const needy = completed.filter((c) => missingFor(c.resolved, c.given).length > 0);
  if (needy.length && !ask) {
    const missing = needy.map((c) => ({ name: c.name, flags: missingFor(c.resolved, c.given).map((o) => o.flag) }));
    const one = missing.length === 1 && missing[0]!.flags.length === 1;
    throw new UsageError(
      `--providers: ${missing.map((m) => `${m.name} needs ${m.flags.join(", ")}`).join("; ")} (no terminal to ask in); pass ${one ? "it" : "them"} beside --providers, as create-auth add-provider takes ${one ? "it" : "them"}.`,
    );
  }
  const { askRows } = ask && needy.length ? await import("../prompts/questions.js") : { askRows: undefined };
  const result: AnyParsedProvider[] = [];
  for (const { resolved, given: own } of completed) {
    const needed = missingFor(resolved, own);
    result.push(parseResolved(resolved, askRows && needed.length ? { ...own, ...(await askRows(needed)) } : own));
  }
  return result;
}

/**
 * --two-factor, or in a terminal the question, for the credentials provider: its option says whether
 * authorize() asks for a code after the password. Refused where nothing would ask for one.
 */
async function chooseTwoFactor(
  providers: AnyParsedProvider[],
  given: TwoFactorMethod | undefined,
  context: { ask: boolean; v4: boolean },
): Promise<void> {
  const credentials = providers.find((p) => p.kind === "credentials");
  if (given === "totp" && !credentials)
    throw new UsageError("--two-factor totp: it asks for a code after a password; add credentials to --providers.");
  if (given === "totp" && context.v4)
    throw new UsageError(
      "--two-factor totp: the generated two-factor sign-in needs next-auth v5; run create-auth upgrade first. Nothing was written.",
    );
  if (!credentials) return;
  let method = given;
  if (method === undefined && context.ask && !context.v4) {
    const { askRows } = await import("../prompts/questions.js");
    method = (await askRows([{ ...twoFactorOption, description: "Two-factor sign-in after the password" }]))
      .twoFactor as TwoFactorMethod;
  }
  (credentials.options as { twoFactor: TwoFactorMethod }).twoFactor = method ?? "none";
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

/**
 * A next-auth v4 project gets no v5 code. Its setup (the module holding
 * `authOptions`) when init is to add to it; undefined when the project is not
 * on v4. In a terminal init offers the upgrade first ("upgrade" when chosen);
 * with --yes or without a terminal one line names it.
 */
async function nextAuthV4Setup(
  root: string,
  detected: FrameworkDetection,
  options: Options,
  io: Io,
): Promise<AuthSetup | "upgrade" | undefined> {
  const { runsNextAuthV4 } = await import("../planners/provider-plan.js");
  if (!runsNextAuthV4(root, detected.framework)) return undefined;
  const { detectPackageVersion } = await import("../workspace/package-version.js");
  const version = detectPackageVersion(root, "next-auth")?.version ?? "4";
  const { findAuthSetup } = await import("../ast/setup/find.js");
  const setup = await findAuthSetup(root, { root }).catch((error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(
      `This project has next-auth ${version} (v4), and init writes v4 only into an existing authOptions: ${error.message}`,
      "To start on next-auth v5 instead, install it first: npm install next-auth@5.0.0-beta.32",
    );
  });
  if (options.protect)
    throw new UsageError(
      `--protect writes next-auth v5's middleware; with next-auth ${version} protect pages with withAuth from next-auth/middleware, or upgrade first: create-auth upgrade.`,
    );
  if (io.interactive && !options.yes) {
    const { askNextAuthV4 } = await import("../prompts/questions.js");
    if ((await askNextAuthV4(version)) === "upgrade") return "upgrade";
  } else
    io.out.write(
      `note: next-auth ${version} (v4): init adds only what v4 can use to your authOptions; to move to v5 first, run create-auth upgrade.\n`,
    );
  return setup;
}

export async function runInit(input: InitInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = initOptions.parse(input);
  checkDir(resolve(io.cwd, options.dir), options.dir);
  const { root, project, detected } = appProject(resolve(io.cwd, options.dir), options.framework, io);
  const v4 = await nextAuthV4Setup(root, detected, options, io);
  if (v4 === "upgrade") {
    const { runUpgrade } = await import("./upgrade.js");
    const code = await runUpgrade({ install: options.install }, { ...io, cwd: root });
    if (code === ExitCode.ok)
      io.out.write("\nnext-auth v5 is set up; run create-auth init again to add storage and providers to it.\n");
    return code;
  }
  const kept = await keptStorage(root, project, detected, v4, input);
  const storage = await chooseStorage(kept ? { ...options, orm: "none" } : options, io, project);
  // Raw input: options parsed twice would transform twice (--protect's list).
  const given = { ...stripUndefined(input), ...storage.implied, ...(kept ? keptAnswers(input) : {}) };
  const added = await complete(
    given,
    options,
    io,
    {
      framework: { id: detected.framework.id, reason: detected.reason },
      orm: { id: storage.detected.storage?.id, reason: storage.detected.reason, chosen: storage.choice },
      nextAuthV4: v4 !== undefined,
      answers: given,
    },
    storage.asked,
  );
  // Every asked option has an answer now: a flag, --yes's, a prompt's, or complete() refused.
  const done = initOptions.parse({ ...given, ...added }) as Options &
    Required<Pick<Options, "providers" | "backend" | "schema" | "session">>;
  const framework =
    done.framework === undefined || done.framework === detected.framework.id
      ? detected
      : chosenFramework(project, done.framework);
  if (options.protect && !framework.framework.protects)
    throw new UsageError(
      `--protect: create-auth does not protect pages in ${framework.framework.title} yet; protect them in your own code with the session (https://authjs.dev/getting-started/session-management/protecting).`,
    );
  // In v4 the user's providers stay as they are: --yes adds none unless --providers names some.
  const named = resolveProviders(
    v4 && options.yes && input.providers === undefined ? [] : (done.providers as string[]),
  );
  conflicts({ backend: done.backend, dialect: options.dialect, session: done.session, kinds: [...named.keys()] });
  const providers = await parsedProviders(named, input, io.interactive && !options.yes);
  const { askTokens, checkTokenSupport, withTokens } = await import("./token-support.js");
  // Tokens are asked of the providers that sign in through OAuth; email, passwords and passkeys have none.
  const tokenProviders = withTokens(providers);
  const tokens = await askTokens(
    tokenProviders,
    { refresh: done.refreshTokens, federatedLogout: done.federatedLogout },
    io.interactive && !options.yes && !v4,
  );
  if (v4 && (tokens.refresh || tokens.federatedLogout))
    throw new UsageError(
      `${tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: the generated token rotation needs next-auth v5; run create-auth upgrade first. Nothing was written.`,
    );
  if ((tokens.refresh || tokens.federatedLogout) && tokenProviders.length === 0)
    throw new UsageError(
      `${tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: none of --providers signs in through OAuth (github, google, oidc…); nothing was written.`,
    );
  const tokenNotes = await checkTokenSupport(tokenProviders, tokens);
  await chooseTwoFactor(providers, done.twoFactor, { ask: io.interactive && !options.yes, v4: v4 !== undefined });

  const [{ planInit }, { applyPlan }, { withProjectLock }] = await Promise.all([
    import("../planners/init-plan.js"),
    import("../workspace/plan.js"),
    import("../workspace/lock.js"),
  ]);
  const manager = options.packageManager ?? detectPackageManager(root, io.env).manager;
  // Planned and applied under the project's lock, so a parallel run's edit is read, not overwritten.
  const plan: InitPlan | undefined = await withProjectLock(root, async () => {
    const planned = v4
      ? await (await import("../planners/init-v4-plan.js")).planInitV4({
          root,
          setup: v4,
          providers,
          session: done.session,
          force: options.force,
          framework,
          storage: storage.resolve(done.backend, done.schema, options.dialect),
          kept,
          sessionGiven: input.session !== undefined,
          packageManager: manager,
        })
      : await planInit({
          root,
          project,
          providers,
          session: done.session,
          force: options.force,
          framework,
          storage: storage.resolve(done.backend, done.schema, options.dialect),
          kept,
          protect: options.protect,
          packageManager: manager,
          tokens: tokens.refresh || tokens.federatedLogout ? tokens : undefined,
          postLogoutRedirectUri: tokens.federatedLogout
            ? (await import("./token-support.js")).postLogoutRedirectUri(
                undefined,
                io.env,
                framework.framework.app.port,
              )
            : undefined,
        });
    planned.notices.unshift(...tokenNotes);
    if (options.dryRun) {
      io.out.write(await reportPlan(planned, root, true));
      return undefined;
    }
    applyPlan(planned.changes);
    return planned;
  });
  if (!plan) return ExitCode.ok;
  io.out.write(await reportPlan(plan, root, false));
  const needs = framework.framework.minimumNodeFor?.(framework.facts) ?? framework.framework.minimumNode;
  if (needs && olderNode(process.versions.node, needs))
    io.out.write(
      `note: ${framework.framework.title} needs Node.js ${needs} or later to build and run; this is Node.js ${process.versions.node}.\n`,
    );
  if (options.install) await installDependencies(root, options.packageManager, io);
  if (options.install) await runAfterInstall(plan, root, io);
  // The embedded database needs no server: its tables are created now (again: a no-op), once its driver is installed.
  const tablesReady = options.install && plan.storage.embedded && plan.storage.schemaPath !== undefined;
  if (tablesReady) {
    const { applySchema } = await import("../storage/sql/migrate.js");
    const result = await applySchema(root, plan.storage.schemaPath!, io.env, plan.framework.envOrder).catch(
      (error: unknown) => {
        throw new CliError(
          `The files are written and installed, but the auth tables could not be created: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
          { exitCode: ExitCode.failed, hint: "Fix that, then run: npm run db:migrate" },
        );
      },
    );
    io.out.write(`Auth tables ready in ${relative(root, result.target) || result.target}.\n`);
  }
  await nextSteps(plan, io, { installed: options.install, root, tablesReady });
  return ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  const fallback = (k: keyof typeof initOptions.fallbacks) => [initOptions.fallbacks[k]].flat().join(",");
  initOptions
    .configure(command)
    .addHelpText(
      "after",
      `
Defaults with --yes: ${requiredInCi.map((k) => `--${k} ${fallback(k)}`).join(" ")}.
A provider's own flags (--issuer, --id, --well-known… as create-auth add-provider takes them)
go beside --providers, each to the one provider that takes it; under --yes or in CI, one a
provider needs and was not given is an error naming it.
Conflicts: --dialect must match a database backend (sqlite, postgres, mysql); --session database
does not go with credentials (Auth.js keeps password sign-ins in JWT sessions only). With --orm prisma or drizzle (detected from the
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
  $ create-auth init --yes --providers google,credentials --refresh-tokens
  $ create-auth init --yes --providers credentials --two-factor totp
  $ create-auth init --yes --providers microsoft-entra-id --refresh-tokens --federated-logout
  $ create-auth init --yes --providers keycloak --issuer https://sso.example.com/realms/main --refresh-tokens --federated-logout
  $ create-auth init --yes --providers oidc,github --id corp --issuer https://login.corp.example

In a terminal, questions ask what flags did not give; in CI (CI=true) or without a
terminal, a missing answer is an error naming the flags (or pass --yes).
In a next-auth v4 project init writes no v5 code: it offers create-auth upgrade first,
else adds the adapter, schema and v4's own providers to your authOptions.
Exit codes: 0 set up (or already set up), 1 the install or creating the SQLite tables failed (files were written),
2 usage error (nothing written), 130 cancelled at a prompt (nothing written).`,
    )
    .action(async (folder: string | undefined, flags: Record<string, unknown>) => {
      if (folder !== undefined && flags.dir !== undefined && folder !== flags.dir) {
        throw new UsageError(`Two project folders given: ${folder} and --dir ${String(flags.dir)}; pass one.`);
      }
      setExitCode(await runInit({ ...flags, dir: folder ?? flags.dir }, io));
    });
}
