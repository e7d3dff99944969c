/**
 * The commander program. Commander decides which command runs; its module
 * (flags, zod schema, dependencies) is imported only then, in the
 * preSubcommand hook, so `--help` loads nothing but commander.
 * This file is the one error sink: everything else throws, and only here do
 * errors become output and exit codes.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { CliError, ExitCode, fromSystemError, printable, UsageError } from "./lib/errors.js";
import { type Io, processIo } from "./lib/io.js";
import { version } from "./version.js";

/** What every command module exports. */
export interface CommandModule {
  /** Adds flags, help and the action; the action runs with `io` and reports its exit code. */
  configure(command: Command, setExitCode: (code: number) => void, io: Io): void;
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
  migrate: {
    summary: "Create the auth tables in your database (safe to run again).",
    load: () => import("./commands/migrate.js"),
  },
  upgrade: {
    summary: "Move a next-auth v4 app to v5 in one change, keeping signed-in users signed in.",
    load: () => import("./commands/upgrade.js"),
  },
  doctor: {
    summary: "Find what will break sign-in: secrets, env names, URLs, providers, database, wiring, file permissions.",
    load: () => import("./commands/doctor.js"),
  },
  "verify-adapter": {
    summary: "Run the adapter contract suite against your adapter module.",
    load: () => import("./commands/verify-adapter.js"),
  },
};

/** `create-auth ./my-app` is init in ./my-app; a bare word that is no folder is a mistyped command. */
function looksLikePath(word: string, cwd: string): boolean {
  if (/[\\/]/.test(word) || word.startsWith(".")) return true;
  try {
    const path = resolve(cwd, word);
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * init is the default command (so `npm create auth` works), which makes
 * commander hand it any word it does not know; a word that is not a path
 * is refused here as the unknown command it is.
 */
async function refuseUnknownCommand(program: Command, command: Command, cwd: string): Promise<void> {
  const word = program.args[0];
  if (command.name() !== "init" || word === undefined || word === "init" || word.startsWith("-")) return;
  if (looksLikePath(word, cwd)) return;
  const { closestWord } = await import("./lib/suggest.js");
  const suggestion = closestWord(word, Object.keys(commands));
  throw new UsageError(
    `unknown command '${word}'${suggestion ? ` (did you mean ${suggestion}?)` : ""}.`,
    suggestion
      ? `Commands: ${Object.keys(commands).join(", ")}.`
      : `Commands: ${Object.keys(commands).join(", ")}. To set up auth in a new folder: create-auth init --dir ${word}`,
  );
}

function buildProgram(io: Io, setExitCode: (code: number) => void): Command {
  // exitOverride and the output first: subcommands copy the program's settings when created.
  const program = new Command("create-auth")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out.write(text), writeErr: (text) => io.err.write(text) })
    .description(
      "Set up Auth.js-style authentication, add sign-in providers, find what will break sign-in, and check database adapters against the adapter contract.",
    )
    .version(version, "-v, --version")
    .showSuggestionAfterError()
    .addHelpText(
      "after",
      `
Examples:
  $ npm create auth                     # same as: npx create-auth init
  $ npm create auth -- --dir my-app --yes
  $ npx create-auth init --yes          # embedded SQLite, no questions
  $ npx create-auth add-provider social --api-version 5.126
  $ npx create-auth add-provider oidc --id corp --issuer https://login.example.com
  $ npx create-auth verify-adapter ./src/auth/adapter.ts --require all
  $ npx create-auth doctor --fix

Run create-auth <command> --help for a command's options.
Exit codes: 0 success, 1 the adapter breaks the contract, an edit was refused or doctor found an error, 2 usage or loading error.`,
    );
  for (const [name, { summary }] of Object.entries(commands)) {
    program
      .command(name, { isDefault: name === "init" })
      .summary(summary)
      .description(summary);
  }
  program.hook("preSubcommand", async (_program, command) => {
    await refuseUnknownCommand(program, command, io.cwd);
    // Loaded here, not at the top: --help and --version need neither.
    const [module, { refuseAmbiguousValues }] = await Promise.all([
      commands[command.name()]!.load(),
      import("./lib/options.js"),
    ]);
    module.configure(command, setExitCode, io);
    refuseAmbiguousValues(command);
  });
  return program;
}

/** Writes the error for a person: one line, then what to do. */
function report(thrown: unknown, err: NodeJS.WritableStream): number {
  const error = thrown instanceof CliError ? thrown : fromSystemError(thrown);
  if (error) {
    err.write(`error: ${printable(error.message)}\n`);
    if (error.hint) err.write(`${printable(error.hint, { keepNewlines: true })}\n`);
    return error.exitCode;
  }
  err.write(
    `create-auth: unexpected error\n${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`,
  );
  return ExitCode.usage;
}

/** Runs one command line (argv as process.argv has it) and returns the exit code; tests call it in-process. */
export async function run(argv: string[], io: Io): Promise<number> {
  let code: number = ExitCode.ok;
  try {
    await buildProgram(io, (c) => (code = c)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message; help and version are not errors.
      code = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    } else {
      code = report(error, io.err);
    }
  }
  return code;
}

/**
 * Output that cannot be written ends the run: quietly when the reader went
 * away (`| head`: EPIPE, 141 as a shell's SIGPIPE), else with one line
 * (a full disk under `> file`: exit 2).
 */
function endOnOutputFailure(): void {
  let ended = false;
  const failed = (error: NodeJS.ErrnoException) => {
    if (ended) return;
    ended = true;
    if (error.code === "EPIPE") process.exit(141);
    try {
      process.stderr.write(`error: could not write the output: ${printable(error.message)}\n`);
    } finally {
      process.exit(ExitCode.usage);
    }
  };
  process.stdout.on("error", failed);
  process.stderr.on("error", failed);
}

export async function main(argv: string[] = process.argv): Promise<void> {
  endOnOutputFailure();
  const code = await run(argv, processIo());
  // Exit even if the adapter left pools or timers open; flush output first.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
