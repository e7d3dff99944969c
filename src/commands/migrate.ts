/**
 * `create-auth migrate [schema]`: creates the auth tables in the database the
 * adapter uses (the connection from the environment, else the env files as the app loads them).
 * Safe to run again: every statement is CREATE ... IF NOT EXISTS.
 */
import { relative, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { defineOptions } from "../lib/command-options.js";
import { ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";

export const migrateOptions = defineOptions({
  schema: {
    argument: "[schema]",
    description: "the generated schema.<dialect>.sql to apply (default: the one init wrote)",
    schema: z.string().min(1).optional(),
    expects: "a path",
  },
  dir: {
    flag: "--dir <path>",
    description: "the project (default: the current folder)",
    schema: z.string().min(1).default("."),
    expects: "a path",
  },
});

export type MigrateInput = z.input<typeof migrateOptions.schema>;

export async function runMigrate(input: MigrateInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = migrateOptions.parse(input);
  const root = resolve(io.cwd, options.dir);
  const { applySchema, findSchemaScripts } = await import("../storage/sql/migrate.js");
  // The env files in the order the project's framework loads them.
  const { detectFramework } = await import("../frameworks/registry.js");
  const { ProjectView } = await import("../workspace/project-view.js");
  const { framework } = detectFramework(new ProjectView(root));
  let schema = options.schema;
  if (!schema) {
    const found = findSchemaScripts(root);
    if (found.length !== 1) {
      throw new UsageError(
        found.length
          ? `Several auth schemas here (${found.join(", ")}); name the one to apply: create-auth migrate ${found[0]}`
          : `No auth schema in ${root} (looked for the schema.<dialect>.sql init writes beside the auth modules); run create-auth init first, or name the file.`,
      );
    }
    schema = found[0]!;
  }
  const result = await applySchema(root, schema, io.env, framework.envOrder);
  const shown = result.file ? relative(io.cwd, result.target) || result.target : result.target;
  io.out.write(
    `Auth tables ready in ${shown} (${relative(io.cwd, resolve(root, schema))} applied; already there is fine).\n`,
  );
  return ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  migrateOptions
    .configure(command)
    .addHelpText(
      "after",
      `
Creates the auth tables in the database your adapter uses: DATABASE_URL (PostgreSQL, MySQL,
MariaDB) or AUTH_DATABASE_PATH (SQLite, default ./auth.db), read from the environment, else
the env files as your app loads them (Next.js in development: .env.development.local,
.env.local, .env.development, .env; NODE_ENV picks the mode, SvelteKit has Vite's order).
Running it again changes nothing. The database driver is your project's.

Examples:
  $ npm run db:migrate
  $ create-auth migrate
  $ create-auth migrate auth/schema.postgres.sql
  $ DATABASE_URL=postgres://postgres@127.0.0.1:5432/app create-auth migrate

Exit codes: 0 the tables are there, 1 the database refused or could not be reached, 2 usage error.`,
    )
    .action(async (schema: string | undefined, flags: Record<string, unknown>) => {
      setExitCode(await runMigrate({ ...flags, schema } as MigrateInput, io));
    });
}
