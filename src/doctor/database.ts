/**
 * The database checks: the connection the auth uses is set and answers, and
 * every table and column its schemas declare is there (create-auth's, the
 * ORM schema of the project, a published adapter's; SQLite files included). The driver is the
 * project's (else create-auth's own, when it has one); connections time out
 * after a few seconds, so a server that is down is a finding, not a hang.
 * Messages show host:port/database, never a user name or password.
 */
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { envValue, type ProjectFacts } from "../doctor-model/facts.js";
import { defineCheck, type Finding } from "../doctor-model/finding.js";
import { hideUrlCredentials } from "../lib/redact.js";
import { describeConnectionUrl } from "../lib/urls.js";
import { type Columns, loadDriver, sqlDialects, urlProblem } from "../storage/sql/dialects/index.js";

const urlMissing = defineCheck(
  "db.url-missing",
  "error",
  "The variable holding the database connection (DATABASE_URL) is not set.",
);
const urlInvalid = defineCheck(
  "db.url-invalid",
  "error",
  "The database connection string cannot be used (a port out of range, another server's URL, an unencoded character).",
);
const unreachable = defineCheck(
  "db.unreachable",
  "error",
  "The database server does not answer (down, wrong host or port).",
);
const authFailed = defineCheck("db.auth-failed", "error", "The database refused the user name or password.");
const databaseMissing = defineCheck(
  "db.database-missing",
  "error",
  "The database named in the connection does not exist.",
);
const tableMissing = defineCheck("db.table-missing", "error", "A table the auth schema needs is missing.");
const columnMissing = defineCheck("db.column-missing", "error", "A column the auth schema needs is missing.");
const driverMissing = defineCheck(
  "db.driver-missing",
  "warning",
  "The database driver is not installed, so the database was not checked.",
);

export const databaseChecks = [
  urlMissing,
  urlInvalid,
  unreachable,
  authFailed,
  databaseMissing,
  tableMissing,
  columnMissing,
  driverMissing,
];

/** How long a connection may take before the server counts as unreachable. */
export const connectTimeoutMs = 3_000;

const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "ECONNRESET",
  "EAI_AGAIN",
  "ENETUNREACH",
]);

function explain(error: unknown, server: string, target: string, variable: string, source: string): Finding {
  const e = error as { code?: string; errno?: number; message?: string; errors?: { code?: string }[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const detail = hideUrlCredentials(String(e.message ?? error).split("\n")[0] ?? "");
  const where = source === "environment" ? "the environment" : source;
  if ((code && unreachableCodes.has(code)) || /timeout|timed out/i.test(detail))
    return unreachable.report(
      `Cannot reach ${server} at ${target} (${code ?? "no answer"}): sign-in fails wherever it touches the database.`,
      `Start the server, or fix the host and port of ${variable} in ${where}.`,
      source === "environment" ? undefined : source,
    );
  if (code === "28P01" || code === "28000" || code === "ER_ACCESS_DENIED_ERROR" || code === "ER_DBACCESS_DENIED_ERROR")
    return authFailed.report(
      `${server} at ${target} refused the user name or password in ${variable} (${code}).`,
      `Fix the user and password in ${variable} in ${where}.`,
      source === "environment" ? undefined : source,
    );
  if (code === "3D000" || code === "ER_BAD_DB_ERROR")
    return databaseMissing.report(
      `The database ${target} does not exist on ${server} (${code}).`,
      `Create it (CREATE DATABASE ...) or fix the database name in ${variable}.`,
      source === "environment" ? undefined : source,
    );
  return unreachable.report(
    `${server} at ${target} failed: ${detail}${code ? ` (${code})` : ""}.`,
    `Check ${variable} in ${where} and that the server accepts connections.`,
    source === "environment" ? undefined : source,
  );
}

/** Missing tables and columns against the schemas: create-auth's, the project's ORM's, a published adapter's. */
function compare(found: Columns, facts: ProjectFacts, where: string): Finding[] {
  const database = facts.database!;
  const out: Finding[] = [];
  for (const [table, columns] of Object.entries(database.tables)) {
    const need = database.neededBy?.[table];
    const have = found[table];
    if (!have) {
      out.push(
        tableMissing.report(
          need && !need.reads
            ? `The table ${table} is missing in ${where}, though ${need.by} declares it.`
            : `The table ${table} is missing in ${where}: ${need?.by ?? "the adapter"}'s queries on it fail.`,
          `Run ${database.migrateCommand}.`,
        ),
      );
      continue;
    }
    const lacking = columns.filter(
      (c) => !have.includes(c) && !have.map((h) => h.toLowerCase()).includes(c.toLowerCase()),
    );
    if (lacking.length)
      out.push(
        columnMissing.report(
          `The table ${table} in ${where} lacks ${lacking.map((c) => `"${c}"`).join(", ")}${need ? `, which ${need.by} ${need.reads ? "reads" : "declares"}` : ""}.`,
          need
            ? `Run ${database.migrateCommand} so the database matches the schema again.`
            : `Run ${database.migrateCommand} (it adds the columns it knows), or ALTER TABLE ${table} ADD COLUMN ... as the generated schema has it.`,
        ),
      );
  }
  return out;
}

/** The SQLite file the connection names: the variable's value, else the schema's default; `file:` and options dropped. */
function sqlitePath(facts: ProjectFacts): string | undefined {
  const database = facts.database!;
  const value = envValue(facts, database.variable) ?? database.sqlite?.fallback;
  if (value === undefined) return undefined;
  const path = value.replace(/^file:(?:\/\/(?=\/))?/, "").replace(/\?.*$/, "");
  return resolve(facts.root, database.sqlite?.base ?? ".", path);
}

export async function checkDatabase(facts: ProjectFacts, progress: (line: string) => void): Promise<Finding[]> {
  const database = facts.database;
  if (!database) return [];
  const dialect = sqlDialects[database.dialect];
  const driverName = dialect.driver;
  const driver = loadDriver(facts.root, driverName, { orOwn: true });
  if (!driver)
    return [
      driverMissing.report(
        `${driverName.split("/")[0]} is not installed, so the database was not checked.`,
        "Install the project's dependencies (npm install), then run doctor again.",
      ),
    ];
  const server = dialect.title;
  const source = facts.env[database.variable]?.source ?? "";
  if (dialect.embedded) {
    const path = sqlitePath(facts);
    if (!path)
      return [
        urlMissing.report(
          `${database.variable} is not set, so the app does not know which SQLite file to open.`,
          `Set ${database.variable} in .env.local (and in production's environment) to the file, such as file:./dev.db.`,
        ),
      ];
    const shown = relative(facts.root, path) || path;
    const needs = Object.values(database.neededBy ?? {});
    const declares = needs.find((n) => !n.reads)?.by;
    const reads = needs.find((n) => n.reads)?.by;
    const which = declares
      ? `the tables ${declares} declares`
      : reads
        ? `the tables ${reads} reads`
        : "the auth tables";
    if (!existsSync(path))
      return [
        tableMissing.report(
          `The SQLite file ${shown} does not exist yet, so none of ${which} do.`,
          `Run ${database.migrateCommand}.`,
        ),
      ];
    progress(`Checking the tables in ${shown}...`);
    try {
      return compare(await dialect.readColumns(driver, path, connectTimeoutMs), facts, shown);
    } catch (error) {
      return [explain(error, server, shown, database.variable, source)];
    }
  }
  const url = envValue(facts, database.variable);
  if (!url)
    return [
      urlMissing.report(
        `${database.variable} is not set, so the adapter cannot reach ${server}.`,
        `Set ${database.variable} in .env.local (and in production's environment) to the connection string, such as ${dialect.example}.`,
      ),
    ];
  // Said before connecting, naming the variable: the drivers would say only "Invalid URL".
  const problem = urlProblem(dialect, url);
  if (problem) {
    const where = source === "environment" || source === "" ? "the environment" : source;
    return [
      urlInvalid.report(
        `${database.variable} in ${where} is not a connection string for ${server}: ${problem}.`,
        `Set ${database.variable} in ${where} to one such as ${dialect.example}.`,
        source === "environment" ? undefined : source || undefined,
      ),
    ];
  }
  const target = describeConnectionUrl(url, "the database");
  progress(`Connecting to ${server} at ${target}...`);
  const read: Promise<Columns> = dialect.readColumns(driver, url, connectTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
      connectTimeoutMs + 2_000,
    );
  });
  try {
    const found = await Promise.race([read, deadline]);
    if (Object.keys(database.tables).length === 0) return [];
    return compare(found, facts, `${server} at ${target}`);
  } catch (error) {
    read.catch(() => undefined);
    return [explain(error, server, target, database.variable, source)];
  } finally {
    clearTimeout(timer);
  }
}
