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
import { hideUrlCredentials } from "./lib/redact.js";
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

/** What a bug report may say about the run: the command's name (one of ours, never a word the user typed) and --debug. */
interface RunContext {
  command: string | undefined;
  debug: boolean;
  /** Asked for JSON (--json): an error is also a JSON object on stdout, where the reading program looks. */
  json: boolean;
}

function buildProgram(io: Io, setExitCode: (code: number) => void, context: RunContext): Command {
  // exitOverride and the output first: subcommands copy the program's settings when created.
  const program = new Command("create-auth")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out.write(text), writeErr: (text) => io.err.write(text) })
    .description(
      "Set up Auth.js-style authentication, add sign-in providers, find what will break sign-in, and check database adapters against the adapter contract.",
    )
    .version(version, "-v, --version")
    .option("--debug", "on an unexpected error (a bug in create-auth), also print its stack trace")
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
Exit codes: 0 success, 1 the adapter breaks the contract, an edit was refused or doctor found an error, 2 usage or loading error,
70 a bug in create-auth (report it; --debug prints its stack).`,
    );
  for (const [name, { summary }] of Object.entries(commands)) {
    program
      .command(name, { isDefault: name === "init" })
      .summary(summary)
      .description(summary);
  }
  program.hook("preSubcommand", async (_program, command) => {
    context.command = command.name();
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
function report(thrown: unknown, { out, err, env }: Io, context: RunContext): number {
  const error = thrown instanceof CliError ? thrown : fromSystemError(thrown);
  if (!error) return reportBug(thrown, err, context, env);
  err.write(`error: ${printable(error.message)}\n`);
  if (error.hint) err.write(`${printable(error.hint, { keepNewlines: true })}\n`);
  if (context.json) {
    const { message, hint, exitCode } = error;
    out.write(`${JSON.stringify({ version: 1, error: { message, ...(hint && { hint }), exitCode } }, null, 2)}\n`);
  }
  return error.exitCode;
}

/** Variables whose values are secrets by their names (and connection strings, which may hold a password). */
const secretName = /SECRET|TOKEN|PASSW|KEY|CREDENTIAL|PRIVATE|_URL$|_DSN$/i;

/**
 * An error nobody threw on purpose: a bug in create-auth. One line that says
 * so and how to report it, naming only the version, the command and the
 * error's class: its message and stack may quote an argument or a variable,
 * so they are printed only with --debug, and then without URL passwords or
 * the values of variables named like secrets.
 */
function reportBug(thrown: unknown, err: NodeJS.WritableStream, context: RunContext, env: NodeJS.ProcessEnv): number {
  const kind =
    thrown instanceof Error && /^[A-Za-z]{1,40}$/.test(thrown.name) ? thrown.name : "error (a thrown non-Error value)";
  const where = context.command ? ` (${context.command})` : "";
  err.write(
    `error: unexpected ${kind} in create-auth ${version}${where}. This is a bug in create-auth: please report it with this line and what you ran, leaving out values and secrets (npm bugs create-auth opens the tracker); --debug adds the stack trace.\n`,
  );
  if (context.debug) {
    let stack = thrown instanceof Error ? (thrown.stack ?? `${thrown.name}: ${thrown.message}`) : String(thrown);
    for (const [name, value] of Object.entries(env))
      if (value && value.length >= 4 && secretName.test(name)) stack = stack.split(value).join("<hidden>");
    err.write(`${printable(hideUrlCredentials(stack), { keepNewlines: true })}\n`);
  }
  return ExitCode.bug;
}

/** The run in progress, for an error thrown where no await catches it. */
let current: RunContext = { command: undefined, debug: false, json: false };

/** Runs one command line (argv as process.argv has it) and returns the exit code; tests call it in-process. */
export async function run(argv: string[], io: Io): Promise<number> {
  let code: number = ExitCode.ok;
  // Read from the words themselves: a bug can strike before commander has parsed them.
  const words = argv.slice(2);
  const context: RunContext = { command: undefined, debug: words.includes("--debug"), json: words.includes("--json") };
  current = context;
  try {
    await buildProgram(io, (c) => (code = c), context).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message; help and version are not errors.
      code = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    } else {
      code = report(error, io, context);
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

/** An exception or rejection no code awaited is a bug too: the same line and exit code, not Node's stack dump. */
function reportUncaught(): void {
  const crashed = (error: unknown) => {
    const code = reportBug(error, process.stderr, current, process.env);
    process.stderr.write("", () => process.exit(code));
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
}

export async function main(argv: string[] = process.argv): Promise<void> {
  endOnOutputFailure();
  reportUncaught();
  const code = await run(argv, processIo());
  // Exit even if the adapter left pools or timers open; flush output first.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
