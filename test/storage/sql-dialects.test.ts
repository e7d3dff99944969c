/**
 * The SQL dialect modules (src/storage/sql/dialects/): one per catalog id,
 * each URL checked against its own schemes and the others', one Prisma
 * datasource reader, one driver loader for migrate and doctor.
 */
import { describe, expect, it } from "vitest";
import { dialects } from "../../src/catalog/sql-dialects.js";
import { prismaDatasource } from "../../src/storage/prisma/schema-text.js";
import { dialectOfPrismaProvider, loadDriver, sqlDialects, urlProblem } from "../../src/storage/sql/dialects/index.js";
import { tempDir } from "../helpers.js";

describe("the SQL dialect modules", () => {
  it("has one module per catalog dialect, under its own id, and only servers take URLs", () => {
    expect(Object.keys(sqlDialects).sort()).toEqual([...dialects].sort());
    for (const [id, dialect] of Object.entries(sqlDialects)) {
      expect(dialect.id).toBe(id);
      expect(dialect.schemes.length === 0).toBe(dialect.embedded);
    }
  });

  it("checks a URL against its dialect's schemes and names the server the others belong to", () => {
    const { postgres, mysql, sqlite } = sqlDialects;
    expect(urlProblem(postgres, "postgres://u@127.0.0.1:5432/app")).toBeUndefined();
    expect(urlProblem(mysql, "mariadb://u@127.0.0.1:3306/app")).toBeUndefined();
    expect(urlProblem(postgres, "mysql://u@127.0.0.1:3306/app")).toBe(
      "it is a mysql: URL, where PostgreSQL takes postgres: or postgresql:",
    );
    expect(urlProblem(mysql, "postgresql://u@127.0.0.1/app")).toBe(
      "it is a postgresql: URL, where MySQL/MariaDB takes mysql: or mariadb:",
    );
    // pg takes a socket folder; mysql2 does not.
    expect(urlProblem(postgres, "/var/run/postgresql app")).toBeUndefined();
    expect(urlProblem(mysql, "/var/run/mysqld")).toBe("it is not a URL");
    expect(sqlite.example).toBe("./auth.db");
  });

  it("reads a Prisma datasource once, for storage and doctor alike", () => {
    expect(dialectOfPrismaProvider("postgresql")).toBe("postgres");
    expect(dialectOfPrismaProvider("mysql")).toBe("mysql");
    expect(dialectOfPrismaProvider("sqlserver")).toBeUndefined();
    expect(dialectOfPrismaProvider(undefined)).toBeUndefined();
    const schema = 'datasource db {\n  provider = "postgresql"\n  url      = env("APP_DB")\n}\n';
    expect(prismaDatasource(schema)).toEqual({ dialect: "postgres", variable: "APP_DB" });
    // Prisma 7 keeps the url in prisma.config.ts.
    expect(prismaDatasource('datasource db {\n  provider = "sqlite"\n}\n')).toEqual({ dialect: "sqlite" });
    expect(prismaDatasource("datasource db {\n  provider = ")).toEqual({});
  });

  it("loads the project's driver, and create-auth's own only when asked to", () => {
    const empty = tempDir();
    expect(loadDriver(empty, "pg")).toBeUndefined();
    expect(loadDriver(empty, "pg", { orOwn: true })).toBeDefined();
    expect(loadDriver(empty, "no-such-driver-here", { orOwn: true })).toBeUndefined();
  });
});
