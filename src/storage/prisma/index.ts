/**
 * `--orm prisma`: the Auth.js models added to the project's schema.prisma
 * (or a new one), @auth/prisma-adapter over the app's own Prisma client
 * (or a client module written for it: Prisma 7 through its driver adapter,
 * Prisma 6 as it is), and the SQL of the models' tables for `create-auth
 * migrate`, where Prisma's migration engine cannot be fetched.
 */
import { posix } from "node:path";
import type { DependencyName } from "../../catalog/dependencies.js";
import type { Dialect } from "../../catalog/sql-dialects.js";
import { UsageError } from "../../lib/errors.js";
import { envLoaderView, loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { type PlannedFile, part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import { dialectOfPrismaProvider, sqlDialects } from "../sql/dialects/index.js";
import { defineStorage, type StoragePart, type StorageRequest, verifyScript } from "../storage.js";
import { type PrismaProject, prismaReason, readPrismaProject } from "./detect.js";
import { renderPrismaSql } from "./models.js";
import {
  dialectOfProvider,
  mergeAuthModels,
  mergeTwoFactorModels,
  newPrismaSchema,
  PrismaSchemaError,
  parsePrismaSchema,
} from "./schema-text.js";

/** A refusal about the schema file: one line, nothing written. */
const refuse = (path: string, reason: string): never => {
  throw new UsageError(`${path}: ${reason}; nothing was written.`);
};

/** The schema's dialect and the edit or new file that gives it the auth models. */
function schemaPart(project: PrismaProject, request: StorageRequest<PrismaProject>) {
  const { schemaPath, schemaText } = project;
  if (project.schemaFolder)
    refuse(
      schemaPath,
      "is a folder of schema files; create-auth adds the auth models to one schema.prisma: point the schema setting at a file, or add the Auth.js models there by hand",
    );
  // --two-factor totp: its two models after the auth models.
  const withTwoFactor = (text: string, dialect: Dialect) => {
    if (!request.twoFactor) return text;
    const merge = mergeTwoFactorModels(text, dialect, request.tablePrefix);
    if (merge.status === "refused") refuse(schemaPath, merge.reason);
    return merge.status === "added" ? merge.text : text;
  };
  if (schemaText === null) {
    const text = withTwoFactor(newPrismaSchema(request.dialect, request.tablePrefix, project.major), request.dialect);
    return { dialect: request.dialect, text, created: true, generator: parsePrismaSchema(text).generator };
  }
  try {
    const facts = parsePrismaSchema(schemaText);
    const dialect = dialectOfProvider(facts.provider);
    const merge = mergeAuthModels(schemaText, dialect, request.tablePrefix);
    if (merge.status === "refused") refuse(schemaPath, merge.reason);
    const text = withTwoFactor(merge.status === "added" ? merge.text : schemaText, dialect);
    return { dialect, text, created: false, generator: facts.generator };
  } catch (error) {
    if (error instanceof PrismaSchemaError) refuse(schemaPath, `cannot be read (${error.message})`);
    throw error;
  }
}

/** The import of the generated PrismaClient from `from`: the generator's output, or @prisma/client. */
function generatedClient(
  schemaPath: string,
  generator: { provider?: string; output?: string } | undefined,
  from: string,
) {
  if (!generator?.output) return "@prisma/client";
  const output = posix.join(posix.dirname(schemaPath), generator.output);
  const target = generator.provider === "prisma-client" ? `${output}/client` : output;
  return specifier(from, `${target}.ts`, "");
}

export const prismaStorage = defineStorage<PrismaProject>({
  id: "prisma",
  title: "Prisma",
  hint: "your schema.prisma and client, @auth/prisma-adapter",
  accountTokens: true,
  chosenBy: "orm",
  detect(project) {
    const facts = readPrismaProject(project);
    const reason = prismaReason(project, facts);
    return reason ? { facts, reason } : undefined;
  },
  assume: readPrismaProject,
  projectDialect(facts) {
    if (facts.schemaText === null) return undefined;
    try {
      return dialectOfPrismaProvider(parsePrismaSchema(facts.schemaText).provider);
    } catch {
      return undefined; // the plan refuses an unreadable schema, naming the line
    }
  },
  async plan(request): Promise<StoragePart> {
    const project = request.facts;
    const { authDir, ext } = request;
    const schema = schemaPart(project, request);
    const { dialect } = schema;
    const files: PlannedFile[] = [];
    const edits: PlannedFile[] = [];
    if (schema.created) files.push({ path: project.schemaPath, contents: schema.text });
    else if (schema.text !== project.schemaText) edits.push({ path: project.schemaPath, contents: schema.text });

    const adapterPath = `${authDir}/adapter.ts`;
    const modern = project.major >= 7;
    const clientPath = project.client?.path ?? `${authDir}/prisma.ts`;
    const exported = project.client?.name ?? "prisma";
    const client = {
      clientImport: exported === "default" ? "default as prisma" : exported,
      clientBinding: exported === "default" ? "prisma" : exported,
      clientModule: clientPath,
    };
    const dependencies: DependencyName[] = ["@auth/prisma-adapter", "@prisma/client"];
    if (!project.client) {
      const generated = generatedClient(project.schemaPath, schema.generator, clientPath);
      if (modern && generated === "@prisma/client" && !schema.created)
        refuse(
          project.schemaPath,
          'its generator has no output, which Prisma 7 needs (output = "../generated/prisma"); add one, or write your client module (lib/prisma.ts) and run init again',
        );
      files.push({
        path: clientPath,
        contents: await renderTemplate("orms/prisma/client.ts.hbs", {
          generated,
          driverAdapter: modern,
          prisma: sqlDialects[dialect].prisma,
        }),
      });
      if (modern) dependencies.push(...sqlDialects[dialect].prisma.adapterPackages);
    }
    const clientFrom = (from: string) => specifier(from, clientPath, ext);
    const sqlPath = `${authDir}/schema.${dialect}.sql`;
    const tablesStep =
      "create the auth tables: npx prisma migrate dev --name auth (without Prisma's engines: npm run auth:tables)";
    files.push(
      {
        path: adapterPath,
        contents: await renderTemplate("orms/prisma/adapter.ts.hbs", {
          ...client,
          clientSpecifier: clientFrom(adapterPath),
          prisma: sqlDialects[dialect].prisma,
        }),
      },
      {
        path: `${authDir}/verify-adapter.ts`,
        contents: await renderTemplate("orms/prisma/verify-adapter.ts.hbs", {
          ...client,
          clientSpecifier: clientFrom(`${authDir}/verify-adapter.ts`),
          ext,
          tablesStep: "npx prisma migrate dev, or npm run auth:tables",
        }),
      },
      await loadEnvModule(`${authDir}/load-env.ts`, request.envOrder),
      ...(request.twoFactor
        ? [
            {
              path: `${authDir}/two-factor-store.ts`,
              contents: await renderTemplate("orms/prisma/two-factor-store.ts.hbs", {
                ...client,
                clientSpecifier: clientFrom(`${authDir}/two-factor-store.ts`),
              }),
            },
          ]
        : []),
      { path: sqlPath, contents: prismaSql(dialect, request.tablePrefix, modern, request.twoFactor === true) },
    );
    if (modern && !project.configPath)
      files.push({
        path: "prisma.config.ts",
        contents: await renderTemplate("orms/prisma/prisma.config.ts.hbs", {
          schemaPath: project.schemaPath,
          ...envLoaderView(request.envOrder),
        }),
      });
    return {
      ...part({
        files,
        edits,
        dependencies: ["@auth/core", ...dependencies],
        devDependencies: ["create-auth", "prisma"],
        env: [
          {
            name: "DATABASE_URL",
            description: `The database of your Prisma client (${sqlDialects[dialect].prisma.title})`,
            example: sqlDialects[dialect].prisma.example,
          },
        ],
        scripts: {
          "verify-adapter": verifyScript(authDir),
          "db:generate": "prisma generate",
          "db:migrate": "prisma migrate dev",
          "auth:tables": `create-auth migrate ${sqlPath}`,
        },
        ignored: [
          ...sqlDialects[dialect].prisma.ignored,
          ...(schema.created && modern ? [{ pattern: "generated/prisma", paths: ["generated/prisma/"] }] : []),
        ],
        notices: schema.text === project.schemaText ? [`${project.schemaPath} has the Auth.js models already.`] : [],
      }),
      adapterPath,
      dialect,
      schemaPath: sqlPath,
      tablesStep,
      afterInstall: ["prisma", "generate"],
    };
  },
});

/**
 * The SQL of the auth models' tables; its first line tells `create-auth
 * migrate` which variable holds the connection (Prisma 6 resolves a SQLite
 * file against the schema's folder, Prisma 7 against the project).
 */
function prismaSql(dialect: Dialect, prefix: string | undefined, modern: boolean, twoFactor: boolean): string {
  const relative = sqlDialects[dialect].embedded && !modern ? " (paths relative to prisma)" : "";
  return [
    `-- connection: DATABASE_URL${relative}`,
    "-- The tables of the Auth.js models in schema.prisma, as Prisma's migration creates them.",
    "-- With Prisma's engines at hand, prefer: npx prisma migrate dev --name auth",
    "-- Generated by create-auth; `create-auth migrate` applies it (safe to repeat).",
    "",
    renderPrismaSql(dialect, prefix, twoFactor),
  ].join("\n");
}
