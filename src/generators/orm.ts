/**
 * An ORM's plan (src/orms/) in the shape init's plan takes an adapter in:
 * with an ORM, its plan replaces the backend's adapter and the schema flavour.
 */
import type { OrmFacts } from "../orms/detect.js";
import { type OrmPlan, ormEntry } from "../orms/index.js";
import type { InitRequest } from "./init.js";
import type { GeneratedPart } from "./types.js";

export const emptyPart: GeneratedPart = { files: [], dependencies: [], devDependencies: [], env: [], scripts: {} };

/** The ORM's plan, or undefined without one. */
export async function planOrm(request: InitRequest, authDir: string, ext: "" | ".js"): Promise<OrmPlan | undefined> {
  const orm = ormEntry(request.orm ?? "none");
  if (!orm.plan) return undefined;
  const { detectOrm } = await import("../orms/detect.js");
  const facts: OrmFacts = request.ormFacts ?? detectOrm(request.root);
  return orm.plan({ facts, dialect: request.dialect, authDir, ext, tablePrefix: request.tablePrefix });
}

/** The plan as init's adapter part: the verify-adapter script runs the generated module. */
export function ormAdapter(plan: OrmPlan, authDir: string) {
  return {
    adapterPath: plan.adapterPath,
    files: plan.files,
    dependencies: ["@auth/core", ...plan.dependencies] as GeneratedPart["dependencies"],
    devDependencies: ["create-auth", ...plan.devDependencies] as GeneratedPart["devDependencies"],
    env: plan.env,
    scripts: {
      "verify-adapter": `create-auth verify-adapter ${authDir}/verify-adapter.ts --require all`,
      ...plan.scripts,
    },
    passwordsPath: undefined as string | undefined,
    schemaPath: plan.schemaPath,
  };
}
