/** SQLite through better-sqlite3: a file, no server. */
import { defineDialect, inlineReferences, returningDrizzle, returningWrites } from "./dialect.js";
import { group, projectDriver } from "./drivers.js";

type Database = new (
  path: string,
  options?: object,
) => {
  exec(sql: string): void;
  close(): void;
  prepare(sql: string): { all(...a: unknown[]): { name: string; t: string; c: string }[] };
};

export const sqlite = defineDialect({
  id: "sqlite",
  title: "SQLite",
  schemaTitle: "SQLite",
  shortTitle: "SQLite",
  variable: "AUTH_DATABASE_PATH",
  example: "./auth.db",
  embedded: true,
  schemes: [],
  driver: "better-sqlite3",
  clientPackages: ["better-sqlite3"],
  prisma: {
    providers: ["sqlite"],
    example: "file:./dev.db",
    adapterPackages: ["@prisma/adapter-better-sqlite3", "better-sqlite3"],
    clientImports: ['import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";'],
    clientConnect: [
      '  const url = process.env.DATABASE_URL || "file:./dev.db";',
      "  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url }) });",
    ],
    replacedMethods: "one method",
    adapterMethods: [],
    nativeTypes: {},
    title: "SQLite",
    // The example's database file (file:./dev.db) and the journal SQLite writes beside it.
    ignored: [{ pattern: "dev.db*", paths: ["dev.db", "dev.db-journal"] }],
    sql: {
      types: { String: "TEXT", DateTime: "DATETIME", Int: "INTEGER", Boolean: "BOOLEAN", long: "TEXT" },
      now: "CURRENT_TIMESTAMP",
      tableOptions: "",
      keysInTable: false,
    },
  },
  typeormType: "better-sqlite3",
  typeormColumns: [
    "/** SQLite keeps timestamps as INTEGER milliseconds; TypeORM's own datetime type would store text. */",
    "const epochMs: ValueTransformer = {",
    "  to: (value: Date | null | undefined) => (value instanceof Date ? value.getTime() : value),",
    "  from: (value: number | null) => (value === null ? null : new Date(value)),",
    "};",
    "",
    "// Column types of the shared schema in SQLite.",
    'const key = { type: "text" } satisfies ColumnOptions;',
    'const timestamp = { type: "integer", transformer: epochMs } satisfies ColumnOptions;',
    "// simple-json is a TEXT column that TypeORM stringifies and parses.",
    'const json = { type: "simple-json" } satisfies ColumnOptions;',
    "// SQLite INTEGER is 64-bit and read back as a number.",
    'const bigint = { type: "integer" } satisfies ColumnOptions;',
  ],
  quote: (name) => `"${name}"`,
  placeholder: () => "?",
  schemaText: (q) => ({
    notes: [
      "-- Timestamps are INTEGER milliseconds since the epoch (sortable, no time zone",
      "-- questions); booleans are 0/1; session_state is TEXT holding JSON. Foreign",
      "-- keys only act when the connection runs PRAGMA foreign_keys = ON (the",
      "-- generated adapter does).",
    ],
    varchar: "TEXT",
    text: "TEXT",
    timestamp: "INTEGER",
    bigint: "INTEGER",
    boolean: `INTEGER CHECK (${q.credentialBackedUp} IN (0, 1))`,
    json: "TEXT CHECK (json_valid(session_state))",
    ...inlineReferences,
  }),
  adapterText: {
    db: {
      notes: [
        " * An embedded better-sqlite3 database, no server: the file is AUTH_DATABASE_PATH,",
        " * default ./auth.db (relative to the working directory). better-sqlite3 is",
        " * synchronous; the methods are async only so the adapter reads the same for",
        " * every database.",
      ],
      imports: ['import Database from "better-sqlite3";'],
      transactionMember: [],
      quote: '`"${name}"`',
      placeholder: '(_n: number): string => "?"',
      buildParameters: "",
      transactionEntry: [],
      writeMethods: returningWrites,
      missingTable: ['  return e?.code === "SQLITE_CANTOPEN" || /^no such table/.test(String(e?.message));'],
      lazyOpens: " or creates its file",
      createOnly: ":\n * only they may create the database file",
    },
    notes: [
      " * SQLite has no date, boolean or JSON types: dates are stored as epoch",
      " * milliseconds, booleans as 0/1 and session_state as JSON text.",
    ],
    toDbDate: "(date == null ? date : date.getTime())",
    dateToDb: "date.getTime()",
    toDbBoolean: "(value ? 1 : 0)",
    storedDate: "milliseconds",
    storedDateType: "number",
    fromDbJson: '(typeof value === "string" ? JSON.parse(value) : value)',
    connection: "(AUTH_DATABASE_PATH)",
    closes: "database file",
    incrementAttempts: [
      "      // One statement counts and answers: a live counter gains one, a missing or expired one starts again.",
      "      const [row] = await db.query(",
      '        "INSERT INTO attempt_counters (id, attempts, expires) VALUES (?, 1, ?) ON CONFLICT (id) DO UPDATE SET attempts = CASE WHEN attempt_counters.expires <= ? THEN 1 ELSE attempt_counters.attempts + 1 END, expires = CASE WHEN attempt_counters.expires <= ? THEN excluded.expires ELSE attempt_counters.expires END RETURNING attempts",',
      "        [key, expires, at, at],",
      "      );",
      "      return Number(row?.attempts);",
    ],
  },
  drizzle: {
    driverPackage: "better-sqlite3",
    example: "./dev.db",
    kit: "sqlite",
    columns: {
      table: "sqliteTable",
      keyColumn: "text",
      date: "integer",
      dateOptions: '{ mode: "timestamp_ms" }',
      int: "integer",
      bool: "integer",
      boolOptions: ', { mode: "boolean" }',
    },
    schemaPreamble: ['import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";'],
    dbImport: 'import { drizzle } from "drizzle-orm/better-sqlite3";',
    ...returningDrizzle,
    // The database file and the -wal and -shm files SQLite writes beside it.
    ignored: [{ pattern: "dev.db*", paths: ["dev.db", "dev.db-wal", "dev.db-shm"] }],
  },
  async apply(root, path, script, added) {
    const Driver = projectDriver<Database>(root, "better-sqlite3");
    const db = new Driver(path);
    try {
      db.exec(script);
      for (const { table, column, type } of added) {
        const columns = db.prepare(`PRAGMA table_info(${table})`).all();
        if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN "${column}" ${type}`);
      }
    } finally {
      db.close();
    }
  },
  async readColumns(driver, path) {
    const db = new (driver as Database)(path, { readonly: true, fileMustExist: true });
    try {
      return group(
        db
          .prepare(
            "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'",
          )
          .all(),
      );
    } finally {
      db.close();
    }
  },
});
