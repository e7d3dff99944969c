/** What a command reads from and writes to besides files; tests pass their own. */
import { isInteractive } from "./terminal.js";

export interface Io {
  cwd: string;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** A person at a terminal: prompts may ask. */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
}

export const processIo = (): Io => ({
  cwd: process.cwd(),
  out: process.stdout,
  err: process.stderr,
  interactive: isInteractive(),
  env: process.env,
});
