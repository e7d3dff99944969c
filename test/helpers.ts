import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const fixture = (...parts: string[]) => join(root, "fixtures", ...parts);
export const tempDir = (prefix = "create-auth-") => mkdtempSync(join(tmpdir(), prefix));

/** An unprivileged user for tests that need one (root writes anywhere). */
export const nobody = 65534;
export const isRoot = process.getuid?.() === 0;

/**
 * Runs the built CLI as a user would: no terminal, colour off, never throws.
 * With `uid` (as root), it runs as that user; with `node`, on that Node binary.
 */
export function cli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; uid?: number; node?: string } = {},
) {
  const asUser =
    options.uid === undefined ? [] : ["setpriv", `--reuid=${options.uid}`, `--regid=${options.uid}`, "--clear-groups"];
  const command = [...asUser, options.node ?? process.execPath, join(root, "bin", "create-auth.js"), ...args];
  return execa(command[0]!, command.slice(1), {
    cwd: options.cwd ?? root,
    env: { NO_COLOR: "1", ...options.env },
    reject: false,
    timeout: 60_000,
  });
}

/** Every file under `dir` and its text: to prove a command changed nothing. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

export const keys = { down: "\u001b[B", space: " ", enter: "\r", ctrlC: "\u0003" } as const;

/**
 * Runs the CLI in a real pseudo-terminal (util-linux `script`) in `cwd` and
 * types `input`, each key after a pause so the prompt is drawn first.
 */
export async function inTerminal(args: string[], input: string[], cwd: string) {
  // A fresh pty is 0 columns wide; give it a real size so prompts are drawn as text.
  const command = `stty cols 160 rows 40; ${["node", join(root, "bin", "create-auth.js"), ...args].map((a) => `'${a}'`).join(" ")}`;
  const child = execa("script", ["-qfec", command, "/dev/null"], {
    cwd,
    env: { CI: "", NO_COLOR: "1", TERM: "xterm" },
    reject: false,
    timeout: 30_000,
  });
  for (const key of input) {
    await new Promise((r) => setTimeout(r, 700));
    child.stdin!.write(key);
  }
  const result = await child;
  // Prompts redraw with cursor moves; compare the text without escape sequences.
  const screen = String(result.stdout).replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
  return { result, screen, read: (path: string) => readFileSync(join(cwd, path), "utf8") };
}
