/**
 * `create-auth add-provider <kind>`: generate a provider module, add it to
 * the user's auth config (§2.1–2.8), the variables it reads to the env
 * files and the packages it imports to package.json, then install them.
 * Everything is planned first; nothing is written on a refusal, an error or
 * --dry-run.
 */
import { relative } from "node:path";
import type { Command } from "commander";
import type { z } from "zod";
import { tokensAsked } from "../families/family.js";
import {
  missingFor,
  parseResolved,
  questionsFor,
  type ResolvedName,
  resolveProviderName,
  withEmailService,
} from "../families/index.js";
import { detectFramework } from "../frameworks/registry.js";
import { CliError, ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { fillInSteps } from "../render/project-env.js";
import { withProjectLock } from "../workspace/lock.js";
import { detectPackageManager, installCommand } from "../workspace/package-manager.js";
import { applyPlan, renderDiff } from "../workspace/plan.js";
import { callbackUrl, describeEmailSupport } from "../workspace/project.js";
import { ProjectView } from "../workspace/project-view.js";
import { addProviderOptions, providerFlagKeys } from "./add-provider-options.js";

/** The command's options, and the provider's own flags by key (--api-version is apiVersion). */
export type AddProviderInput = z.input<typeof addProviderOptions.schema> & { [providerFlag: string]: unknown };

/**
 * Flags the provider needs that were not given, and choices worth asking:
 * asked in a terminal; elsewhere a needed one is a one-line usage error.
 */
async function completeOptions(
  name: string,
  resolved: ResolvedName,
  given: Record<string, unknown>,
  io: Io,
): Promise<Record<string, unknown>> {
  const missing = missingFor(resolved, given);
  if (io.interactive) {
    const asked = questionsFor(resolved, given);
    if (asked.length === 0) return given;
    const { askRows } = await import("../prompts/questions.js");
    return { ...given, ...(await askRows(asked)) };
  }
  if (missing.length > 0) {
    throw new UsageError(
      `add-provider ${name} needs ${missing.map((o) => o.flag.split(" ")[0]).join(", ")}.`,
      `Pass ${missing.map((o) => o.flag).join(" ")} (no terminal to ask in).`,
    );
  }
  return given;
}

/** The provider, asked from its row of the table in a terminal; elsewhere its absence is a usage error. */
async function askProvider(io: Io): Promise<string> {
  if (!io.interactive)
    throw new UsageError(
      "Missing the provider.",
      "Pass a provider such as github, google, resend, oidc or social (see create-auth add-provider --list).",
    );
  const { askQuestions, intro } = await import("../prompts/questions.js");
  intro("create-auth add-provider");
  const { provider } = addProviderOptions.rows;
  return (await askQuestions([{ key: "provider", question: provider.question }], undefined)).provider as string;
}

export async function runAddProvider(input: AddProviderInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = addProviderOptions.parse(input);
  if (options.list) {
    const { describeProviders, providersJson } = await import("./add-provider-list.js");
    io.out.write(options.json ? providersJson() : describeProviders());
    return ExitCode.ok;
  }
  if (options.json) throw new UsageError("--json goes with --list.");
  const asked = options.provider ?? (await askProvider(io));
  const named = resolveProviderName(asked);
  // The provider's own flags that were given; its schema validates them.
  const flags: Record<string, unknown> = options;
  // `email --service resend` is `resend`.
  const { resolved, given } = withEmailService(
    named,
    Object.fromEntries(providerFlagKeys.flatMap((key) => (flags[key] === undefined ? [] : [[key, flags[key]]]))),
  );
  const kindName = resolved === named ? asked : resolved.builtin!.module;
  const provider = parseResolved(resolved, await completeOptions(kindName, resolved, given, io));
  const { askTokens, checkTokenSupport, postLogoutRedirectUri, withTokens } = await import("./token-support.js");
  // In a terminal the questions offer only what the provider can do; a flag asking the impossible is refused.
  const tokens = await askTokens(
    withTokens([provider]),
    { refresh: options.refreshTokens, federatedLogout: options.federatedLogout },
    io.interactive,
  );
  const tokenNotes = await checkTokenSupport([provider], tokens);

  // The module whose object literal holds `providers`: auth.config.ts in a split config, authOptions in v4.
  const { findAuthSetup } = await import("../ast/setup/find.js");
  const setup = await findAuthSetup(io.cwd, { config: options.config });
  const configPath = setup.providersFile;
  const root = setup.root;
  const { framework } = detectFramework(new ProjectView(root));
  // Planned and applied under the project's lock, so a parallel run's edit is read, not overwritten.
  const applied = await withProjectLock(root, async () => {
    const { planAddProvider } = await import("../planners/provider-plan.js");
    const plan = await planAddProvider({
      configPath,
      root,
      provider,
      framework,
      force: options.force,
      tokens: tokensAsked(tokens),
      packageManager: options.packageManager ?? detectPackageManager(root, io.env).manager,
    });
    const show = (path: string) => relative(io.cwd, path) || path;
    if (plan.status === "refused") {
      throw new CliError(`Cannot edit ${show(configPath)}: ${plan.reason} Nothing was written.`, {
        exitCode: ExitCode.failed,
        hint: `Add it by hand:\n\n${plan.manual}\n`,
      });
    }
    if (plan.status === "exists") {
      throw new CliError(`${show(plan.path)} already exists with other contents. Nothing was written.`, {
        exitCode: ExitCode.failed,
        hint: "Pass --force to replace it (your changes to that file would be lost), or choose another --id.",
      });
    }
    const { snippet, changes } = plan;

    if (options.dryRun) {
      io.out.write(changes.length ? await renderDiff(changes, io.cwd) : "");
      io.out.write(`\nDry run: ${changes.length} file(s) would change; nothing was written.\n`);
      return undefined;
    }
    applyPlan(changes);

    const lines = changes.length
      ? changes.map((c) => `${c.before === null ? "created" : "updated"} ${show(c.path)}`)
      : [`Provider "${snippet.id}" is already set up in ${show(configPath)}; nothing changed.`];
    if (snippet.hasCallback) {
      lines.push(
        "",
        "Register this callback URL (redirect URI) at the provider:",
        // SvelteKit and Express mount Auth.js at /auth, Next.js at /api/auth.
        `  ${callbackUrl(snippet.id, options.baseUrl, io.env, { port: framework.app.port, basePath: framework.basePath })}`,
      );
      if (snippet.registerAt) lines.push(`Register it at: ${snippet.registerAt}`);
    }
    if (tokens.federatedLogout)
      lines.push(
        "",
        "Register this post-logout redirect URI at the provider (where it sends the browser after its own sign-out):",
        `  ${postLogoutRedirectUri(options.baseUrl, io.env, framework.app.port)}`,
      );
    const fillIn = fillInSteps(plan.envToFill);
    if (fillIn.length) lines.push("", ...fillIn);
    const notes = [
      ...tokenNotes,
      ...snippet.steps,
      ...plan.notices,
      ...(resolved.kind === "email" ? [describeEmailSupport(configPath, plan.configText)] : []),
    ];
    if (plan.packageJsonChanged && !options.install) {
      const manager = options.packageManager ?? detectPackageManager(root, io.env).manager;
      notes.push(`Install the new dependencies: ${installCommand(manager).join(" ")}`);
    }
    if (notes.length) lines.push("", ...notes.map((n) => `note: ${n}`));
    io.out.write(`${lines.join("\n")}\n`);
    return plan;
  });
  // After the lock: the install may take minutes, and everything it needs is written.
  if (applied?.packageJsonChanged && options.install) {
    io.out.write("\n");
    const { installDependencies } = await import("./install.js");
    await installDependencies(root, options.packageManager, io);
  }
  return ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  addProviderOptions
    .configure(command)
    .addHelpText(
      "after",
      `
Examples:
  $ create-auth add-provider github
  $ create-auth add-provider keycloak --issuer https://sso.example.com/realms/main
  $ create-auth add-provider resend --from "Sign in <no-reply@example.com>"
  $ create-auth add-provider social --api-version 5.131
  $ create-auth add-provider social --flow vkid
  $ create-auth add-provider social --domain vk.com
  $ create-auth add-provider oidc --id corp --name "Corp SSO" --issuer https://login.corp.example
  $ create-auth add-provider oauth --id acme --authorization https://acme.example/oauth/authorize --token https://acme.example/oauth/token --userinfo https://acme.example/api/me
  $ create-auth add-provider google --refresh-tokens
  $ create-auth add-provider keycloak --issuer https://sso.example.com/realms/main --refresh-tokens --federated-logout
  $ create-auth add-provider email --from "Sign in <no-reply@example.com>"
  $ create-auth add-provider credentials --dry-run
  $ create-auth add-provider passkey --config src/server/auth.ts
  $ create-auth add-provider --list

In a next-auth v4 project the provider is v4's own (next-auth/providers/<id>), its
module outside pages/; what only v5 has is refused, naming create-auth upgrade.
Without a kind in a terminal, prompts ask for it and for missing options;
in CI or without a terminal, missing options are an error naming the flags.
--refresh-tokens and --federated-logout wire token rotation into the config as init does
(its adapter shared, your callbacks and events composed, the framework's sign-out sent on
to the provider); a config whose adapter cannot keep tokens is refused.
The packages the provider imports (zod for social, @simplewebauthn for passkeys)
are added to package.json and installed, unless --no-install.
Exit codes: 0 added (or already there), 1 the edit was refused and nothing written,
or the install failed (the files were written; run the printed command), 2 usage error,
130 cancelled at a prompt.`,
    )
    .action(async (provider: string | undefined, flags: Record<string, unknown>) => {
      setExitCode(await runAddProvider({ ...flags, provider } as AddProviderInput, io));
    });
}
