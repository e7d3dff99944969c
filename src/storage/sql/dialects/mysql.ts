/** MySQL and MariaDB through mysql2 (or mariadb, the driver a Prisma 7 project has). */
import { defineDialect, group, projectDriver, resolvable } from "./dialect.js";

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
  },
  typeormType: "mysql",
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
