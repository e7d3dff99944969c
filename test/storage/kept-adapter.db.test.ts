/**
 * A next-auth v5 app that already has auth on its own Drizzle database
 * (fixtures/projects/orm/drizzle-sqlite, given here its auth tables, its
 * `DrizzleAdapter(db, { ...its tables })` config and next-auth): init --yes
 * keeps that storage, and `npm run verify-adapter` checks the adapter the app
 * really uses, on the app's own SQLite file through the app's own client.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { inProcess } from "../helpers.js";
import { bin, ormProject } from "./projects.js";

const authSchema = `import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("user", {
  id: text("id").primaryKey().$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: integer("emailVerified", { mode: "timestamp_ms" }),
  image: text("image"),
});

export const accounts = sqliteTable(
  "account",
  {
    userId: text("userId").notNull().references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (account) => [primaryKey({ columns: [account.provider, account.providerAccountId] })],
);

export const sessions = sqliteTable("session", {
  sessionToken: text("sessionToken").primaryKey(),
  userId: text("userId").notNull().references(() => users.id, { onDelete: "cascade" }),
  expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
});

export const verificationTokens = sqliteTable(
  "verificationToken",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (token) => [primaryKey({ columns: [token.identifier, token.token] })],
);

export const authenticators = sqliteTable(
  "authenticator",
  {
    credentialID: text("credentialID").notNull().unique(),
    userId: text("userId").notNull().references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: text("providerAccountId").notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    counter: integer("counter").notNull(),
    credentialDeviceType: text("credentialDeviceType").notNull(),
    credentialBackedUp: integer("credentialBackedUp", { mode: "boolean" }).notNull(),
    transports: text("transports"),
  },
  (authenticator) => [primaryKey({ columns: [authenticator.userId, authenticator.credentialID] })],
);
`;

const config = `import NextAuth from "next-auth";
import GitHub from "next-auth/providers/github";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { db } from "./db";
import { accounts, authenticators, sessions, users, verificationTokens } from "./db/auth-schema";

export const { handlers, auth, signIn, signOut } = NextAuth({
  adapter: DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
    authenticatorsTable: authenticators,
  }),
  providers: [GitHub],
});
`;

describe("init in a v5 app with a DrizzleAdapter of its own", () => {
  const defer = useCleanup();

  test("keeps it: no storage of init's, and npm run verify-adapter passes on the app's adapter and database", async () => {
    const dir = await ormProject("drizzle-sqlite", defer);
    writeFileSync(join(dir, "src/db/auth-schema.ts"), authSchema);
    const schema = `${readFileSync(join(dir, "src/db/schema.ts"), "utf8")}export * from "./auth-schema";\n`;
    writeFileSync(join(dir, "src/db/schema.ts"), schema);
    writeFileSync(join(dir, "src/auth.ts"), config);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    pkg.dependencies = {
      ...pkg.dependencies,
      next: "16.0.0",
      "next-auth": "5.0.0-beta.32",
      "@auth/drizzle-adapter": "1.11.1",
    };
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
    // The app's database, as the app's own drizzle-kit makes it; its client reads DATABASE_URL from .env.local.
    writeFileSync(join(dir, ".env.local"), "DATABASE_URL=app.db\n", { mode: 0o600 });
    const env = { DATABASE_URL: "app.db" };
    await execa(process.execPath, [bin(dir, "drizzle-kit", "bin.cjs"), "push", "--force"], { cwd: dir, env });

    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, "src/auth.ts"), "utf8")).toBe(config);
    const after = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    // No store of init's: the app's dependencies as they were, one script.
    expect(after.dependencies).toEqual(pkg.dependencies);
    expect(after.scripts).toEqual({ "verify-adapter": "create-auth verify-adapter auth/verify-adapter.ts" });
    // The app's schema and tables as they were; no adapter of init's.
    expect(readFileSync(join(dir, "src/db/schema.ts"), "utf8")).toBe(schema);
    expect(existsSync(join(dir, "auth/adapter.ts"))).toBe(false);

    // As the user runs it in development (vitest's NODE_ENV=test would skip .env.local): the env files loaded by the module.
    const script = await execa(
      "npm",
      ["run", "--silent", "verify-adapter", "--", "--reporter", "json", "--seed", "7"],
      {
        cwd: dir,
        env: { NO_COLOR: "1", NODE_ENV: "development" },
        reject: false,
      },
    );
    const report = JSON.parse(script.stdout) as { ok: boolean; cases: { id: string; status: string }[] };
    expect(report.cases.filter((c) => c.status === "failed").map((c) => c.id)).toEqual([]);
    expect(report.cases.filter((c) => c.status === "passed").length).toBeGreaterThan(20);
    expect(report.ok).toBe(true);
    expect(script.exitCode).toBe(0);
  }, 120_000);
});
