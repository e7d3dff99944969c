import { chmodSync, readdirSync } from "node:fs";
import { tempDir } from "../helpers.js";

/** Every file under `dir`, recursively. */
export const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

/** A folder other users can enter, for the runs as `nobody`. */
export function sharedTemp(): string {
  const dir = tempDir("create-auth-cache-test-");
  chmodSync(dir, 0o755);
  return dir;
}
