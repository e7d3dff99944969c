/** `--backend sqlite`, init's default: an embedded database file, no server. */
import { sqlBackend } from "./backend.js";
import { sqlite } from "./dialects/sqlite.js";

export const sqliteStorage = sqlBackend({
  id: sqlite.id,
  dialect: sqlite.id,
  hint: "embedded, no server (better-sqlite3)",
  // The database file (and its -wal/-shm) holds users and sessions.
  ignored: [{ pattern: "auth.db*", paths: ["auth.db", "auth.db-wal", "auth.db-shm"] }],
  embedded: true,
  dependencies: ["better-sqlite3"],
  devDependencies: ["@types/better-sqlite3"],
  env: [
    {
      name: sqlite.variable,
      description: "SQLite database file of the auth adapter (default ./auth.db)",
      example: "./auth.db",
    },
  ],
});
