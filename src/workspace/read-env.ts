/**
 * Reads a project's env files, each once, into the facts the planners and
 * doctor ask (src/render/project-env.ts): which files and in what order is
 * the framework's; nothing reads them again while a plan is made.
 */
import { join } from "node:path";
import { parseEnv } from "../render/env-file.js";
import { exampleEnvFile } from "../render/env-files.js";
import { type EnvMode, type EnvOrder, envFileNames, loadedEnvFiles, ProjectEnv } from "../render/project-env.js";
import { readIfExists } from "./plan.js";

export interface ReadEnvOptions {
  /** The files, the one that wins first; default: `order`'s in `mode`. */
  files?: readonly string[];
  order?: EnvOrder;
  mode?: EnvMode;
  /** Variables already set (the environment wins over every file); default none. */
  environment?: NodeJS.ProcessEnv;
  /** Files to read beside them that the app does not load, for a writer (.env.example). */
  others?: readonly string[];
}

/** Reads the env files of the project at `root` (each once; files that do not exist are kept, empty). */
export function readProjectEnv(root: string, options: ReadEnvOptions = {}): ProjectEnv {
  const names = options.files ?? envFileNames(options.order ?? "next", options.mode ?? "development");
  const files = [...new Set(names)].map((name) => {
    const text = readIfExists(join(root, name));
    return { name, text, entries: text === null ? [] : parseEnv(text) };
  });
  const others = new Map((options.others ?? []).map((name) => [name, readIfExists(join(root, name))]));
  return new ProjectEnv(files, options.environment, others);
}

/** The project's env files as the writers see them: every file its framework loads in development or production, and .env.example. */
export function readEnvForWriting(root: string, order: EnvOrder): ProjectEnv {
  return readProjectEnv(root, { files: loadedEnvFiles(order), others: [exampleEnvFile] });
}
