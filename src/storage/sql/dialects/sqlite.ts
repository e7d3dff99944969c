/** SQLite through better-sqlite3: a file, no server. */
import { defineDialect, group, projectDriver } from "./dialect.js";

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
  },
  typeormType: "better-sqlite3",
  quote: (name) => `"${name}"`,
  placeholder: () => "?",
  columnTypes: (q) => ({
    varchar: "TEXT",
    text: "TEXT",
    timestamp: "INTEGER",
    bigint: "INTEGER",
    boolean: `INTEGER CHECK (${q.credentialBackedUp} IN (0, 1))`,
    json: "TEXT CHECK (json_valid(session_state))",
    tableOptions: "",
  }),
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
