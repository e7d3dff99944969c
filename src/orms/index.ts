/**
 * The ORMs init wires Auth.js into, one module each: adding one is writing
 * its module (orm.ts says what it declares) and listing it here and in
 * `orms` (orm.ts). init's --orm, its prompt and the plan read this list.
 */
import { drizzleOrm } from "./drizzle.js";
import { noOrm } from "./none.js";
import type { OrmId, OrmModule } from "./orm.js";
import { prismaOrm } from "./prisma.js";

export { type OrmId, type OrmPlan, orms } from "./orm.js";

const ormModules: readonly OrmModule[] = [prismaOrm, drizzleOrm, noOrm];

export function ormEntry(id: OrmId): OrmModule {
  return ormModules.find((o) => o.id === id)!;
}

/** The ORM a schema flavour stands for: --schema prisma and drizzle mean their ORM. */
export const ormOfFlavour = (flavour: string | undefined): OrmId | undefined =>
  flavour === "prisma" || flavour === "drizzle" ? flavour : undefined;
