/** Fixture projects for doctor: copied to a temp folder with their dotfiles, modes and git state set up. */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { fixture, inProcess, tempDir } from "../helpers.js";

export interface FixtureMeta {
  /** The ids the fixture must produce: exactly these errors and warnings. */
  expect: string[];
  /** Make it a git repository and commit what is not ignored; `force` adds ignored files too. */
  git?: true | { force: string[] };
  /** Modes to set (octal strings); env files are 600 otherwise. */
  modes?: Record<string, string>;
  /** --online against a local discovery server: "mismatch" or "unreachable". */
  online?: "mismatch" | "unreachable";
  /**
   * Checked against a real database (the db layer): fixture.sql makes the tables as the project has them,
   * on PostgreSQL or MariaDB (DATABASE_URL points at them) or in the SQLite file `file` the project names.
   */
  database?: "postgres" | "mysql" | "sqlite";
  /** The SQLite file fixture.sql is run in, relative to the project. */
  file?: string;
}

export const doctorFixtures = () =>
  readdirSync(fixture("doctor")).filter((name) => existsSync(fixture("doctor", name, "fixture.json")));

export const readMeta = (name: string): FixtureMeta =>
  JSON.parse(readFileSync(fixture("doctor", name, "fixture.json"), "utf8")) as FixtureMeta;

/** Renames dot-x to .x: a fixture's own .gitignore or .env must not act on this repository. */
function restoreDotfiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) restoreDotfiles(path);
    else if (name.startsWith("dot-")) renameSync(path, join(dir, `.${name.slice(4)}`));
  }
}

export const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=fixture", "-c", "user.email=fixture@example.com", ...args], {
    cwd: dir,
    stdio: "pipe",
  });

/** A copy of fixtures/<folder>/<name> to run doctor in. */
export function copyProject(name: string, meta: Partial<FixtureMeta> = {}, folder = "doctor"): string {
  const dir = tempDir("create-auth-doctor-");
  cpSync(fixture(folder, name), dir, { recursive: true });
  restoreDotfiles(dir);
  for (const file of readdirSync(dir).filter((n) => n.startsWith(".env"))) chmodSync(join(dir, file), 0o600);
  for (const [file, mode] of Object.entries(meta.modes ?? {})) chmodSync(join(dir, file), Number.parseInt(mode, 8));
  if (meta.git) {
    git(dir, "init", "-q");
    git(dir, "add", ".");
    if (meta.git !== true) git(dir, "add", "-f", ...meta.git.force);
    git(dir, "commit", "-q", "-m", "fixture");
  }
  return dir;
}

export interface JsonReport {
  findings: { id: string; severity: string; security?: true; message: string; fix: string; file?: string }[];
  fixed?: string[];
  summary: { errors: number; warnings: number; info: number };
}

/** Variables doctor reads that the machine running the tests might have set: blank is unset to doctor. */
const machineEnv = Object.fromEntries(
  Object.keys(process.env)
    .filter((name) => /^(?:AUTH_|NEXTAUTH_|DATABASE_URL$|VERCEL$|CF_PAGES$|NEXT_PUBLIC_|PUBLIC_|VITE_)/.test(name))
    .map((name) => [name, ""]),
);

/** doctor --json in `dir`, parsed. */
export async function doctorJson(dir: string, args: string[] = [], env: Record<string, string> = {}) {
  const result = await inProcess(["doctor", "--dir", dir, "--json", ...args], { env: { ...machineEnv, ...env } });
  let report: JsonReport | undefined;
  try {
    report = JSON.parse(result.stdout) as JsonReport;
  } catch {
    throw new Error(`doctor printed no JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
  return { ...result, report };
}

/** The ids of the errors and warnings, sorted. */
export const problemIds = (report: JsonReport) =>
  [...new Set(report.findings.filter((f) => f.severity !== "info").map((f) => f.id))].sort();

/** A project `create-auth init` just wrote (nothing installed). */
export async function freshInit(framework: string, backend: string, ...extra: string[]) {
  const dir = tempDir("create-auth-doctor-init-");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "app", private: true })}\n`);
  const init = await inProcess([
    "init",
    "--yes",
    "--no-install",
    "--dir",
    dir,
    "--framework",
    framework,
    "--backend",
    backend,
    "--providers",
    "credentials,email,passkey",
    ...extra,
  ]);
  expect(init.exitCode, init.stderr).toBe(0);
  return dir;
}
