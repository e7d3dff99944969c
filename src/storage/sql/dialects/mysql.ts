/** MySQL and MariaDB through mysql2 (or mariadb, the driver a Prisma 7 project has). */
import { bigintToNumber, defineDialect } from "./dialect.js";
import { group, projectDriver, resolvable } from "./drivers.js";

/** Why the Prisma and Drizzle adapters' useVerificationToken is replaced on MySQL (said in both). */
const tokenUseByRowCount = [
  "    // MySQL and MariaDB have no DELETE ... RETURNING, and the official method",
  "    // reads the token, then deletes it: two simultaneous uses of one sign-in",
  "    // link both got the token and both signed in. Here the DELETE's row count",
  "    // decides: only the use that removed the row gets the token.",
];

type Connection = { query(sql: string): Promise<unknown>; end(): Promise<void> };
type Driver = { createConnection(o: object): Promise<Connection> };

/**
 * mysql2, the driver init's own adapter uses; else mariadb, the one a Prisma 7
 * project has (through @prisma/adapter-mariadb), which speaks to MySQL too.
 */
function open(root: string, url: string): Promise<Connection> {
  if (resolvable(root, "mysql2") || !resolvable(root, "mariadb"))
    return projectDriver<Driver>(root, "mysql2/promise").createConnection({
      uri: url,
      multipleStatements: true,
      connectTimeout: 10_000,
    });
  const u = new URL(url);
  return projectDriver<Driver>(root, "mariadb").createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    multipleStatements: true,
    connectTimeout: 10_000,
  });
}

export const mysql = defineDialect({
  id: "mysql",
  title: "MySQL/MariaDB",
  schemaTitle: "MySQL / MariaDB",
  shortTitle: "MySQL",
  variable: "DATABASE_URL",
  example: "mysql://user:password@host:3306/app",
  embedded: false,
  schemes: ["mysql", "mariadb"],
  driver: "mysql2/promise",
  clientPackages: ["mysql2"],
  prisma: {
    providers: ["mysql"],
    example: "mysql://root@127.0.0.1:3306/app",
    adapterPackages: ["@prisma/adapter-mariadb"],
    clientImports: ['import { PrismaMariaDb } from "@prisma/adapter-mariadb";'],
    clientConnect: [
      '  const url = process.env.DATABASE_URL ?? "";',
      "  // The mariadb driver speaks to MySQL and MariaDB alike; it reads mariadb:// URLs.",
      '  return new PrismaClient({ adapter: new PrismaMariaDb(url.replace(/^mysql:/, "mariadb:")) });',
    ],
    replacedMethods: "two methods",
    adapterMethods: [
      ...tokenUseByRowCount,
      "    async useVerificationToken({ identifier, token }) {",
      "      const found = await client.verificationToken.findUnique({",
      "        where: { identifier_token: { identifier, token } },",
      "      });",
      "      if (!found) return null;",
      "      const { count } = await client.verificationToken.deleteMany({ where: { identifier, token } });",
      "      return count === 1 ? found : null;",
      "    },",
    ],
    nativeTypes: { long: "@db.Text", wide: "@db.VarChar(255)" },
    title: "MySQL or MariaDB",
    ignored: [],
    sql: {
      // A String is VARCHAR(191), which an index of utf8mb4 holds; an email address may pass it.
      types: {
        String: "VARCHAR(191)",
        DateTime: "DATETIME(3)",
        Int: "INTEGER",
        Boolean: "BOOLEAN",
        long: "TEXT",
        wide: "VARCHAR(255)",
      },
      now: "CURRENT_TIMESTAMP(3)",
      tableOptions: " DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci",
      // MySQL has no CREATE INDEX IF NOT EXISTS (MariaDB has).
      keysInTable: true,
    },
  },
  typeormType: "mysql",
  typeormColumns: [
    ...bigintToNumber,
    "",
    "// Column types of the shared schema in MySQL.",
    'const key = { type: "varchar", length: 255 } satisfies ColumnOptions;',
    'const timestamp = { type: "datetime", precision: 3 } satisfies ColumnOptions;',
    'const json = { type: "json" } satisfies ColumnOptions;',
    "// expires_at outlives 2038 and WebAuthn counters are unsigned 32-bit: both are BIGINT.",
    'const bigint = { type: "bigint", transformer: bigintToNumber } satisfies ColumnOptions;',
  ],
  // Double quotes are strings in MySQL unless ANSI_QUOTES.
  quote: (name) => `\`${name}\``,
  placeholder: () => "?",
  schemaText: (q) => ({
    notes: [
      "-- Works on MySQL 8 and MariaDB 10.11. Tables use utf8mb4_bin so that tokens,",
      "-- credential ids and emails compare exactly (the default collation ignores",
      "-- case, which would make base64 credential ids collide). DATETIME(3) holds UTC",
      "-- (the adapter connects with timezone Z). Identifiers are at most 255",
      "-- characters so that indexes stay within InnoDB's key length. Foreign keys are",
      "-- table constraints because MySQL ignores inline REFERENCES.",
    ],
    varchar: "VARCHAR(255)",
    text: "TEXT",
    timestamp: "DATETIME(3)",
    bigint: "BIGINT",
    boolean: "BOOLEAN",
    json: "JSON",
    tableOptions: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
    userReference: "",
    userForeignKey: `,\n  FOREIGN KEY (${q.userId}) REFERENCES users (id) ON DELETE CASCADE`,
    expiresIndex: ",\n  INDEX attempt_counters_expires (expires)",
    expiresIndexStatements: [],
  }),
  adapterText: {
    db: {
      notes: [
        " * One mysql2 pool for the process, from DATABASE_URL (mysql://user:pass@host:3306/db).",
        " * Works on MySQL 8 and MariaDB 10.11: neither has UPDATE ... RETURNING (MySQL has",
        " * no DELETE ... RETURNING either), so `update` and `remove` read the row in the",
        ' * same transaction as the write. timezone "Z" keeps DATETIME values in UTC;',
        " * jsonStrings returns JSON columns as text on MySQL and MariaDB alike (MariaDB's",
        " * JSON is LONGTEXT), so the adapter parses them the same way on both.",
      ],
      imports: ['import mysql from "mysql2/promise";'],
      transactionMember: [
        "  /** Runs `work`'s statements in one transaction on one connection (rows a statement locks stay locked until it ends). */",
        "  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;",
      ],
      quote: "`\\`${name}\\``",
      placeholder: '(_n: number): string => "?"',
      buildParameters: ", transaction: <T>(work: (query: Query) => Promise<T>) => Promise<T>",
      transactionEntry: ["    transaction,"],
      writeMethods: [
        "    update(table, where, set) {",
        "      const s = statements(table, where, set);",
        "      return transaction(async (tx) => {",
        "        if (s.hasChanges) await tx(s.update, s.updateParams);",
        "        return (await tx(s.select, s.keyParams))[0] ?? null;",
        "      });",
        "    },",
        "    remove(table, where) {",
        "      const s = statements(table, where);",
        "      return transaction(async (tx) => {",
        "        // FOR UPDATE locks the row, so what is returned is exactly what is deleted.",
        "        const row = (await tx(`${s.select} FOR UPDATE`, s.keyParams))[0] ?? null;",
        "        if (row) await tx(s.delete, s.keyParams);",
        "        return row;",
        "      });",
        "    },",
      ],
      missingTable: ['  return e?.code === "ER_NO_SUCH_TABLE" || e?.errno === 1146;'],
      lazyOpens: "",
      createOnly: "",
    },
    notes: [" * BOOLEAN is TINYINT(1) and JSON comes back as text (see db.ts), so both are", " * converted here."],
    toDbDate: "date",
    dateToDb: "date",
    toDbBoolean: "value",
    storedDate: "the driver's Date",
    storedDateType: "Date",
    fromDbJson: '(typeof value === "string" ? JSON.parse(value) : value)',
    connection: "pool (DATABASE_URL)",
    closes: "pool",
    incrementAttempts: [
      "      // No RETURNING in MySQL: the count is read back in the transaction of the upsert, whose row lock keeps",
      "      // other processes' increments waiting until it ends, so this attempt's own count is what comes back.",
      "      return db.transaction(async (query) => {",
      "        // One statement counts; its assignments run in order, so both read the expiry the row had before it.",
      "        await query(",
      '          "INSERT INTO attempt_counters (id, attempts, expires) VALUES (?, 1, ?) ON DUPLICATE KEY UPDATE attempts = IF(expires <= ?, 1, attempts + 1), expires = IF(expires <= ?, ?, expires)",',
      "          [key, expires, at, at, expires],",
      "        );",
      '        const [row] = await query("SELECT attempts FROM attempt_counters WHERE id = ?", [key]);',
      "        return Number(row?.attempts ?? 1);",
      "      });",
    ],
  },
  drizzle: {
    driverPackage: "mysql2",
    example: "mysql://root@127.0.0.1:3306/app",
    kit: "mysql",
    // varchar: MySQL cannot index TEXT; fsp 3 keeps JavaScript's milliseconds.
    columns: {
      table: "mysqlTable",
      keyColumn: "key",
      date: "timestamp",
      dateOptions: '{ mode: "date", fsp: 3 }',
      int: "int",
      bool: "boolean",
      boolOptions: "",
    },
    schemaPreamble: [
      'import { boolean, index, int, mysqlTable, primaryKey, text, timestamp, varchar } from "drizzle-orm/mysql-core";',
      "",
      "/** Keys and short values: MySQL cannot index TEXT. */",
      "const key = (name: string) => varchar(name, { length: 255 });",
    ],
    dbImport: 'import { drizzle } from "drizzle-orm/mysql2";',
    dbConnect: 'export const db = drizzle({ connection: { uri: url }, schema, mode: "default" });',
    adapterNotes: [
      " *",
      " * It is the official adapter with one method replaced, where it breaks what",
      " * Auth.js expects of an adapter (`npm run verify-adapter` checks it).",
    ],
    upsertAttempt: "        .onDuplicateKeyUpdate({ set: { attempts: sql`${counter.attempts} + 1` } });",
    adapterMethods: [
      ...tokenUseByRowCount,
      "    async useVerificationToken({ identifier, token }) {",
      "      const match = and(eq(verificationTokensTable.identifier, identifier), eq(verificationTokensTable.token, token));",
      "      const [found] = await database.select().from(verificationTokensTable).where(match);",
      "      if (!found) return null;",
      "      const deleted: unknown = await database.delete(verificationTokensTable).where(match);",
      "      const header = (Array.isArray(deleted) ? deleted[0] : deleted) as { affectedRows?: number };",
      "      return header.affectedRows === 1 ? found : null;",
      "    },",
    ],
    twoFactorHelpers: [
      "/** The rows a statement changed: mysql2 answers [ResultSetHeader, fields]. */",
      "const changedRows = (result: unknown) =>",
      "  ((Array.isArray(result) ? result[0] : result) as { affectedRows?: number }).affectedRows ?? 0;",
      "",
    ],
    rowsChanged: (statement, _table) => `changedRows(await ${statement})`,
    rowCountDriver: { driver: "mysql2", reads: "mysql2's affectedRows" },
    ignored: [],
  },
  async apply(root, url, script, added) {
    let connection: Connection | undefined;
    try {
      connection = await open(root, url);
      await connection.query(script);
      for (const { table, column, type } of added) {
        // MySQL 8 has no ADD COLUMN IF NOT EXISTS (MariaDB has): ask the catalog first.
        const [rows] = (await connection.query(
          `SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = '${table}' AND column_name = '${column}'`,
        )) as [unknown[], unknown];
        if (rows.length === 0) await connection.query(`ALTER TABLE ${table} ADD COLUMN \`${column}\` ${type}`);
      }
    } finally {
      await connection?.end().catch(() => undefined);
    }
  },
  async readColumns(driver, url, timeoutMs) {
    type Reader = {
      createConnection(
        o: object,
      ): Promise<{ query(sql: string): Promise<[{ t: string; c: string }[], unknown]>; end(): Promise<void> }>;
    };
    const connection = await (driver as Reader).createConnection({ uri: url, connectTimeout: timeoutMs });
    try {
      const [rows] = await connection.query(
        "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE()",
      );
      return group(rows);
    } finally {
      await connection.end().catch(() => undefined);
    }
  },
});
