/** The entity schema flavours and the SQL dialects they are written for; the backends are src/backends/. */

export const schemaFlavours = ["sql", "prisma", "drizzle", "typeorm"] as const;
export type SchemaFlavour = (typeof schemaFlavours)[number];

/** SQL dialects the entity schemas are written for. */
export const dialects = ["postgres", "mysql", "sqlite"] as const;
export type Dialect = (typeof dialects)[number];
