import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const fixture = (...parts: string[]) => join(root, "fixtures", ...parts);
export const tempDir = (prefix = "create-auth-") => mkdtempSync(join(tmpdir(), prefix));

/** Runs the built CLI as a user would: no terminal, colour off, never throws. */
export function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return execa("node", [join(root, "bin", "create-auth.js"), ...args], {
    cwd: options.cwd ?? root,
    env: { NO_COLOR: "1", ...options.env },
    reject: false,
    timeout: 60_000,
  });
}
