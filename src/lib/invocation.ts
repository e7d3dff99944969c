/**
 * What a command line asks for, read before commander parses it: the CLI
 * loads only the invoked command's module, and the launcher picks the code
 * cache for it. Imports nothing, so the launcher can load it before the bundle.
 */
const programFlags = ["-h", "--help", "-v", "--version"];

/** The first bare word; with none, init (so `npm create auth` works), unless the program's own help or version was asked for. */
export function invokedCommand(args: readonly string[]): string | undefined {
  return (
    args.find((arg) => !arg.startsWith("-")) ?? (args.some((arg) => programFlags.includes(arg)) ? undefined : "init")
  );
}

/**
 * The code cache's profile for a run (lib/compile-cache.ts): what runs, and so
 * what is worth caching, differs by command; help, version and lists run
 * little of any, and share one.
 */
export function cacheProfile(args: readonly string[]): string {
  const informsOnly = args.some((arg) => programFlags.includes(arg) || arg === "--list");
  return (!informsOnly && invokedCommand(args)) || "other";
}
