/** What the frameworks' doctor parts share about a project's source files. */

/** The extensions a framework's entry modules may have. */
export const scriptExtensions = ["ts", "js", "mts", "mjs", "tsx", "jsx"];

/** Packages that need Node.js and cannot load on an edge runtime. */
export const nodeOnlyPackages = [
  "better-sqlite3",
  "sqlite3",
  "pg",
  "mysql2",
  "mysql",
  "mongodb",
  "mongoose",
  "typeorm",
  "nodemailer",
  "bcrypt",
  "argon2",
  "node:fs",
  "fs",
  "node:child_process",
  "child_process",
];
