/** `--backend postgres`: PostgreSQL through pg. */
import { sqlBackend } from "./backend.js";

export const postgresStorage = sqlBackend({
  id: "postgres",
  dialect: "postgres",
  hint: "PostgreSQL through pg",
  dependencies: ["pg"],
  devDependencies: ["@types/pg"],
  env: [
    {
      name: "DATABASE_URL",
      description: "PostgreSQL connection string of the auth adapter",
      example: "postgres://postgres@127.0.0.1:5432/app",
    },
  ],
});
