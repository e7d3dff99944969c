/**
 * Creates the auth tables: applies a generated schema.<dialect>.sql (every
 * statement CREATE ... IF NOT EXISTS, so applying it again changes nothing)
 * to the database the project's adapter uses, with the connection from the
 * environment, else the env files, read as the app and the generated
 * load-env module read them (project-env.ts). The driver is the project's own
 * (its node_modules), the one the adapter will use; create-auth ships none.
 * What differs by dialect (the variable, the URL schemes, connecting and
 * applying) is its module's, in dialects/.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type Dialect, dialects } from "../../catalog/sql-dialects.js";
import { CliError, ExitCode, UsageError } from "../../lib/errors.js";
import { posixRelative } from "../../lib/posix-path.js";
import { describeConnectionUrl } from "../../lib/urls.js";
import { type EnvOrder, envModeOf, type ProjectEnv } from "../../render/project-env.js";
import { listFiles } from "../../workspace/auth-setup/walk.js";
import { readIfExists } from "../../workspace/plan.js";
import { readProjectEnv } from "../../workspace/read-env.js";
import { type AddedColumn, type SqlDialect, sqlDialects, urlProblem } from "./dialects/index.js";

interface MigrateResult {
  dialect: Dialect;
  /** Where, without credentials: a file path, or host:port/database. */
  target: string;
  /** The target is a file (an embedded database), not a server. */
  file: boolean;
}

/** The dialect a schema file is for, from its name (schema.postgres.sql). */
export function dialectOfSchema(path: string): Dialect | undefined {
  const match = /^schema\.(\w+)\.sql$/.exec(basename(path));
  return dialects.find((d) => d === match?.[1]);
}

/** The project's env files as its app loads them: its framework's order, in the mode NODE_ENV names. */
export function migrateEnv(root: string, environment: NodeJS.ProcessEnv, order: EnvOrder): ProjectEnv {
  return readProjectEnv(root, { order, mode: envModeOf(environment), environment });
}

/** "the environment or .env.development.local, .env.local, .env.development, .env": where a variable was looked for. */
const searched = (env: ProjectEnv) => `the environment or ${env.names.join(", ")}`;

/**
 * A connection variable's value and where it comes from; undefined when it
 * is nowhere. Set empty, it is what the app would get too: a usage error.
 */
function connectionSetting(
  env: ProjectEnv,
  name: string,
  example: string,
): { value: string; source: string } | undefined {
  const setting = env.get(name);
  if (setting?.value === "")
    throw new UsageError(
      `${name} is set empty in ${setting.source === "environment" ? "the environment" : setting.source}, which wins over the other env files; set it to ${example}.`,
    );
  return setting;
}

const unreachable = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN"]);

/** The database's error as one line that says what to do; `source` is where its connection came from. */
function explain(error: unknown, dialect: SqlDialect, target: string, source = "your env files"): never {
  // Ours already says what to do (a driver not installed).
  if (error instanceof CliError) throw error;
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const server = dialect.title;
  if (code && unreachable.has(code)) {
    throw new CliError(
      `Cannot reach ${server} at ${target} (${code}): start the server, or fix ${dialect.variable} in ${source}.`,
      { exitCode: ExitCode.failed },
    );
  }
  const message = String(e.message ?? error).split("\n")[0];
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY") {
    throw new UsageError(
      `Cannot write the ${server} file ${target}: ${message}.`,
      `Check that its folder exists and that you may write there, or point ${dialect.variable} elsewhere.`,
    );
  }
  throw new CliError(`${server} refused the auth schema at ${target}: ${message}`, {
    exitCode: ExitCode.failed,
  });
}

/**
 * Columns added to a table after it was first generated: CREATE TABLE IF NOT
 * EXISTS leaves an older table as it is, so migrate adds what it lacks.
 */
const addedColumns: readonly AddedColumn[] = [{ table: "users", column: "passwordHash", type: "TEXT" }];

/** Applies `schemaPath` (relative to `root`) and resolves to where it went. */
export async function applySchema(
  root: string,
  schemaPath: string,
  env: NodeJS.ProcessEnv,
  order: EnvOrder,
): Promise<MigrateResult> {
  const file = resolve(root, schemaPath);
  const id = dialectOfSchema(file);
  if (!id)
    throw new UsageError(
      `${schemaPath}: not a generated auth schema (expected ${dialects
        .map((d) => `schema.${d}.sql`)
        .join(", ")
        .replace(/, (?=[^,]*$)/, " or ")}).`,
    );
  const dialect = sqlDialects[id];
  const script = readIfExists(file);
  if (script === null) throw new UsageError(`${schemaPath}: no such file; run create-auth init first.`);

  // An ORM's schema names the variable its client connects with (Prisma: DATABASE_URL, a file: URL on SQLite).
  const directive = /^-- connection: (\w+)(?: \(paths relative to (\S+)\))?$/m.exec(script);
  const added = directive ? [] : addedColumns;
  const projectEnv = migrateEnv(root, env, order);
  if (dialect.embedded) {
    const named = directive ? connectionSetting(projectEnv, directive[1]!, "file:./dev.db") : undefined;
    if (directive && !named)
      throw new UsageError(`${directive[1]} is not set (in ${searched(projectEnv)}); set it to file:./dev.db.`);
    const path = resolve(
      root,
      directive?.[2] ?? ".",
      named?.value.replace(/^file:/, "") ??
        connectionSetting(projectEnv, dialect.variable, dialect.example)?.value ??
        dialect.example,
    );
    if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(
        `Cannot write the ${dialect.title} file ${path}: its folder does not exist.`,
        `Create the folder, or point ${dialect.variable} elsewhere.`,
      );
    }
    // A database file exists only once its schema applies: one that was not there goes again on a failure.
    const existed = existsSync(path);
    try {
      await dialect.apply(root, path, script, added);
    } catch (error) {
      if (!existed)
        for (const file of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
      explain(error, dialect, path);
    }
    return { dialect: id, target: path, file: true };
  }

  const variable = dialect.variable;
  const setting = connectionSetting(projectEnv, variable, "your database's connection string");
  if (!setting)
    throw new UsageError(
      `${variable} is not set (in ${searched(projectEnv)}); set it to your database's connection string.`,
    );
  const url = setting.value;
  const source = setting.source === "environment" ? "the environment" : setting.source;
  // Refused here, naming the variable and where it is set: the drivers would say only "Invalid URL".
  const problem = urlProblem(dialect, url);
  if (problem)
    throw new UsageError(
      `${variable} in ${source} is not a connection string for ${dialect.title}: ${problem}.`,
      `Set it to one such as ${dialect.example}; nothing was changed.`,
    );
  const target = describeConnectionUrl(url, variable);
  try {
    await dialect.apply(root, url, script, added);
  } catch (error) {
    explain(error, dialect, target, source);
  }
  return { dialect: id, target, file: false };
}

/** The first line of every schema script init writes (templates/schemas/sql/schema.sql.hbs). */
const generatedHeader = /^-- Auth tables for .*, generated by create-auth\./;

/**
 * The auth schema scripts create-auth generated: in the folders init writes
 * the adapter to (and `extraDirs`, such as the adapter's own), else wherever
 * in the package a schema.<dialect>.sql starts with the generated header
 * (init puts them beside the auth modules, which each framework places its way).
 */
export function findSchemaScripts(root: string, extraDirs: readonly string[] = []): string[] {
  const places = [...new Set(["auth", "src/auth", "src/lib/server/auth", ...extraDirs])];
  const known = places.flatMap((dir) =>
    dialects.map((d) => `${dir}/schema.${d}.sql`).filter((path) => existsSync(join(root, path))),
  );
  if (known.length) return known;
  const named = new Set(dialects.map((d) => `schema.${d}.sql`));
  return listFiles(root, (name) => named.has(name))
    .files.filter((path) => generatedHeader.test(readFileSync(path, "utf8").slice(0, 200)))
    .map((path) => posixRelative(root, path));
}
