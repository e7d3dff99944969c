/**
 * What a SQL dialect is to create-auth, in one place per dialect
 * (postgres.ts, mysql.ts, sqlite.ts beside this file): its names, driver,
 * connection variable and URL schemes, the column types and quoting the
 * generated schema and adapter use, and what migrate and doctor do with a
 * database of it (apply a schema, read its columns).
 */
import type { DependencyName } from "../../../catalog/dependencies.js";
import type { Dialect } from "../../../catalog/sql-dialects.js";
import type { ServerUrls } from "../../../lib/urls.js";
import type { IgnoreEntry } from "../../../render/gitignore.js";

/** Table -> its column names, as a database reports them. */
export type Columns = Record<string, string[]>;

/** A column added to a table after it was first generated, which migrate adds where an older table lacks it. */
export interface AddedColumn {
  table: string;
  column: string;
  type: string;
}

/**
 * What the generated schema (templates/schemas/sql/schema.sql.hbs) prints
 * differently per dialect: column types, table options and how a table
 * refers to its user and indexes its expiry. Line lists print one line each.
 */
export interface SchemaText {
  /** Comment lines under the header, saying what this dialect stores how. */
  notes: readonly string[];
  varchar: string;
  text: string;
  timestamp: string;
  bigint: string;
  boolean: string;
  json: string;
  tableOptions: string;
  /** Follows a `"userId" ... NOT NULL` column: its reference to users, where the column can carry it. */
  userReference: string;
  /** Follows a table's last column or key: the reference to users as a table constraint, where the column cannot carry it. */
  userForeignKey: string;
  /** Follows attempt_counters' last column: the expiry index inside the table. */
  expiresIndex: string;
  /** Statements after attempt_counters: the expiry index as a statement of its own. */
  expiresIndexStatements: readonly string[];
}

/** The query layer the generated SQL adapter runs on (db.ts). Line lists print one line each. */
export interface DbText {
  /** Header comment lines: the driver, the connection and what it does for this server. */
  notes: readonly string[];
  /** The driver's import. */
  imports: readonly string[];
  /** Members of the Db interface only this dialect has. */
  transactionMember: readonly string[];
  /** An arrow body quoting `name` as an identifier. */
  quote: string;
  /** An arrow function: bind placeholder `n` (1-based). */
  placeholder: string;
  /** More parameters of build(), after `rest`. */
  buildParameters: string;
  /** More entries of the object build() returns, after `query`. */
  transactionEntry: readonly string[];
  /** build()'s update and remove: one that returns the changed row. */
  writeMethods: readonly string[];
  /** isMissingTable()'s body after reading `e`: whether the error means the tables are missing. */
  missingTable: readonly string[];
  /** Appended to "never connects to the database": what else opening would do. */
  lazyOpens: string;
  /** Appended to the sentence saying `create: true` is for the schema scripts. */
  createOnly: string;
}

/**
 * What the generated adapter, two-factor store and verify module
 * (templates/adapters/) print differently per dialect: how dates, booleans
 * and JSON cross the driver, and the statement that counts sign-in attempts.
 */
export interface AdapterText {
  /** What db.ts (templates/adapters/db.ts.hbs, beside its partials/db-<id>.hbs) prints for this dialect. */
  db: DbText;
  /** Comment lines at the end of the adapter's header, on what the driver returns. */
  notes: readonly string[];
  /** An expression turning `date` (Date | null | undefined) into what the driver stores. */
  toDbDate: string;
  /** An expression turning `date` (a Date) into what the driver stores. */
  dateToDb: string;
  /** An expression turning `value` (a boolean) into what the driver stores. */
  toDbBoolean: string;
  /** What a stored date is, as the adapter's comment names it. */
  storedDate: string;
  /** The TypeScript type a stored date comes back as. */
  storedDateType: string;
  /** An expression turning `value` of a JSON column back into its value. */
  fromDbJson: string;
  /** What openDb() opens, as a comment names it ("pool (DATABASE_URL)"). */
  connection: string;
  /** What the verify module closes at teardown ("pool"). */
  closes: string;
  /** The body of incrementAttempts after `key`, `at` and `expires` are set: counts and returns the attempts. */
  incrementAttempts: readonly string[];
}

/**
 * What the generated Drizzle files (templates/orms/drizzle/) print
 * differently per dialect. Line lists print one line each.
 */
export interface DrizzleText {
  /** drizzle.config's `dialect`. */
  kit: string;
  /** The driver db.ts connects with, added to the project's dependencies. */
  driverPackage: DependencyName;
  /** An example DATABASE_URL for the Drizzle client. */
  example: string;
  /** The column builders auth-schema.ts uses: the table function, and the columns for keys, dates, integers, booleans. */
  columns: {
    table: string;
    keyColumn: string;
    date: string;
    dateOptions: string;
    int: string;
    bool: string;
    boolOptions: string;
  };
  /** auth-schema.ts's import of the column builders, and any helper they need. */
  schemaPreamble: readonly string[];
  /** db.ts's import of drizzle for this dialect's driver. */
  dbImport: string;
  /** db.ts's line that connects to `url` with `schema`. */
  dbConnect: string;
  /** Comment lines ending the adapter's header: what it replaces of the official adapter here. */
  adapterNotes: readonly string[];
  /** The line finishing incrementAttempts' insert: add one to a counter that exists. */
  upsertAttempt: string;
  /** Adapter methods that replace the official ones on this dialect. */
  adapterMethods: readonly string[];
  /** Declarations the two-factor store needs before its functions. */
  twoFactorHelpers: readonly string[];
  /** An expression: how many rows `statement` (an UPDATE or DELETE on `table`, not yet awaited) changed. */
  rowsChanged(statement: string, table: string): string;
  /**
   * Where the generated adapter reads one driver's row count (useVerificationToken): that drizzle-orm driver
   * (`drizzle-orm/<driver>`) and what of its answer is read. A project's own db on another driver is told to
   * check the adapter.
   */
  rowCountDriver?: { driver: string; reads: string };
  /** The database files a Drizzle project of this dialect keeps beside it, for .gitignore. */
  ignored: readonly IgnoreEntry[];
}

/** The SQL of Prisma's migration of the auth models on this dialect (`auth:tables`: prisma/models.ts). */
export interface PrismaSql {
  /** The column type of each Prisma scalar, of a long text, and of a wide (indexed) string where not String's. */
  types: { String: string; DateTime: string; Int: string; Boolean: string; long: string; wide?: string };
  /** `@default(now())` as a column default. */
  now: string;
  /** Follows a CREATE TABLE's closing parenthesis. */
  tableOptions: string;
  /** Unique keys and indexes inside CREATE TABLE, where the dialect has no CREATE INDEX IF NOT EXISTS; else statements after it. */
  keysInTable: boolean;
}

/** Prisma on this dialect: how a schema names it, and what the generated client and adapter print for it. */
export interface PrismaText {
  /** The datasource providers that mean this dialect. */
  providers: readonly string[];
  /** An example DATABASE_URL. */
  example: string;
  /** Prisma 7's driver adapter. */
  adapterPackages: readonly DependencyName[];
  /** The client module's import of the driver adapter. */
  clientImports: readonly string[];
  /** connect()'s body through the driver adapter (Prisma 7). */
  clientConnect: readonly string[];
  /** How many of the official adapter's methods the generated one replaces, in words. */
  replacedMethods: string;
  /** Adapter methods that replace the official ones on this dialect. */
  adapterMethods: readonly string[];
  /** Native type attributes of a long text field and of a wide (indexed) string, where the default type cannot hold them. */
  nativeTypes: { long?: string; wide?: string };
  /** The database as DATABASE_URL's description names it ("MySQL or MariaDB"). */
  title: string;
  /** The database files a Prisma project of this dialect keeps beside it, for .gitignore. */
  ignored: readonly IgnoreEntry[];
  /** The auth models' tables as Prisma's migration creates them. */
  sql: PrismaSql;
}

export interface SqlDialect extends ServerUrls {
  id: Dialect;
  /** The server as the generated schema and adapter name it ("MySQL / MariaDB"). */
  schemaTitle: string;
  /** The database alone, as the ORM schemas name it ("MySQL"). */
  shortTitle: string;
  /** The variable the generated adapter connects with. */
  variable: string;
  /** An example value of `variable`, for messages. */
  example: string;
  /** A file, not a server: `variable` holds a path and no URL. */
  embedded: boolean;
  /** The module doctor loads to read the columns (the project's, else create-auth's own). */
  driver: string;
  /** Packages whose import means the auth's modules speak this dialect. */
  clientPackages: readonly string[];
  /** Prisma: the datasource providers that mean this dialect, an example DATABASE_URL, Prisma 7's driver adapter. */
  prisma: PrismaText;
  /** TypeORM's DataSource type for this dialect's driver. */
  typeormType: string;
  /** The entities module's column options for keys, timestamps, JSON and bigint, with any transformer they use; a line each. */
  typeormColumns: readonly string[];
  /** An identifier quoted, so camelCase survives. */
  quote(name: string): string;
  /** Bind placeholder number `n` (1-based). */
  placeholder(n: number): string;
  /** What the schema prints for this dialect; `q` holds the quoted camelCase columns. */
  schemaText(q: Record<string, string>): SchemaText;
  /** What the adapter templates print for this dialect. */
  adapterText: AdapterText;
  /** What the Drizzle templates print for this dialect. */
  drizzle: DrizzleText;
  /**
   * Runs `script` (CREATE ... IF NOT EXISTS) on `target` (a connection URL,
   * or a file path when embedded) with the project's driver, then adds the
   * `added` columns an older table lacks. Throws the driver's error.
   */
  apply(root: string, target: string, script: string, added: readonly AddedColumn[]): Promise<void>;
  /** Every table's columns in `target`, through `driver` (loaded by `loadDriver`). */
  readColumns(driver: unknown, target: string, timeoutMs: number): Promise<Columns>;
}

export const defineDialect = (dialect: SqlDialect): SqlDialect => dialect;

/** The schema's user references and expiry index where they are written inline and as statements (not MySQL). */
export const inlineReferences = {
  tableOptions: "",
  userReference: " REFERENCES users (id) ON DELETE CASCADE",
  userForeignKey: "",
  expiresIndex: "",
  expiresIndexStatements: ["CREATE INDEX IF NOT EXISTS attempt_counters_expires ON attempt_counters (expires);"],
} as const;

/** The TypeORM entities' transformer for BIGINT columns, which pg and mysql2 return as strings. */
export const bigintToNumber: readonly string[] = [
  "/** BIGINT comes back from the driver as a string (it may exceed 2^53); these values never do. */",
  "const bigintToNumber: ValueTransformer = {",
  "  to: (value: number | null | undefined) => value,",
  "  from: (value: string | number | null) => (value === null ? null : Number(value)),",
  "};",
];

/** db.ts's update and remove where the database hands back the written row (UPDATE/DELETE ... RETURNING *). */
export const returningWrites: readonly string[] = [
  "    async update(table, where, set) {",
  "      const s = statements(table, where, set);",
  "      if (!s.hasChanges) return findOne(table, where);",
  "      return (await query(`${s.update} RETURNING *`, s.updateParams))[0] ?? null;",
  "    },",
  "    async remove(table, where) {",
  "      const s = statements(table, where);",
  "      return (await query(`${s.delete} RETURNING *`, s.keyParams))[0] ?? null;",
  "    },",
];

/** Drizzle's connection, attempt upsert and changed-row count where the database has ON CONFLICT and RETURNING (not MySQL). */
export const returningDrizzle: Pick<
  SqlDialect["drizzle"],
  "dbConnect" | "adapterNotes" | "upsertAttempt" | "adapterMethods" | "twoFactorHelpers" | "rowsChanged"
> = {
  dbConnect: "export const db = drizzle({ connection: url, schema });",
  adapterNotes: [],
  upsertAttempt:
    "        .onConflictDoUpdate({ target: counter.id, set: { attempts: sql`${counter.attempts} + 1` } });",
  adapterMethods: [],
  twoFactorHelpers: [],
  rowsChanged: (statement, table) => `(await ${statement}.returning({ userId: ${table}.userId })).length`,
};
