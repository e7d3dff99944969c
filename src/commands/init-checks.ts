/** init's checks of its input that need no plan: the project folder, and flags that contradict each other. */
import { accessSync, constants, existsSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError } from "../lib/errors.js";
import { dialectOf } from "../storage/registry.js";

/** --dir: created when absent, refused when it is a file or cannot be written. */
export function checkDir(dir: string, shown: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(`--dir ${shown}: is a file, not a directory.`);
  let existing = dir;
  while (!existsSync(existing)) existing = dirname(existing);
  try {
    // access() says yes to root everywhere; a real probe also catches read-only and pseudo filesystems.
    accessSync(existing, constants.W_OK);
    rmdirSync(mkdtempSync(join(existing, ".create-auth-probe-")));
  } catch {
    throw new UsageError(`--dir ${shown}: cannot write to ${existing}; nothing was written.`);
  }
}

export function conflicts(o: { backend: string; dialect?: string; session: string; kinds: string[] }): void {
  const own = dialectOf(o.backend);
  if (o.dialect && own && o.dialect !== own)
    throw new UsageError(
      `--dialect ${o.dialect} conflicts with --backend ${o.backend}, which speaks ${own}; drop --dialect or change --backend.`,
    );
  // Auth.js refuses a database session when every provider is credentials (its sign-ins are JWT only).
  // No kinds: init adds none to a config of the project's own, whose providers the planner reads.
  if (o.session === "database" && o.kinds.length > 0 && o.kinds.every((k) => k === "credentials")) {
    throw new UsageError(
      "--session database conflicts with --providers credentials alone: Auth.js keeps credentials sign-ins in JWT sessions; use --session jwt or add another provider.",
    );
  }
}
