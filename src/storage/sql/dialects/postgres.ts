/** PostgreSQL through pg. */
import { bigintToNumber, defineDialect, inlineReferences, returningDrizzle, returningWrites } from "./dialect.js";
import { group, projectDriver } from "./drivers.js";

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
    clientImports: ['import { PrismaPg } from "@prisma/adapter-pg";'],
    clientConnect: [
      "  const url = process.env.DATABASE_URL;",
      "  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });",
    ],
    replacedMethods: "one method",
    adapterMethods: [],
    nativeTypes: {},
    title: "PostgreSQL",
    ignored: [],
    sql: {
      types: { String: "TEXT", DateTime: "TIMESTAMP(3)", Int: "INTEGER", Boolean: "BOOLEAN", long: "TEXT" },
      now: "CURRENT_TIMESTAMP",
      tableOptions: "",
      keysInTable: false,
    },
  },
  typeormType: "postgres",
  typeormColumns: [
    ...bigintToNumber,
    "",
    "// Column types of the shared schema in PostgreSQL.",
    'const key = { type: "varchar", length: 255 } satisfies ColumnOptions;',
    'const timestamp = { type: "timestamptz" } satisfies ColumnOptions;',
    'const json = { type: "jsonb" } satisfies ColumnOptions;',
    "// expires_at outlives 2038 and WebAuthn counters are unsigned 32-bit: both are BIGINT.",
    'const bigint = { type: "bigint", transformer: bigintToNumber } satisfies ColumnOptions;',
  ],
  // PostgreSQL folds unquoted names to lowercase.
  quote: (name) => `"${name}"`,
  placeholder: (n) => `$${n}`,
  schemaText: () => ({
    notes: [
      "-- Timestamps are timestamptz. expires_at and counter are bigint because a",
      "-- WebAuthn signature counter is an unsigned 32-bit number.",
    ],
    varchar: "VARCHAR(255)",
    text: "TEXT",
    timestamp: "TIMESTAMPTZ",
    bigint: "BIGINT",
    boolean: "BOOLEAN",
    json: "JSONB",
    ...inlineReferences,
  }),
  adapterText: {
    db: {
      notes: [
        " * One pg Pool for the process, from DATABASE_URL. Add `?options=-c%20search_path%3Dauth`",
        " * to the URL to keep the tables in a schema of their own.",
      ],
      imports: ['import pg from "pg";'],
      transactionMember: [],
      quote: '`"${name}"`',
      placeholder: "(n: number): string => `$${n}`",
      buildParameters: "",
      transactionEntry: [],
      writeMethods: returningWrites,
      missingTable: ['  return e?.code === "42P01"; // undefined_table'],
      lazyOpens: "",
      createOnly: "",
    },
    notes: [
      " * BIGINT columns (expires_at, counter) come back from pg as strings and are",
      " * converted to numbers; jsonb comes back already parsed.",
    ],
    toDbDate: "date",
    dateToDb: "date",
    toDbBoolean: "value",
    storedDate: "the driver's Date",
    storedDateType: "Date",
    fromDbJson: "value",
    connection: "pool (DATABASE_URL)",
    closes: "pool",
    incrementAttempts: [
      "      // One statement counts and answers: a live counter gains one, a missing or expired one starts again.",
      "      const [row] = await db.query(",
      '        "INSERT INTO attempt_counters (id, attempts, expires) VALUES ($1, 1, $2) ON CONFLICT (id) DO UPDATE SET attempts = CASE WHEN attempt_counters.expires <= $3 THEN 1 ELSE attempt_counters.attempts + 1 END, expires = CASE WHEN attempt_counters.expires <= $3 THEN excluded.expires ELSE attempt_counters.expires END RETURNING attempts",',
      "        [key, expires, at],",
      "      );",
      "      return Number(row?.attempts);",
    ],
  },
  drizzle: {
    driverPackage: "pg",
    example: "postgres://postgres@127.0.0.1:5432/app",
    kit: "postgresql",
    columns: {
      table: "pgTable",
      keyColumn: "text",
      date: "timestamp",
      dateOptions: '{ mode: "date" }',
      int: "integer",
      bool: "boolean",
      boolOptions: "",
    },
    schemaPreamble: [
      'import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";',
    ],
    dbImport: 'import { drizzle } from "drizzle-orm/node-postgres";',
    ...returningDrizzle,
    ignored: [],
  },
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
