/** `--backend postgres`: PostgreSQL through pg. */
import { sqlBackend } from "./backend.js";
import { postgres } from "./dialects/postgres.js";

export const postgresStorage = sqlBackend({
  id: postgres.id,
  dialect: postgres.id,
  hint: "PostgreSQL through pg",
  dependencies: ["pg"],
  devDependencies: ["@types/pg"],
  env: [
    {
      name: postgres.variable,
      description: "PostgreSQL connection string of the auth adapter",
      example: "postgres://postgres@127.0.0.1:5432/app",
    },
  ],
});
