/** `--backend mysql`: MySQL or MariaDB through mysql2. */
import { sqlBackend } from "./backend.js";
import { mysql } from "./dialects/mysql.js";

export const mysqlStorage = sqlBackend({
  id: mysql.id,
  dialect: mysql.id,
  hint: "MySQL or MariaDB through mysql2",
  // mysql2 ships its own types.
  dependencies: ["mysql2"],
  devDependencies: [],
  env: [
    {
      name: mysql.variable,
      description: "MySQL or MariaDB connection string of the auth adapter",
      example: "mysql://root@127.0.0.1:3306/app",
    },
  ],
});
