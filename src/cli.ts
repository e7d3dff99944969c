/**
 * The commander program. Only the command being run is imported (with its
 * flags, zod schema and dependencies); `--help` loads nothing but commander.
 * This file is the one error sink: everything else throws, and only here do
 * errors become output and exit codes.
 */
import { Command, CommanderError } from "commander";
import { useImporter } from "./lib/dynamic-import.js";
import { CliError, ExitCode } from "./lib/errors.js";
import { invokedCommand } from "./lib/invocation.js";
import { version } from "./version.js";

/** What every command module exports. */
export interface CommandModule {
  /** Adds flags, help and the action; the action reports its exit code. */
  configure(command: Command, setExitCode: (code: number) => void): void;
}

const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  init: {
    summary: "Set up auth in a project: config, providers, adapter, entity schema, env files, dependencies.",
    load: () => import("./commands/init.js"),
  },
  "add-provider": {
    summary: "Add a sign-in provider (oauth, oidc, email, credentials, webauthn, social) to your auth config.",
    load: () => import("./commands/add-provider.js"),
  },
  "verify-adapter": {
    summary: "Run the adapter contract suite against your adapter module.",
    load: () => import("./commands/verify-adapter.js"),
  },
};

async function buildProgram(argv: string[], setExitCode: (code: number) => void): Promise<Command> {
  // exitOverride first: subcommands copy the program's settings when created.
  const program = new Command("create-auth")
    .exitOverride()
    .description(
      "Set up Auth.js-style authentication, add sign-in providers, and check database adapters against the adapter contract.",
    )
    .version(version, "-v, --version")
    .showSuggestionAfterError()
    .addHelpText(
      "after",
      `
Examples:
  $ npm create auth                     # same as: npx create-auth init
  $ npx create-auth init --yes          # embedded SQLite, no questions
  $ npx create-auth add-provider social --api-version 5.126
  $ npx create-auth add-provider oidc --id corp --issuer https://login.example.com
  $ npx create-auth verify-adapter ./src/auth/adapter.ts --require all

Run create-auth <command> --help for a command's options.
Exit codes: 0 success, 1 the adapter breaks the contract or an edit was refused, 2 usage or loading error.`,
    );

  // Only this command's module is loaded; see lib/invocation.ts for which it is.
  const invoked = invokedCommand(argv.slice(2));
  for (const [name, { summary, load }] of Object.entries(commands)) {
    const command = program
      .command(name, { isDefault: name === "init" })
      .summary(summary)
      .description(summary);
    if (name === invoked) (await load()).configure(command, setExitCode);
  }
  return program;
}

/** Writes the error for a person: one line, then what to do. */
function report(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`error: ${error.message}\n`);
    if (error.hint) process.stderr.write(`${error.hint}\n`);
    return error.exitCode;
  }
  process.stderr.write(
    `create-auth: unexpected error\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return ExitCode.usage;
}

/** What the launcher (bin/create-auth.cjs) hands in: see lib/dynamic-import.ts. */
export interface Launcher {
  dynamicImport?: (specifier: string) => Promise<unknown>;
}

export async function main(argv: string[] = process.argv, launcher: Launcher = {}): Promise<void> {
  if (launcher.dynamicImport) useImporter(launcher.dynamicImport);
  let code: number = ExitCode.ok;
  try {
    const program = await buildProgram(argv, (c) => (code = c));
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message; help and version are not errors.
      code = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    } else {
      code = report(error);
    }
  }
  // Exit even if the adapter left pools or timers open; flush output first.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
