/**
 * Plan, then apply. Commands describe every file they would write as a
 * change (before and after); only `applyPlan` touches the disk, and it writes
 * all or nothing: each file goes to a temporary sibling first and is renamed
 * into place once every write has succeeded.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";

export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Current contents, or null when the file does not exist yet. */
  before: string | null;
  after: string;
}

export function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** A change for `path` from its current contents to `after`; null when nothing would change. */
export function changeFile(path: string, after: string): FileChange | null {
  const before = readIfExists(path);
  return before === after ? null : { path, before, after };
}

export function applyPlan(changes: FileChange[]): void {
  const staged: { temp: string; path: string }[] = [];
  try {
    for (const change of changes) {
      mkdirSync(dirname(change.path), { recursive: true });
      const temp = `${change.path}.create-auth-${process.pid}.tmp`;
      writeFileSync(temp, change.after);
      staged.push({ temp, path: change.path });
    }
  } catch (error) {
    for (const { temp } of staged) rmSync(temp, { force: true });
    throw error;
  }
  for (const { temp, path } of staged) renameSync(temp, path);
}

/** A unified diff of the plan, for --dry-run. */
export async function renderDiff(changes: FileChange[], cwd = process.cwd()): Promise<string> {
  const { createTwoFilesPatch } = await import("diff");
  return changes
    .map((change) => {
      const name = relative(cwd, change.path) || change.path;
      return createTwoFilesPatch(
        change.before === null ? "/dev/null" : `a/${name}`,
        `b/${name}`,
        change.before ?? "",
        change.after,
        undefined,
        undefined,
        { context: 3 },
      );
    })
    .join("\n");
}
