/** `--backend mysql`: MySQL or MariaDB through mysql2. */
import { sqlBackend } from "./backend.js";

export const mysqlStorage = sqlBackend({
  id: "mysql",
  dialect: "mysql",
  hint: "MySQL or MariaDB through mysql2",
  // mysql2 ships its own types.
  dependencies: ["mysql2"],
  devDependencies: [],
  env: [
    {
      name: "DATABASE_URL",
      description: "MySQL or MariaDB connection string of the auth adapter",
      example: "mysql://root@127.0.0.1:3306/app",
    },
  ],
});
