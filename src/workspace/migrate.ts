/**
 * Creates the auth tables: applies a generated schema.<dialect>.sql (every
 * statement CREATE ... IF NOT EXISTS, so applying it again changes nothing)
 * to the database the project's adapter uses, with the connection from the
 * environment, else .env.local, else .env. The driver is the project's own
 * (its node_modules), the one the adapter will use; create-auth ships none.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { type Dialect, dialects } from "../catalog/backends.js";
import { CliError, ExitCode, UsageError } from "../lib/errors.js";
import { connectionExample, connectionUrlProblem } from "../lib/urls.js";
import { envValue } from "./env-file.js";
import { readIfExists } from "./plan.js";

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

/**
 * A variable from the environment, else .env.local, else .env (the order the
 * generated modules load them in), and where it was found, for messages.
 */
function projectEnvEntry(
  root: string,
  name: string,
  env: NodeJS.ProcessEnv,
): { value: string; where: string } | undefined {
  if (env[name]) return { value: env[name], where: "the environment" };
  for (const file of [".env.local", ".env"]) {
    const text = readIfExists(join(root, file));
    const value = text === null ? undefined : envValue(text, name);
    if (value) return { value, where: file };
  }
  return undefined;
}

const projectEnv = (root: string, name: string, env: NodeJS.ProcessEnv) => projectEnvEntry(root, name, env)?.value;

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

/** The database's error as one line that says what to do. */
function explain(error: unknown, dialect: Dialect, target: string): never {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const server = serverNames[dialect];
  if (code && unreachable.has(code)) {
    throw new CliError(
      `Cannot reach ${server} at ${target} (${code}): start the server, or fix DATABASE_URL in .env.local.`,
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
export async function applySchema(root: string, schemaPath: string, env: NodeJS.ProcessEnv): Promise<MigrateResult> {
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
  if (dialect === "sqlite") {
    const named = directive ? projectEnv(root, directive[1]!, env)?.replace(/^file:/, "") : undefined;
    if (directive && !named)
      throw new UsageError(
        `${directive[1]} is not set (in the environment, .env.local or .env); set it to file:./dev.db.`,
      );
    const path = resolve(
      root,
      directive?.[2] ?? ".",
      named ?? projectEnv(root, "AUTH_DATABASE_PATH", env) ?? "./auth.db",
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

  const entry = projectEnvEntry(root, "DATABASE_URL", env);
  if (!entry)
    throw new UsageError(
      "DATABASE_URL is not set (in the environment, .env.local or .env); set it to your database's connection string.",
    );
  const url = entry.value;
  // Refused here, naming the variable and where it is set: the drivers would say only "Invalid URL".
  const problem = connectionUrlProblem(url, dialect);
  if (problem)
    throw new UsageError(
      `DATABASE_URL in ${entry.where} is not a connection string for ${serverNames[dialect]}: ${problem}.`,
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
      explain(error, dialect, target);
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
    explain(error, dialect, target);
  } finally {
    await connection?.end().catch(() => undefined);
  }
  return { dialect, target };
}

/** The generated schema scripts in a project, in the places init writes them. */
export function findSchemaScripts(root: string): string[] {
  const places = ["auth", "src/lib/server/auth"];
  return places.flatMap((dir) =>
    dialects.map((d) => `${dir}/schema.${d}.sql`).filter((path) => existsSync(join(root, path))),
  );
}
