/**
 * `create-auth add-provider <kind>`: generate a provider module, add it to
 * the user's auth config (§2.1–2.8), and the variables it reads to the env
 * files. Everything is planned first; nothing is written on a refusal, an
 * error or --dry-run.
 */
import { relative } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { kindCatalog, missingOptions, type ProviderKind, resolveKind } from "../catalog/provider-kinds.js";
import { CliError, ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { parseOptions } from "../lib/options.js";
import { parseProvider } from "../schemas/provider-options.js";
import { findAuthConfig, projectRoot } from "../workspace/find-config.js";
import { withProjectLock } from "../workspace/lock.js";
import { applyPlan, renderDiff } from "../workspace/plan.js";
import { callbackUrl, describeEmailSupport } from "../workspace/project.js";

export const addProviderOptions = z.object({
  kind: z.string().optional(),
  config: z.string().min(1).optional(),
  baseUrl: z
    .string()
    .refine(
      (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) && !new URL(v).username && !new URL(v).password,
    )
    .optional(),
  force: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  list: z.boolean().default(false),
  /** The kind's own flags (--id, --issuer, --api-version...), validated by the kind's schema. */
  provider: z.record(z.string(), z.unknown()).default({}),
});

export type AddProviderInput = z.input<typeof addProviderOptions>;

export function describeKinds(): string {
  const lines: string[] = [];
  for (const entry of kindCatalog) {
    const aliases = entry.aliases?.length ? ` (alias: ${entry.aliases.join(", ")})` : "";
    lines.push(`${entry.kind}${aliases} — ${entry.description}`);
    for (const option of entry.options) {
      const extra = [
        option.required ? "required" : "",
        option.default !== undefined ? `default ${option.default}` : "",
        option.values ? `one of ${option.values.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ");
      lines.push(`    ${option.flag.padEnd(34)} ${option.description}${extra ? ` (${extra})` : ""}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** Flags the kind needs that were not given: asked in a terminal, an error elsewhere. */
async function completeOptions(
  kind: ProviderKind,
  given: Record<string, unknown>,
  io: Io,
): Promise<Record<string, unknown>> {
  const missing = missingOptions(kind, given);
  if (missing.length === 0) return given;
  if (!io.interactive) {
    throw new UsageError(
      `add-provider ${kind} needs ${missing.map((o) => o.flag.split(" ")[0]).join(", ")}.`,
      `Pass ${missing.map((o) => o.flag).join(" ")} (no terminal to ask in).`,
    );
  }
  const { askOptions } = await import("../prompts/add-provider.js");
  return { ...given, ...(await askOptions(missing)) };
}

export async function runAddProvider(input: AddProviderInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = parseOptions(addProviderOptions, input, {
    baseUrl: "an http(s) URL without a user name or password, such as https://app.example.com",
  });
  if (options.list) {
    io.out.write(describeKinds());
    return ExitCode.ok;
  }
  let kindName = options.kind;
  if (!kindName) {
    if (!io.interactive)
      throw new UsageError(
        "Missing the provider kind.",
        `Pass one of: ${kindCatalog.map((k) => k.kind).join(", ")} (see create-auth add-provider --list).`,
      );
    kindName = await (await import("../prompts/add-provider.js")).askKind(kindCatalog);
  }
  const kind = resolveKind(kindName);
  const provider = parseProvider(kind, await completeOptions(kind, options.provider, io));

  const configPath = findAuthConfig(io.cwd, options.config);
  const root = projectRoot(configPath, io.cwd);
  // Planned and applied under the project's lock, so a parallel run's edit is read, not overwritten.
  return withProjectLock(root, async () => {
    const { planAddProvider } = await import("../generators/add-provider.js");
    const plan = await planAddProvider({
      configPath,
      root,
      provider,
      force: options.force,
    });
    const show = (path: string) => relative(io.cwd, path) || path;
    if (plan.status === "refused") {
      throw new CliError(`Cannot edit ${show(configPath)}: ${plan.reason} Nothing was written.`, {
        exitCode: ExitCode.contractFailed,
        hint: `Add it by hand:\n\n${plan.manual}\n`,
      });
    }
    if (plan.status === "exists") {
      throw new CliError(`${show(plan.path)} already exists with other contents. Nothing was written.`, {
        exitCode: ExitCode.contractFailed,
        hint: "Pass --force to replace it (your changes to that file would be lost), or choose another --id.",
      });
    }
    const { snippet, changes } = plan;

    if (options.dryRun) {
      io.out.write(changes.length ? await renderDiff(changes, io.cwd) : "");
      io.out.write(`\nDry run: ${changes.length} file(s) would change; nothing was written.\n`);
      return ExitCode.ok;
    }
    applyPlan(changes);

    const lines = changes.length
      ? changes.map((c) => `${c.before === null ? "created" : "updated"} ${show(c.path)}`)
      : [`Provider "${snippet.id}" is already set up in ${show(configPath)}; nothing changed.`];
    if (snippet.hasCallback) {
      lines.push(
        "",
        "Register this callback URL at the provider (§4.1):",
        `  ${callbackUrl(snippet.id, options.baseUrl, io.env)}`,
      );
    }
    if (snippet.env.length) lines.push("", `Fill in ${snippet.env.map((e) => e.name).join(", ")} in .env.local.`);
    const notes = [...snippet.notes, ...(kind === "email" ? [describeEmailSupport(configPath, plan.configText)] : [])];
    if (notes.length) lines.push("", ...notes.map((n) => `note: ${n}`));
    io.out.write(`${lines.join("\n")}\n`);
    return ExitCode.ok;
  });
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  command.argument(
    "[kind]",
    `provider kind: ${kindCatalog.map((k) => [k.kind, ...(k.aliases ?? [])].join("|")).join(", ")}`,
  );
  const seen = new Set<string>();
  for (const entry of kindCatalog) {
    for (const option of entry.options) {
      if (seen.has(option.key)) continue;
      seen.add(option.key);
      command.option(option.flag, option.description);
    }
  }
  command
    .option(
      "--config <path>",
      "the auth config to edit (default: auth.ts, auth.config.ts, src/auth.ts, src/auth.config.ts, lib/auth.ts, src/lib/auth.ts, server/auth.ts)",
    )
    .option(
      "--base-url <url>",
      "your app's URL, for the callback URL to register (default: $AUTH_URL, else http://localhost:3000)",
    )
    .option("--force", "replace a provider with the same id and its generated files")
    .option("--dry-run", "print the diff of every change and write nothing")
    .option("--list", "list the provider kinds and their options")
    .addHelpText(
      "after",
      `
Examples:
  $ create-auth add-provider social --api-version 5.131
  $ create-auth add-provider oidc --id corp --name "Corp SSO" --issuer https://login.corp.example
  $ create-auth add-provider oauth --id acme --authorization https://acme.example/oauth/authorize --token https://acme.example/oauth/token --userinfo https://acme.example/api/me
  $ create-auth add-provider email --from "Sign in <no-reply@example.com>"
  $ create-auth add-provider credentials --dry-run
  $ create-auth add-provider passkey --config src/server/auth.ts
  $ create-auth add-provider --list

Without a kind in a terminal, prompts ask for it and for missing options;
in CI or without a terminal, missing options are an error naming the flags.
Exit codes: 0 added (or already there), 1 the edit was refused and nothing written, 2 usage error.`,
    )
    .action(async (kind: string | undefined, flags: Record<string, unknown>) => {
      const { config, baseUrl, force, dryRun, list, ...provider } = flags;
      setExitCode(
        await runAddProvider({ kind, config, baseUrl, force, dryRun, list, provider } as AddProviderInput, io),
      );
    });
}
