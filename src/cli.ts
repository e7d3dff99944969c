/**
 * The commander program. Commands are imported only when they run, so
 * `--help` loads nothing but commander. This file is the one error sink:
 * everything else throws, and only here do errors become output and exit codes.
 */
import { Command, CommanderError, Option } from "commander";
import { CliError, ExitCode } from "./lib/errors.js";
import { version } from "./version.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

function buildProgram(setExitCode: (code: number) => void): Command {
  // exitOverride first: subcommands copy the program's settings when created.
  const program = new Command("create-auth")
    .exitOverride()
    .description("Set up Auth.js-style authentication, add sign-in providers, and check database adapters against the adapter contract.")
    .version(version, "-v, --version")
    .showSuggestionAfterError()
    .addHelpText(
      "after",
      `
Examples:
  $ npx create-auth verify-adapter ./src/auth/adapter.ts
  $ npx create-auth verify-adapter ./adapter.ts --require all --reporter junit --output-file reports/adapter.xml

Exit codes: 0 success, 1 the adapter breaks the contract, 2 usage or loading error.`,
    );

  program
    .command("verify-adapter")
    .description("Run the adapter contract suite against your adapter module.")
    .argument("[module]", "path to the adapter module (.ts, .mts, .cts, .js, .mjs, .cjs), from the current directory")
    .option("-e, --export <name>", "the export holding the adapter (default: the default export, else `adapter`)")
    .option("--only <ids>", "run only these case ids or globs (comma-separated, repeatable)", collect)
    .option("--skip <ids>", "skip these case ids or globs (comma-separated, repeatable)", collect)
    .option("--require <capabilities>", "fail when a capability is missing: users, sessions, email, webauthn or all", collect)
    .option("--timeout <ms>", "time limit for each case in milliseconds", "5000")
    .option("--concurrency <n>", "cases to run in parallel", "1")
    .option("--seed <n>", "seed for the generated data (the report prints the one it used)")
    .addOption(new Option("--reporter <name>", "pretty, json, junit or github (repeatable)").argParser(collect))
    .option("--output-file <path>", "write the json or junit report to a file; NAME=PATH when several (repeatable)", collect)
    .option("--list", "list the contract cases and exit")
    .option("--no-color", "plain output (NO_COLOR is honoured too)")
    .addHelpText(
      "after",
      `
The module's default export (or the export named by --export, or a named
export \`adapter\`) is an adapter object, a factory function returning one, or
a promise of one. Optional named exports setup() and teardown() run before and
after the suite; teardown runs even when cases fail.

Examples:
  $ create-auth verify-adapter ./src/adapter.ts
  $ create-auth verify-adapter ./adapter.mjs --export prismaAdapter --require sessions,email
  $ create-auth verify-adapter ./adapter.ts --only 'session.*' --seed 1234
  $ create-auth verify-adapter ./adapter.ts --reporter pretty --reporter junit --output-file junit=reports/adapter.xml
  $ create-auth verify-adapter ./adapter.ts --reporter github   # annotations in GitHub Actions
  $ create-auth verify-adapter --list

Exit codes: 0 the adapter satisfies the contract, 1 contract failures, 2 usage or loading error.`,
    )
    .action(async (module: string | undefined, flags: Record<string, unknown>) => {
      const { runVerifyAdapter } = await import("./commands/verify-adapter.js");
      if (!module && !flags.list) throw new CliError("Missing the adapter module path.", { hint: "Usage: create-auth verify-adapter <module>  (see --help)" });
      const color = flags.color === false ? false : undefined;
      setExitCode(await runVerifyAdapter({ ...flags, module: module ?? "-", color } as never));
    });

  return program;
}

/** Writes the error for a person: one line, then what to do. */
function report(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`error: ${error.message}\n`);
    if (error.hint) process.stderr.write(`${error.hint}\n`);
    return error.exitCode;
  }
  process.stderr.write(`create-auth: unexpected error\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return ExitCode.usage;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  let code: number = ExitCode.ok;
  const program = buildProgram((c) => (code = c));
  try {
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
