/**
 * Errors the CLI knows how to present. Only `src/cli.ts` turns them into
 * output and an exit code; everything else throws.
 */

/** Documented exit codes (README "Exit codes"). */
export const ExitCode = {
  ok: 0,
  /**
   * The command was understood but its job did not get done: the adapter
   * breaks the contract, an edit was refused, another run holds the lock,
   * the install failed, or the database refused the schema.
   */
  failed: 1,
  usage: 2,
  /** The user pressed Ctrl-C at a prompt; nothing was written. */
  cancelled: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: ExitCodeValue; hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "CliError";
    this.exitCode = options.exitCode ?? ExitCode.usage;
    this.hint = options.hint;
  }
}

/** A bad flag or argument. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.usage, hint });
    this.name = "UsageError";
  }
}

/** The user's module could not be loaded or holds no usable adapter. Exit 2. */
export class LoadError extends CliError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.usage, ...options });
    this.name = "LoadError";
  }
}

/** Describes any thrown value, Error or not, in one line. */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "string") return `thrown string ${JSON.stringify(value)}`;
  if (value === undefined) return "thrown undefined";
  if (value === null) return "thrown null";
  try {
    return `thrown ${typeof value} ${JSON.stringify(value)}`;
  } catch {
    return `thrown ${typeof value}`;
  }
}
