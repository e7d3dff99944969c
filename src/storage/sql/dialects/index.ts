/** The SQL dialects, one module each: adding one is its module, its id in catalog/sql-dialects.ts, its connection partial (templates/adapters/partials/db-<id>.hbs) and a line here. */
import type { Dialect } from "../../../catalog/sql-dialects.js";
import { connectionUrlProblem } from "../../../lib/urls.js";
import type { SqlDialect } from "./dialect.js";
import { mysql } from "./mysql.js";
import { postgres } from "./postgres.js";
import { sqlite } from "./sqlite.js";

export type { AddedColumn, Columns, SqlDialect } from "./dialect.js";
export { loadDriver } from "./drivers.js";

export const sqlDialects: Record<Dialect, SqlDialect> = { postgres, mysql, sqlite };

/** Why `url` cannot connect to a server of `dialect`, or undefined when its driver should be given it. */
export function urlProblem(dialect: SqlDialect, url: string): string | undefined {
  const others = Object.values(sqlDialects).flatMap((d) => (d === dialect ? [] : d.schemes));
  return connectionUrlProblem(url, dialect, others);
}

/** The dialect a drizzle.config `dialect` ("postgresql") means, if create-auth writes SQL for it. */
export const dialectOfDrizzleKit = (kit: string | undefined): Dialect | undefined =>
  Object.values(sqlDialects).find((d) => kit !== undefined && d.drizzle.kit === kit)?.id;

/** The dialect a Prisma datasource provider ("postgresql") means, if create-auth writes SQL for it. */
export const dialectOfPrismaProvider = (provider: string | undefined): Dialect | undefined =>
  Object.values(sqlDialects).find((d) => provider !== undefined && d.prisma.providers.includes(provider))?.id;
