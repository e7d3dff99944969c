/**
 * Creates the auth tables: applies a generated schema.<dialect>.sql (every
 * statement CREATE ... IF NOT EXISTS, so applying it again changes nothing)
 * to the database the project's adapter uses, with the connection from the
 * environment, else the env files, read as the app and the generated
 * load-env module read them (project-env.ts). The driver is the project's own
 * (its node_modules), the one the adapter will use; create-auth ships none.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { type Dialect, dialects } from "../catalog/sql-dialects.js";
import { CliError, ExitCode, UsageError } from "../lib/errors.js";
import { posixRelative } from "../lib/posix-path.js";
import { connectionExample, connectionUrlProblem } from "../lib/urls.js";
import { type EnvOrder, envModeOf, type ProjectEnv } from "../render/project-env.js";
import { listFiles } from "./auth-setup/walk.js";
import { readIfExists } from "./plan.js";
import { readProjectEnv } from "./read-env.js";

interface MigrateResult {
  dialect: Dialect;
  /** Where, without credentials: a file path, or host:port/database. */
  target: string;
}

const serverNames: Record<Dialect, string> = { postgres: "PostgreSQL", mysql: "MySQL/MariaDB", sqlite: "SQLite" };

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

function loadDriver<T>(root: string, name: string): T {
  const require = createRequire(join(root, "package.json"));
  try {
    return require(name) as T;
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    throw new CliError(`${name} is not installed in ${root}; install the dependencies first (npm install).`, {
      exitCode: ExitCode.usage,
    });
  }
}

/** host:port/database of a connection URL, never its user or password. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

const unreachable = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "ECONNRESET", "EAI_AGAIN"]);

/** The database's error as one line that says what to do; `source` is where its connection came from. */
function explain(error: unknown, dialect: Dialect, target: string, source = "your env files"): never {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const server = serverNames[dialect];
  if (code && unreachable.has(code)) {
    throw new CliError(
      `Cannot reach ${server} at ${target} (${code}): start the server, or fix DATABASE_URL in ${source}.`,
      { exitCode: ExitCode.failed },
    );
  }
  const message = String(e.message ?? error).split("\n")[0];
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY") {
    throw new UsageError(
      `Cannot write the SQLite file ${target}: ${message}.`,
      "Check that its folder exists and that you may write there, or point AUTH_DATABASE_PATH elsewhere.",
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
const addedColumns = [{ table: "users", column: "passwordHash", type: "TEXT" }] as const;

type MysqlConnection = { query(sql: string): Promise<unknown>; end(): Promise<void> };
type MysqlDriver = { createConnection(o: object): Promise<MysqlConnection> };

/**
 * mysql2, the driver init's own adapter uses; else mariadb, the one a Prisma 7
 * project has (through @prisma/adapter-mariadb), which speaks to MySQL too.
 */
function openMysql(root: string, url: string): Promise<MysqlConnection> {
  const resolvable = (name: string) => {
    try {
      createRequire(join(root, "package.json")).resolve(name);
      return true;
    } catch {
      return false;
    }
  };
  if (resolvable("mysql2") || !resolvable("mariadb"))
    return loadDriver<MysqlDriver>(root, "mysql2/promise").createConnection({
      uri: url,
      multipleStatements: true,
      connectTimeout: 10_000,
    });
  const u = new URL(url);
  return loadDriver<MysqlDriver>(root, "mariadb").createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    multipleStatements: true,
    connectTimeout: 10_000,
  });
}

/** Applies `schemaPath` (relative to `root`) and resolves to where it went. */
export async function applySchema(
  root: string,
  schemaPath: string,
  env: NodeJS.ProcessEnv,
  order: EnvOrder,
): Promise<MigrateResult> {
  const file = resolve(root, schemaPath);
  const dialect = dialectOfSchema(file);
  if (!dialect)
    throw new UsageError(
      `${schemaPath}: not a generated auth schema (expected schema.postgres.sql, schema.mysql.sql or schema.sqlite.sql).`,
    );
  const script = readIfExists(file);
  if (script === null) throw new UsageError(`${schemaPath}: no such file; run create-auth init first.`);

  // An ORM's schema names the variable its client connects with (Prisma: DATABASE_URL, a file: URL on SQLite).
  const directive = /^-- connection: (\w+)(?: \(paths relative to (\S+)\))?$/m.exec(script);
  const projectEnv = migrateEnv(root, env, order);
  if (dialect === "sqlite") {
    const named = directive ? connectionSetting(projectEnv, directive[1]!, "file:./dev.db") : undefined;
    if (directive && !named)
      throw new UsageError(`${directive[1]} is not set (in ${searched(projectEnv)}); set it to file:./dev.db.`);
    const path = resolve(
      root,
      directive?.[2] ?? ".",
      named?.value.replace(/^file:/, "") ??
        connectionSetting(projectEnv, "AUTH_DATABASE_PATH", "./auth.db")?.value ??
        "./auth.db",
    );
    type Sqlite = new (
      path: string,
    ) => { exec(sql: string): void; close(): void; prepare(sql: string): { all(): { name: string }[] } };
    const Database = loadDriver<Sqlite>(root, "better-sqlite3");
    if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(
        `Cannot write the SQLite file ${path}: its folder does not exist.`,
        "Create the folder, or point AUTH_DATABASE_PATH elsewhere.",
      );
    }
    // A database file exists only once its schema applies: one that was not there goes again on a failure.
    const existed = existsSync(path);
    let db: InstanceType<Sqlite> | undefined;
    try {
      db = new Database(path);
      db.exec(script);
      for (const { table, column, type } of directive ? [] : addedColumns) {
        const columns = db.prepare(`PRAGMA table_info(${table})`).all();
        if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN "${column}" ${type}`);
      }
      db.close();
    } catch (error) {
      db?.close();
      if (!existed)
        for (const file of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
      explain(error, dialect, path);
    }
    return { dialect, target: path };
  }

  const setting = connectionSetting(projectEnv, "DATABASE_URL", "your database's connection string");
  if (!setting)
    throw new UsageError(
      `DATABASE_URL is not set (in ${searched(projectEnv)}); set it to your database's connection string.`,
    );
  const url = setting.value;
  const source = setting.source === "environment" ? "the environment" : setting.source;
  // Refused here, naming the variable and where it is set: the drivers would say only "Invalid URL".
  const problem = connectionUrlProblem(url, dialect);
  if (problem)
    throw new UsageError(
      `DATABASE_URL in ${source} is not a connection string for ${serverNames[dialect]}: ${problem}.`,
      `Set it to one such as ${connectionExample(dialect)}; nothing was changed.`,
    );
  const target = describeUrl(url);
  if (dialect === "postgres") {
    type Pg = {
      Client: new (
        o: object,
      ) => { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> };
    };
    const pg = loadDriver<Pg & { default?: Pg }>(root, "pg");
    const client = new (pg.default ?? pg).Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      await client.query(script);
      for (const { table, column, type } of directive ? [] : addedColumns)
        await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS "${column}" ${type}`);
    } catch (error) {
      explain(error, dialect, target, source);
    } finally {
      await client.end().catch(() => undefined);
    }
    return { dialect, target };
  }
  let connection: MysqlConnection | undefined;
  try {
    connection = await openMysql(root, url);
    await connection.query(script);
    for (const { table, column, type } of directive ? [] : addedColumns) {
      // MySQL 8 has no ADD COLUMN IF NOT EXISTS (MariaDB has): ask the catalog first.
      const [rows] = (await connection.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = '${table}' AND column_name = '${column}'`,
      )) as [unknown[], unknown];
      if (rows.length === 0) await connection.query(`ALTER TABLE ${table} ADD COLUMN \`${column}\` ${type}`);
    }
  } catch (error) {
    explain(error, dialect, target, source);
  } finally {
    await connection?.end().catch(() => undefined);
  }
  return { dialect, target };
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
