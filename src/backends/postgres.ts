/** `--backend postgres`: PostgreSQL through pg. */
import { sqlBackend } from "./sql.js";

export const postgresBackend = sqlBackend({
  name: "postgres",
  dialect: "postgres",
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
