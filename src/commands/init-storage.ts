/**
 * init's storage: --orm, else the ORM --schema names, else (in a terminal)
 * a question with the detected one preselected, else what detection found;
 * without an ORM, the --backend's own adapter. With an ORM, the schema
 * flavour is the ORM's and the backend follows the database the project's
 * schema is for.
 */
import { join } from "node:path";
import type { Dialect } from "../catalog/sql-dialects.js";
import type { FrameworkDetection } from "../frameworks/registry.js";
import { CliError, ExitCode, UsageError } from "../lib/errors.js";
import type { Io } from "../lib/io.js";
import { toFlag } from "../lib/options.js";
import type { InitPlan, StorageChoice } from "../planners/init-request.js";
import type { OwnAdapter } from "../storage/own-adapter.js";
import { detectOrm, dialectOf, orms, storageById } from "../storage/registry.js";
import type { SchemaFlavour } from "../storage/schemas.js";
import type { AuthSetup } from "../workspace/auth-setup/index.js";
import { usualConfigPlaces } from "../workspace/find-config.js";
import type { ProjectView } from "../workspace/project-view.js";
import { initOptions } from "./init-options.js";

interface StorageOptions {
  orm?: string;
  schema?: SchemaFlavour;
  backend?: string;
  dialect?: Dialect;
  tablePrefix?: string;
  yes: boolean;
}

const isOrm = (id: string | undefined): id is string => id !== undefined && id !== "none" && orms.includes(id);

export async function chooseStorage(options: StorageOptions, io: Io, project: ProjectView) {
  const detected = detectOrm(project);
  const flavour = isOrm(options.schema) ? options.schema : undefined;
  if (isOrm(options.orm) && options.schema && options.schema !== options.orm)
    throw new UsageError(`--orm ${options.orm} conflicts with --schema ${options.schema}; drop --schema.`);
  // An ORM's schema beside the in-memory or skeleton adapter is only a schema file.
  const storesElsewhere = options.backend !== undefined && storageById(options.backend).dialect === undefined;
  // --schema sql or typeorm is a choice of no ORM wiring; TypeORM entities stay a schema file.
  const implied = storesElsewhere || (options.schema !== undefined && !flavour) ? "none" : flavour;
  let orm = options.orm ?? implied;
  let asked = false;
  if (!orm && io.interactive && !options.yes) {
    const { askQuestions, intro } = await import("../prompts/questions.js");
    intro("create-auth init");
    asked = true;
    const context = {
      framework: { id: "", reason: "" },
      orm: { id: detected.storage?.id, reason: detected.reason },
      answers: {},
    };
    orm = (await askQuestions([{ key: "orm", question: initOptions.rows.orm.question }], context)).orm as string;
  }
  orm ??= detected.storage?.id ?? "none";
  if (orm === "none") {
    if (flavour && !storesElsewhere)
      throw new UsageError(
        `--schema ${flavour} means ${storageById(flavour).title} stores the auth data (--orm ${flavour}); with --orm none use --schema sql or typeorm.`,
      );
    return { detected, choice: orm, asked, implied: {}, resolve: backendStorage(project, options) };
  }
  if (storesElsewhere)
    throw new UsageError(
      `--backend ${options.backend} conflicts with --orm ${orm}, which stores through your database.`,
    );
  const module = storageById(orm);
  const facts = detected.storage === module ? detected.facts : module.assume(project);
  const dialect = options.dialect ?? module.projectDialect?.(facts);
  const backend = options.backend ?? dialect ?? "sqlite";
  const resolve = (_backend: string, _schema: SchemaFlavour, _dialect: Dialect | undefined): StorageChoice => ({
    module,
    facts,
    dialect: dialect ?? dialectOf(backend) ?? "sqlite",
    schema: orm as SchemaFlavour,
    tablePrefix: options.tablePrefix,
  });
  return { detected, choice: orm, asked, implied: { schema: orm as SchemaFlavour, backend }, resolve };
}

/** No ORM: the backend's own adapter, and the schema flavour as a file beside it. */
const backendStorage =
  (project: ProjectView, options: StorageOptions) =>
  (backend: string, schema: SchemaFlavour, dialect: Dialect | undefined): StorageChoice => {
    const module = storageById(backend);
    return {
      module,
      facts: module.assume(project),
      dialect: dialect ?? module.dialect ?? "sqlite",
      schema,
      tablePrefix: options.tablePrefix,
    };
  };

/** After the install: what the storage needs before anything imports its client (prisma generate). */
export async function runAfterInstall(plan: InitPlan, root: string, io: Io): Promise<void> {
  const command = plan.storage.afterInstall;
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

/** The flags that choose a storage: beside an app's own adapter, init has none to choose. */
const storageFlags = ["orm", "backend", "schema", "dialect", "tablePrefix"] as const;

/**
 * The adapter a project that already has auth makes in its config (the v4
 * authOptions, or a v5 config where init would put one): init keeps that
 * storage, and a flag choosing another is refused before anything is written.
 */
export async function keptStorage(
  root: string,
  project: ProjectView,
  detected: FrameworkDetection,
  v4: AuthSetup | undefined,
  input: Readonly<Record<string, unknown>>,
): Promise<OwnAdapter | undefined> {
  const places = v4
    ? [v4.providersFile]
    : [...new Set([detected.framework.layout(detected.facts, project).configPath, ...usualConfigPlaces])].map((p) =>
        join(root, p),
      );
  const { findOwnAdapter } = await import("../planners/own-adapter.js");
  const own = await findOwnAdapter(root, places);
  const flag = own && storageFlags.find((key) => input[key] !== undefined);
  if (own && flag)
    throw new UsageError(
      `${toFlag(flag)}: ${own.configPath} already makes its adapter (${own.adapter.text}), and init keeps the storage an app has; drop ${toFlag(flag)}.`,
    );
  return own;
}
