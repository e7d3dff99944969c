/**
 * The env files and what git knows about them: their values (as dotenv reads
 * them), their mode, whether git tracks or ignores them, and which tracked
 * files hold a secret's value. git runs with its file-system monitor off and
 * no pager: it reads, and runs nothing of the repository's.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ignore from "ignore";
import type { EnvFileFacts, EnvValue } from "../doctor-model/facts.js";
import { UsageError } from "../lib/errors.js";
import { isEnvFile, isSecretEnvFile, parseEnv } from "../render/env-file.js";
import { type EnvOrder, envFileNames } from "../render/project-env.js";
import { readIfExists } from "../workspace/plan.js";

/**
 * Read for values lowest first, as the framework loads them for a production
 * start (project-env.ts, the order migrate and the generated modules use):
 * Next.js's .env, .env.production, .env.local, .env.production.local; Vite's
 * (SvelteKit) .env, .env.local, .env.production, .env.production.local.
 */
export const defaultEnvFiles = (order: EnvOrder) => envFileNames(order, "production").reverse();

function git(root: string, args: string[], input?: string): { ok: boolean; stdout: string } {
  try {
    const stdout = execFileSync("git", ["-c", "core.fsmonitor=false", "--no-pager", "-C", root, ...args], {
      input,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
      timeout: 10_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, stdout };
  } catch (error) {
    return { ok: false, stdout: String((error as { stdout?: unknown }).stdout ?? "") };
  }
}

interface GitFacts {
  isRepo: boolean;
  tracked(names: string[]): Set<string>;
  ignored(names: string[]): Set<string>;
  /** Tracked files whose text holds `value`; the value goes to git on stdin, never on a command line. */
  filesHolding(value: string): string[];
}

export function readGit(root: string): GitFacts {
  const isRepo = git(root, ["rev-parse", "--is-inside-work-tree"]).stdout.trim() === "true";
  const list = (stdout: string) => new Set(stdout.split("\0").filter(Boolean));
  if (!isRepo) {
    const rules = ignore().add(readIfExists(join(root, ".gitignore")) ?? "");
    return {
      isRepo,
      tracked: () => new Set(),
      ignored: (names) => new Set(names.filter((n) => rules.ignores(n))),
      filesHolding: () => [],
    };
  }
  return {
    isRepo,
    tracked: (names) => (names.length ? list(git(root, ["ls-files", "-z", "--", ...names]).stdout) : new Set()),
    // --no-index: the rules, even for a file that is tracked anyway.
    ignored: (names) =>
      names.length
        ? list(git(root, ["check-ignore", "-z", "--stdin", "--no-index"], names.map((n) => `${n}\0`).join("")).stdout)
        : new Set(),
    filesHolding: (value) => [...list(git(root, ["grep", "-z", "-l", "-F", "-I", "-f", "-"], `${value}\n`).stdout)],
  };
}

/** The env files of the project (its top folder and the --env ones), with their values and git state. */
export function readEnvFiles(root: string, extra: string[], gitFacts: GitFacts): EnvFileFacts[] {
  const names = new Set(readdirSync(root).filter((n) => isEnvFile(n) && statSync(join(root, n)).isFile()));
  for (const file of extra) {
    const path = resolve(root, file);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new UsageError(`--env ${file}: no such file (looked for ${path}).`);
    names.add(relative(root, path));
  }
  const sorted = [...names].sort();
  const tracked = gitFacts.tracked(sorted);
  const ignored = gitFacts.ignored(sorted);
  return sorted.map((name) => {
    const path = join(root, name);
    const values: Record<string, string> = {};
    for (const entry of parseEnv(readIfExists(path) ?? "")) values[entry.name] = entry.value;
    const base = name.split("/").at(-1)!;
    return {
      name,
      values,
      template: isEnvFile(base) && !isSecretEnvFile(base),
      mode: statSync(path).mode & 0o777,
      tracked: tracked.has(name),
      ignored: ignored.has(name),
    };
  });
}

/** The env files read for values, lowest precedence first. */
export const valueFiles = (extra: string[], root: string, order: EnvOrder) =>
  extra.length ? extra.map((f) => relative(root, resolve(root, f))) : defaultEnvFiles(order);

/**
 * The variables the app sees: the environment first, then the env files
 * read for values (the --env files in their order, else the defaults), a
 * later file overriding an earlier one.
 */
export function effectiveEnv(
  files: EnvFileFacts[],
  order: readonly string[],
  environment: NodeJS.ProcessEnv,
): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const name of order) {
    const file = files.find((f) => f.name === name);
    if (!file) continue;
    for (const [key, value] of Object.entries(file.values)) env[key] = { value, source: file.name };
  }
  for (const [key, value] of Object.entries(environment)) {
    if (value !== undefined && value !== "") env[key] = { value, source: "environment" };
  }
  return env;
}
