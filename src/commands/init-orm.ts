/**
 * init's ORM: --orm, else the ORM --schema names, else (in a terminal) a
 * question with the detected one preselected, else what detection found.
 * With an ORM, the schema flavour is the ORM's and the backend follows the
 * database the project's schema is for.
 */
import type { Backend } from "../backends/index.js";
import type { Dialect } from "../catalog/backends.js";
import type { InitPlan } from "../generators/init.js";
import { CliError, ExitCode, UsageError } from "../lib/errors.js";
import type { Io } from "../lib/io.js";
import { detectOrm, type OrmFacts } from "../orms/detect.js";
import { drizzleDialects } from "../orms/drizzle.js";
import { type OrmId, ormEntry, ormOfFlavour, orms } from "../orms/index.js";
import { parsePrismaSchema, prismaProviders } from "../orms/prisma-schema.js";

interface OrmOptions {
  orm?: OrmId;
  schema?: string;
  backend?: Backend;
  dialect?: Dialect;
  yes: boolean;
}

/** The database the project's ORM schema is for, when it says. */
function projectDialect(orm: OrmId, facts: OrmFacts): Dialect | undefined {
  if (orm === "drizzle") return drizzleDialects[facts.drizzle.dialect ?? ""];
  if (orm !== "prisma" || facts.prisma.schemaText === null) return undefined;
  try {
    return prismaProviders[parsePrismaSchema(facts.prisma.schemaText).provider ?? ""];
  } catch {
    return undefined; // the plan refuses an unreadable schema, naming the line
  }
}

export async function chooseOrm(options: OrmOptions, io: Io, root: string) {
  const facts = detectOrm(root);
  const flavour = ormOfFlavour(options.schema);
  if (options.orm && options.orm !== "none" && options.schema && options.schema !== options.orm)
    throw new UsageError(`--orm ${options.orm} conflicts with --schema ${options.schema}; drop --schema.`);
  // An ORM's schema beside the in-memory or skeleton adapter is only a schema file, as before.
  const storesElsewhere = options.backend === "memory" || options.backend === "skeleton";
  // --schema sql or typeorm is a choice of no ORM wiring; TypeORM entities stay a schema file.
  const orm0 = storesElsewhere || (options.schema !== undefined && !flavour) ? "none" : flavour;
  let orm = options.orm ?? orm0;
  let asked = false;
  if (!orm && io.interactive && !options.yes) {
    const { askOrm, intro } = await import("../prompts/init.js");
    intro();
    asked = true;
    orm = (await askOrm({
      choices: orms.map((id) => ({
        value: id,
        label: ormEntry(id).title,
        hint: id === facts.orm ? `detected: ${facts.reason}` : ormEntry(id).hint,
      })),
      initial: facts.orm,
    })) as OrmId;
  }
  orm ??= facts.orm;
  if (orm === "none") return { orm, facts, asked, implied: {} };
  if (storesElsewhere)
    throw new UsageError(
      `--backend ${options.backend} conflicts with --orm ${orm}, which stores through your database.`,
    );
  const dialect = options.dialect ?? projectDialect(orm, facts);
  const backend: Backend = options.backend ?? dialect ?? "sqlite";
  return { orm, facts, asked, implied: { schema: orm, backend } };
}

/** After the install: what the ORM needs before anything imports its client (prisma generate). */
export async function runAfterInstall(plan: InitPlan, root: string, io: Io): Promise<void> {
  const command = plan.orm?.afterInstall;
  if (!command) return;
  const [bin, ...args] = command;
  const { execa } = await import("execa");
  const result = await execa("npx", ["--no-install", bin!, ...args], {
    cwd: root,
    env: io.env,
    reject: false,
    all: true,
  });
  if (result.exitCode !== 0)
    throw new CliError(
      `The files are written and installed, but ${command.join(" ")} failed: ${(result.all ?? "").trim().split("\n").pop()}`,
      { exitCode: ExitCode.failed, hint: `Fix that, then run: npx ${command.join(" ")}` },
    );
  io.out.write(`Ran ${command.join(" ")}.\n`);
}
