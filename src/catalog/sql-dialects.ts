/** The SQL databases create-auth writes schemas and adapters for. */
export const dialects = ["postgres", "mysql", "sqlite"] as const;
export type Dialect = (typeof dialects)[number];
