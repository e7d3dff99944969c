/**
 * Errors the CLI knows how to present. Only `src/cli.ts` turns them into
 * output and an exit code; everything else throws.
 */
import { hideUrlCredentials } from "./redact.js";

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
  /**
   * An error create-auth did not expect: a bug in create-auth, never the
   * user's input (sysexits' EX_SOFTWARE). Distinct from 2 so a CI log says
   * which side is at fault.
   */
  bug: 70,
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

/**
 * A value thrown in another process (verify-adapter's worker), carried as
 * its description, so it reads the same here as it did there.
 */
export class DescribedThrow extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = "DescribedThrow";
  }
}

/** Describes any thrown value, Error or not, in one line. */
export function describeThrown(value: unknown): string {
  if (value instanceof DescribedThrow) return value.description;
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

/** What to do about the system errors people meet, by code; others get the generic hint. */
const systemHints: Record<string, string> = {
  EACCES: "Check that you may read and write there (its permissions and owner).",
  EPERM: "Check that you may read and write there (its permissions and owner).",
  EROFS: "That file system is read-only: run create-auth where it can write.",
  ENOSPC: "The disk is full: free some space and run the command again.",
  EDQUOT: "Your disk quota is used up: free some space and run the command again.",
  ELOOP: "A symbolic link there points back at itself: fix or remove the link.",
  ENAMETOOLONG: "That path is too long for the file system: use a shorter one.",
  ENOENT: "Check that the path exists.",
  ENOTDIR: "A file stands where a folder is needed: check the path.",
  EISDIR: "A folder stands where a file is needed: check the path.",
  EMFILE: "Too many files are open: close some programs and run the command again.",
  ECONNREFUSED: "Nothing answers at that address: is the server running, on that host and port?",
  ENOTFOUND: "That host name does not resolve: check the host in the URL.",
  ETIMEDOUT: "The server did not answer in time: check the host and port, and your network.",
  ERR_SOCKET_BAD_PORT: "Ports run from 1 to 65535: check the port in the URL.",
};

/**
 * An error from the system, the network or a database driver: these carry a
 * code (ENOENT, ECONNREFUSED, a driver's own). Shown as the one line they
 * are, with what to do; their stack is of no use to the person reading it.
 * Errors without a code are bugs, and keep their stack.
 */
export function fromSystemError(error: unknown): CliError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== "string" || code === "") return undefined;
  const message = hideUrlCredentials(error.message.split("\n")[0]!.trim()) || code;
  return new CliError(message.includes(code) ? message : `${message} (${code})`, {
    hint: systemHints[code] ?? "Check the path, address or credentials it names, then run the command again.",
    cause: error,
  });
}

/**
 * Text shown to a person with control and invisible bytes written as escapes,
 * so input quoted in a message can neither move the cursor nor fake a line.
 * `keepNewlines` for hints, which may run over several lines.
 */
export function printable(text: string, { keepNewlines = false } = {}): string {
  const unsafe = keepNewlines
    ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g
    : /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g;
  return text.replace(unsafe, (c) => {
    const hex = c.charCodeAt(0).toString(16);
    return c.charCodeAt(0) < 0x100 ? `\\x${hex.padStart(2, "0")}` : `\\u${hex.padStart(4, "0")}`;
  });
}
