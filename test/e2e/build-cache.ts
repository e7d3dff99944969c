/**
 * A production build reused while everything it reads is the same.
 *
 * A framework's build (`next build`, `vite build`, `npm run build`) of a test
 * app takes 5 to 60 s and is a function of its inputs: the project's files,
 * the packages installed, the Node and the environment it runs with. The
 * first build of a set of inputs runs for real; what it added to the project
 * is kept in .cache/builds/<key>, and a later build of the same inputs lays
 * that over the copy instead of building again. A change to create-auth's
 * output, a fixture, a package or the Node makes a new key, so what a test
 * starts is always the build of exactly what it has.
 *
 * Three inputs change on every run without changing what a build makes: the
 * random port in a URL and the random AUTH_SECRET that init writes, and the
 * project's temporary folder. So env files count by their variable names, not
 * their values, and a build that copied a value only they hold into its output
 * is never reused (it depends on the value); the folder, in the inputs and in
 * what the build made (Next.js's server files name it), is kept as a token and
 * written back as the new copy's. CREATE_AUTH_TEST_FRESH_BUILDS=1 builds every time.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { root } from "../helpers.js";

export interface BuildResult {
  exitCode: number | undefined;
  all: string;
  /** Whether the files came from an earlier build of the same inputs. */
  reused: boolean;
}

const defaultCacheDir = join(root, ".cache/builds");
/** Entries not used for this long are removed when a new one is stored. */
const keepMs = 7 * 24 * 3600 * 1000;
/** What a build writes that a server never reads, and that holds absolute paths. */
const notKept = [/^\.next\/cache\//, /^\.next\/trace$/, /^node_modules\/\.cache\//];
const envFile = /(^|\/)\.env(\.[\w.-]+)?$/;
const sqliteHeader = Buffer.from("SQLite format 3\0");
/** A shell's own bookkeeping, which differs with where the run was started from; no build reads it. */
const shellOnly = new Set(["PWD", "OLDPWD", "_", "SHLVL"]);
/**
 * What the framework's tools generate from the sources before a build and the build makes again (SvelteKit's
 * sync, with the time in its version; Vite's dev dependency cache): outputs, not inputs.
 */
const regenerated = [/^\.svelte-kit\//, /^node_modules\/\.vite\//];

/** The project's files a build reads or writes: all but node_modules, whose state is its lockfile's. */
function projectFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(dir, at), { withFileTypes: true })) {
      const path = at ? `${at}/${entry.name}` : entry.name;
      if (path === "node_modules") {
        // npm's record of what is installed, and the caches tools keep there.
        if (existsSync(join(dir, "node_modules/.package-lock.json"))) files.push("node_modules/.package-lock.json");
        for (const tool of [".vite", ".prisma"])
          if (existsSync(join(dir, "node_modules", tool))) walk(`node_modules/${tool}`);
        continue;
      }
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(path);
    }
  };
  walk("");
  return files.sort();
}

/** An env file as the key sees it: its variable names, one per line. */
const envNames = (text: string) =>
  text
    .split("\n")
    .map((line) => /^\s*(?:export\s+)?([\w.-]+)\s*=/.exec(line)?.[1])
    .filter(Boolean)
    .join("\n");

/** Where a file named the project's folder: put back as the folder of the copy it is laid over. */
const projectToken = "<<create-auth build cache: project folder>>";

/** Text with the project's folder (as given, and with links resolved) written as projectToken. */
function asProjectToken(dir: string): (text: string) => string {
  const folders = [...new Set([realpathSync(dir), dir])];
  return (text) => folders.reduce((t, folder) => t.split(folder).join(projectToken), text);
}

/** Each input of a build, by name, with a digest of it: what the key is made from, kept beside the build. */
function inputsOf(dir: string, command: string[], env: Record<string, string>): Record<string, string> {
  const digest = (text: string | Buffer) => createHash("sha256").update(text).digest("hex").slice(0, 16);
  const local = asProjectToken(dir);
  const inputs: Record<string, string> = { node: process.version, command: JSON.stringify(command.map(local)) };
  for (const name of Object.keys(env).sort())
    if (!shellOnly.has(name)) inputs[`env ${name}`] = digest(local(env[name]!));
  for (const file of projectFiles(dir)) {
    if (regenerated.some((pattern) => pattern.test(file))) continue;
    if (lstatSync(join(dir, file)).isSymbolicLink()) {
      inputs[file] = `link to ${local(readlinkSync(join(dir, file)))}`;
      continue;
    }
    const bytes = readFileSync(join(dir, file));
    // What framework tools generate before a build (.svelte-kit's tsconfig) may name the folder.
    const text = bytes.toString("latin1");
    inputs[file] = digest(
      envFile.test(file)
        ? envNames(bytes.toString("utf8"))
        : bytes.subarray(0, sqliteHeader.length).equals(sqliteHeader)
          ? sqliteShape(join(dir, file))
          : local(text) === text
            ? bytes
            : local(text),
    );
  }
  return inputs;
}

const keyOf = (inputs: Record<string, string>) =>
  createHash("sha256")
    .update(`build-cache-1\0${JSON.stringify(inputs)}`)
    .digest("hex")
    .slice(0, 24);

/**
 * A SQLite database as the key sees it: its tables and how many rows each holds, not the bytes, which
 * carry the time its migrations ran.
 */
function sqliteShape(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all() as {
      type: string;
      name: string;
      sql: string | null;
    }[];
    return tables
      .map((t) => {
        const rows =
          t.type === "table"
            ? db.prepare(`SELECT COUNT(*) AS n FROM "${t.name.replaceAll('"', '""')}"`).get()
            : undefined;
        return `${t.sql ?? t.name} ${(rows as { n: number } | undefined)?.n ?? ""}`;
      })
      .join("\n");
  } finally {
    db.close();
  }
}

type Stamp = string;
const stampOf = (path: string): Stamp => {
  const s = lstatSync(path);
  return `${s.size}:${s.mtimeMs}:${s.ino}`;
};

/**
 * The values of the project's env files that a build could only have taken from them: long enough to be
 * recognised, and found in no other file of the project (a default in its source is part of the key).
 */
function envOnlyValues(dir: string, made: Set<string>): Map<string, string> {
  const values = new Map<string, string>();
  const files = projectFiles(dir).filter((file) => !made.has(file) && !lstatSync(join(dir, file)).isSymbolicLink());
  for (const file of files.filter((f) => envFile.test(f)))
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      const [, name, value] = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*["']?([^"'\s#]+)/.exec(line) ?? [];
      if (name && value && value.length >= 12) values.set(value, name);
    }
  for (const file of files.filter((f) => !envFile.test(f))) {
    const text = readFileSync(join(dir, file), "latin1");
    for (const value of values.keys()) if (text.includes(value)) values.delete(value);
  }
  return values;
}

interface Kept {
  /** The files the build added or changed, their project's folder written as projectToken. */
  files: Map<string, Buffer>;
  /** The symbolic links it made (Next.js links the packages a server bundle leaves out), by target. */
  links: Record<string, string>;
  removed: string[];
}

/**
 * What the build made, ready to keep; or why it cannot serve another copy: it holds a value of an env file
 * (the key has their names only), or the project's folder where it cannot be rewritten (not text).
 */
function keepable(dir: string, made: string[], removed: string[]): Kept | string {
  const relocated = asProjectToken(dir);
  const values = envOnlyValues(dir, new Set(made));
  const files = new Map<string, Buffer>();
  const links: Record<string, string> = {};
  for (const file of made) {
    if (lstatSync(join(dir, file)).isSymbolicLink()) {
      links[file] = relocated(readlinkSync(join(dir, file)));
      continue;
    }
    const bytes = readFileSync(join(dir, file));
    const latin1 = bytes.toString("latin1");
    for (const [value, name] of values)
      if (latin1.includes(value)) return `${file} holds the value of ${name} from an env file`;
    if (relocated(latin1) === latin1) {
      files.set(file, bytes);
      continue;
    }
    const text = bytes.toString("utf8");
    if (!Buffer.from(text, "utf8").equals(bytes)) return `${file} holds the project's folder and is not text`;
    files.set(file, Buffer.from(relocated(text)));
  }
  return { files, links, removed };
}

function store(cacheDir: string, key: string, kept: Kept, output: string, inputs: Record<string, string>): void {
  mkdirSync(cacheDir, { recursive: true });
  const staging = join(cacheDir, `.${key}-${process.pid}-${Date.now()}`);
  for (const [file, bytes] of kept.files) {
    mkdirSync(dirname(join(staging, "files", file)), { recursive: true });
    writeFileSync(join(staging, "files", file), bytes);
  }
  writeFileSync(join(staging, "build.json"), JSON.stringify({ removed: kept.removed, links: kept.links, output }));
  writeFileSync(join(staging, "inputs.json"), JSON.stringify(inputs, null, 1));
  try {
    renameSync(staging, join(cacheDir, key));
  } catch {
    // Another test stored the same build first.
    rmSync(staging, { recursive: true, force: true });
  }
  for (const entry of readdirSync(cacheDir)) {
    const path = join(cacheDir, entry);
    if (Date.now() - statSync(path).mtimeMs > keepMs) rmSync(path, { recursive: true, force: true });
  }
}

/** An entry's build.json. */
interface StoredBuild {
  removed: string[];
  links: Record<string, string>;
  output: string;
}

/** What an entry keeps, or undefined when it cannot be read (a disk that filled, a hand edit): then it is built again. */
function readEntry(entry: string): StoredBuild | undefined {
  try {
    const stored = JSON.parse(readFileSync(join(entry, "build.json"), "utf8")) as StoredBuild;
    const { removed, links, output } = stored ?? {};
    if (Array.isArray(removed) && links !== null && typeof links === "object" && typeof output === "string")
      return stored;
  } catch {
    // unreadable: below
  }
  rmSync(entry, { recursive: true, force: true });
  return undefined;
}

function restore(entry: string, dir: string, { removed, links, output }: StoredBuild): BuildResult {
  for (const file of removed) rmSync(join(dir, file), { force: true });
  const token = Buffer.from(projectToken);
  const files = join(entry, "files");
  for (const file of existsSync(files) ? projectFiles(files) : []) {
    const bytes = readFileSync(join(files, file));
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(
      join(dir, file),
      bytes.includes(token) ? bytes.toString("utf8").split(projectToken).join(dir) : bytes,
    );
  }
  for (const [file, target] of Object.entries(links)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    rmSync(join(dir, file), { force: true });
    symlinkSync(target.split(projectToken).join(dir), join(dir, file));
  }
  // Marks the entry used, for the pruning in store().
  writeFileSync(join(entry, "used"), new Date().toISOString());
  return { exitCode: 0, all: `(the build of these exact inputs, made on an earlier run)\n${output}`, reused: true };
}

/**
 * Runs `build` in `dir` (which runs `command` with `env`), or lays over `dir` what the same build of the
 * same inputs made before. Only a build that succeeded is kept.
 */
export async function cachedBuild(
  dir: string,
  command: string[],
  env: Record<string, string>,
  build: () => Promise<{ exitCode?: number; all?: string }>,
  cacheDir = defaultCacheDir,
): Promise<BuildResult> {
  const fresh = process.env.CREATE_AUTH_TEST_FRESH_BUILDS === "1";
  const inputs = inputsOf(dir, command, env);
  const key = keyOf(inputs);
  const entry = join(cacheDir, key);
  const stored = fresh || !existsSync(join(entry, "build.json")) ? undefined : readEntry(entry);
  if (stored) return restore(entry, dir, stored);
  const before = new Map(projectFiles(dir).map((file) => [file, stampOf(join(dir, file))]));
  const result = await build();
  const output = result.all ?? "";
  if (result.exitCode !== 0) return { exitCode: result.exitCode, all: output, reused: false };
  const after = projectFiles(dir);
  const made = after.filter(
    (file) => before.get(file) !== stampOf(join(dir, file)) && !notKept.some((pattern) => pattern.test(file)),
  );
  const present = new Set(after);
  const removed = [...before.keys()].filter((file) => !present.has(file));
  const kept = keepable(dir, made, removed);
  if (typeof kept === "string") console.log(`[build cache] not kept: ${kept}`);
  else store(cacheDir, key, kept, output, inputs);
  return { exitCode: 0, all: output, reused: false };
}
