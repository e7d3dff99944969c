/** PostgreSQL through pg. */
import { defineDialect, group, projectDriver } from "./dialect.js";

type Pg = {
  Client: new (
    o: object,
  ) => {
    connect(): Promise<void>;
    query(sql: string, values?: unknown[]): Promise<{ rows: { t: string; c: string }[] }>;
    end(): Promise<void>;
  };
};

/** pg's Client, whether the module came as CommonJS or with a default export. */
const clientOf = (driver: unknown) => ((driver as { default?: Pg }).default ?? (driver as Pg)).Client;

export const postgres = defineDialect({
  id: "postgres",
  title: "PostgreSQL",
  schemaTitle: "PostgreSQL",
  shortTitle: "PostgreSQL",
  variable: "DATABASE_URL",
  example: "postgres://user:password@host:5432/app",
  embedded: false,
  // pg also takes socket:/path and a bare /socket/dir; those are not URLs with a host and are left to it.
  schemes: ["postgres", "postgresql", "socket"],
  socketFolder: true,
  driver: "pg",
  clientPackages: ["pg", "postgres"],
  prisma: {
    providers: ["postgresql", "postgres"],
    example: "postgresql://postgres@127.0.0.1:5432/app",
    adapterPackages: ["@prisma/adapter-pg"],
  },
  typeormType: "postgres",
  // PostgreSQL folds unquoted names to lowercase.
  quote: (name) => `"${name}"`,
  placeholder: (n) => `$${n}`,
  columnTypes: () => ({
    varchar: "VARCHAR(255)",
    text: "TEXT",
    timestamp: "TIMESTAMPTZ",
    bigint: "BIGINT",
    boolean: "BOOLEAN",
    json: "JSONB",
    tableOptions: "",
  }),
  async apply(root, url, script, added) {
    const Client = clientOf(projectDriver(root, "pg"));
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      await client.query(script);
      for (const { table, column, type } of added)
        await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS "${column}" ${type}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  },
  async readColumns(driver, url, timeoutMs) {
    const Client = clientOf(driver);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    // Prisma names the PostgreSQL schema in the URL (?schema=app); everyone else goes by the search path.
    const schema = URL.canParse(url) ? new URL(url).searchParams.get("schema") : null;
    try {
      await client.connect();
      const { rows } = await client.query(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = ${schema ? "$1" : "ANY (current_schemas(false))"}`,
        schema ? [schema] : [],
      );
      return group(rows);
    } finally {
      await client.end().catch(() => undefined);
    }
  },
});
