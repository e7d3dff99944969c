/**
 * `--orm drizzle`: the Auth.js tables as a module beside the project's
 * Drizzle schema, exported from it (one line appended), and
 * @auth/drizzle-adapter over the project's `db`. drizzle-kit makes the
 * tables from the schema: generate + migrate when drizzle.config names a
 * migrations folder, else push.
 */
import { posix } from "node:path";
import type { DependencyName } from "../../catalog/dependencies.js";
import type { Dialect } from "../../catalog/sql-dialects.js";
import { UsageError } from "../../lib/errors.js";
import { envLoaderView, loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { type PlannedFile, part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import { dialectOfDrizzleKit, sqlDialects } from "../sql/dialects/index.js";
import { defineStorage, type StoragePart, verifyScript } from "../storage.js";
import { type DrizzleProject, drizzleReason, readDrizzleProject } from "./detect.js";

export const authTableExports = [
  "usersTable",
  "accountsTable",
  "sessionsTable",
  "verificationTokensTable",
  "authenticatorsTable",
  "attemptCountersTable",
] as const;
const defaultNames = {
  user: "user",
  account: "account",
  session: "session",
  verificationToken: "verificationToken",
  authenticator: "authenticator",
  attemptCounter: "attemptCounter",
};
/** With --two-factor totp: its two tables, and the names the module exports for them. */
const twoFactorNames = { twoFactor: "twoFactor", twoFactorRecoveryCode: "twoFactorRecoveryCode" };
const twoFactorTableExports = ["twoFactorTable", "twoFactorRecoveryCodesTable"] as const;

/** The table names a Drizzle schema text declares (`pgTable("users", ...)`). */
export const declaredTables = (text: string) =>
  [...text.matchAll(/\b(?:pg|mysql|sqlite|singlestore)Table\(\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]!);

/** The dialect drizzle.config names, or a refusal naming the ones create-auth writes for. */
export function drizzleDialect(raw: string | undefined, configPath: string | undefined, fallback: Dialect): Dialect {
  if (raw === undefined) {
    if (configPath)
      throw new UsageError(`${configPath}: names no dialect (postgresql, mysql or sqlite); nothing was written.`);
    return fallback;
  }
  const dialect = dialectOfDrizzleKit(raw);
  if (!dialect)
    throw new UsageError(
      `${configPath}: dialect "${raw}" is not one create-auth writes the auth tables for (postgresql, mysql, sqlite); nothing was written.`,
    );
  return dialect;
}

/** Where the auth module goes and the line that exports it from the schema: beside a schema file, inside a schema folder. */
function placement(schemaPath: string, ext: "" | ".js") {
  const glob = schemaPath.indexOf("*");
  const isFile = glob < 0 && /\.[cm]?[jt]s$/.test(schemaPath);
  const folder = isFile
    ? posix.dirname(schemaPath)
    : (glob < 0 ? schemaPath : schemaPath.slice(0, glob)).replace(/\/$/, "");
  const authPath = posix.join(folder || ".", isFile ? "auth-schema.ts" : "auth.ts");
  return {
    authPath,
    exportFrom: isFile ? schemaPath : undefined,
    line: `export * from "${specifier(schemaPath, authPath, ext)}";`,
  };
}

/**
 * The Auth.js tables as a Drizzle schema module for `dialect`, under `names` (the table names, prefixed or not);
 * with two-factor's names, its two tables too.
 */
export function renderDrizzleTables(
  dialect: Dialect,
  names: typeof defaultNames & Partial<typeof twoFactorNames> = defaultNames,
): Promise<string> {
  return renderTemplate("orms/drizzle/auth-schema.ts.hbs", {
    ...sqlDialects[dialect].drizzle.columns,
    drizzle: sqlDialects[dialect].drizzle,
    twoFactor: names.twoFactor !== undefined,
    names: { ...names, attemptCounterIndex: `${names.attemptCounter}_expires_idx` },
    title: sqlDialects[dialect].schemaTitle,
  });
}

export const drizzleStorage = defineStorage<DrizzleProject>({
  id: "drizzle",
  title: "Drizzle",
  hint: "your Drizzle schema and db, @auth/drizzle-adapter",
  accountTokens: true,
  chosenBy: "orm",
  detect(project) {
    const facts = readDrizzleProject(project);
    const reason = drizzleReason(project, facts);
    return reason ? { facts, reason } : undefined;
  },
  assume: readDrizzleProject,
  projectDialect: (facts) => dialectOfDrizzleKit(facts.dialect),
  async plan(request): Promise<StoragePart> {
    const project = request.facts;
    const { authDir, ext } = request;
    const dialect = drizzleDialect(project.dialect, project.configPath, request.dialect);
    const schemaPath = project.schemaPath ?? "db/schema.ts";
    const { authPath, exportFrom, line } = placement(schemaPath, ext);
    const schemaText = exportFrom ? (project.schemaTexts?.[exportFrom] ?? null) : null;
    const files: PlannedFile[] = [];
    const edits: PlannedFile[] = [];
    const notices: string[] = [];

    // Names the user's schema already uses: a table, or one of the exports the auth module adds.
    const ownText = Object.entries(project.schemaTexts ?? {})
      .filter(([path]) => path !== authPath)
      .map(([, text]) => text)
      .join("\n");
    const names = Object.fromEntries(
      Object.entries({ ...defaultNames, ...(request.twoFactor ? twoFactorNames : {}) }).map(([k, v]) => [
        k,
        `${request.tablePrefix ?? ""}${v}`,
      ]),
    ) as typeof defaultNames & Partial<typeof twoFactorNames>;
    const tables = new Set(declaredTables(ownText).map((t) => t.toLowerCase()));
    const clash = Object.values(names).find((n) => tables.has(n.toLowerCase()));
    const where = project.schemaPath ?? schemaPath;
    if (clash)
      throw new UsageError(
        `${where}: a table named "${clash}" exists, which the Auth.js tables would use: run init again with --table-prefix (e.g. auth_) to give them other names; nothing was written.`,
      );
    const taken = [...authTableExports, ...(request.twoFactor ? twoFactorTableExports : [])].find((n) =>
      new RegExp(`export\\s+(?:const|let|var|function|class)\\s+${n}\\b`).test(ownText),
    );
    if (taken)
      throw new UsageError(
        `${where}: it already exports ${taken}, a name the Auth.js tables module exports; rename yours and run init again; nothing was written.`,
      );

    files.push({ path: authPath, contents: await renderDrizzleTables(dialect, names) });
    if (exportFrom) {
      if (schemaText === null) files.push({ path: exportFrom, contents: `${line}\n` });
      else if (!schemaText.includes(line)) {
        const eol = /\r\n/.test(schemaText) ? "\r\n" : "\n";
        const join = schemaText === "" || schemaText.endsWith("\n") ? "" : eol;
        edits.push({ path: exportFrom, contents: `${schemaText}${join}${line}${eol}` });
      }
    }

    const dependencies: DependencyName[] = ["@auth/drizzle-adapter", "drizzle-orm"];
    const db = project.db ?? { path: `${authDir}/db.ts`, name: "db" };
    if (!project.db) {
      files.push({
        path: db.path,
        contents: await renderTemplate("orms/drizzle/db.ts.hbs", {
          schemaSpecifier: specifier(db.path, exportFrom ?? authPath, ext),
          drizzle: sqlDialects[dialect].drizzle,
        }),
      });
      dependencies.push(sqlDialects[dialect].drizzle.driverPackage);
    } else {
      const bound = sqlDialects[dialect].drizzle.rowCountDriver;
      if (bound && db.driver !== undefined && db.driver !== bound.driver)
        notices.push(
          `${db.path} uses drizzle-orm/${db.driver}: the generated useVerificationToken reads ${bound.reads}; check it with npm run verify-adapter.`,
        );
    }
    if (!project.configPath)
      files.push({
        path: "drizzle.config.ts",
        contents: await renderTemplate("orms/drizzle/drizzle.config.ts.hbs", {
          ...envLoaderView(request.envOrder),
          dialect: sqlDialects[dialect].drizzle.kit,
          schemaPath,
        }),
      });

    const dbImport = db.name === "default" ? "default as db" : db.name;
    const dbBinding = db.name === "default" ? "db" : db.name;
    const adapterPath = `${authDir}/adapter.ts`;
    const verifyPath = `${authDir}/verify-adapter.ts`;
    const migrations = project.configPath ? project.out : "drizzle";
    const tablesStep = migrations ? "npx drizzle-kit generate && npx drizzle-kit migrate" : "npx drizzle-kit push";
    files.push(
      {
        path: adapterPath,
        contents: await renderTemplate("orms/drizzle/adapter.ts.hbs", {
          dbImport,
          dbBinding,
          dbModule: db.path,
          schemaModule: authPath,
          dbSpecifier: specifier(adapterPath, db.path, ext),
          schemaSpecifier: specifier(adapterPath, authPath, ext),
          drizzle: sqlDialects[dialect].drizzle,
        }),
      },
      {
        path: verifyPath,
        contents: await renderTemplate("orms/drizzle/verify-adapter.ts.hbs", {
          dbImport,
          dbBinding,
          dbSpecifier: specifier(verifyPath, db.path, ext),
          ext,
          tablesStep,
        }),
      },
      await loadEnvModule(`${authDir}/load-env.ts`, request.envOrder),
    );
    if (request.twoFactor) {
      const storePath = `${authDir}/two-factor-store.ts`;
      files.push({
        path: storePath,
        contents: await renderTemplate("orms/drizzle/two-factor-store.ts.hbs", {
          dbImport,
          dbBinding,
          dbModule: db.path,
          schemaModule: authPath,
          dbSpecifier: specifier(storePath, db.path, ext),
          schemaSpecifier: specifier(storePath, authPath, ext),
          drizzle: {
            ...sqlDialects[dialect].drizzle,
            updateChanged: sqlDialects[dialect].drizzle.rowsChanged("update", "secrets"),
            removeChanged: sqlDialects[dialect].drizzle.rowsChanged("remove", "codes"),
          },
        }),
      });
    }
    return {
      ...part({
        files,
        edits,
        dependencies: ["@auth/core", ...dependencies],
        devDependencies: ["create-auth", "drizzle-kit"],
        env: [
          {
            name: "DATABASE_URL",
            description: "The database of your Drizzle client",
            example: sqlDialects[dialect].drizzle.example,
          },
        ],
        scripts: {
          "verify-adapter": verifyScript(authDir),
          ...(migrations
            ? { "db:generate": "drizzle-kit generate", "db:migrate": "drizzle-kit migrate" }
            : { "db:push": "drizzle-kit push" }),
        },
        notices,
        ignored: [...sqlDialects[dialect].drizzle.ignored],
      }),
      adapterPath,
      dialect,
      tablesStep: `create the auth tables: ${tablesStep}`,
    };
  },
});
