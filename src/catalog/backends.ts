/** The stores an adapter can be generated for, the entity schema flavours, and their SQL dialects. */

export const backends = ["sqlite", "postgres", "mysql", "memory", "skeleton"] as const;
export type Backend = (typeof backends)[number];

export const schemaFlavours = ["sql", "prisma", "drizzle", "typeorm"] as const;
export type SchemaFlavour = (typeof schemaFlavours)[number];

/** SQL dialects the entity schemas are written for. */
export const dialects = ["postgres", "mysql", "sqlite"] as const;
export type Dialect = (typeof dialects)[number];

const sqlBackends: Partial<Record<Backend, Dialect>> = { sqlite: "sqlite", postgres: "postgres", mysql: "mysql" };

/** The dialect a backend writes, or undefined for memory and skeleton. */
export function dialectOf(backend: Backend): Dialect | undefined {
  return sqlBackends[backend];
}
