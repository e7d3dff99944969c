/**
 * init's plan: every generated file (config, provider modules, adapter,
 * entity schema, tsconfig) and the merges into the project's own files
 * (package.json, the env files, .gitignore), as one list of changes. Nothing
 * here writes; reading the project is all it does. Each generator module is
 * imported only when planned with, so a sql-flavour run never loads the ORM
 * schema generator.
 */
import { existsSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { type Backend, dialectOf } from "../backends/index.js";
import type { Dialect, SchemaFlavour } from "../catalog/backends.js";
import type { AnyParsedProvider } from "../families/index.js";
import type { Framework } from "../frameworks/index.js";
import type { OrmFacts } from "../orms/detect.js";
import { type OrmId, type OrmPlan, ormEntry } from "../orms/index.js";
import { usualConfigPlaces } from "../workspace/find-config.js";
import type { FrameworkFacts } from "../workspace/framework.js";
import { changeFile, type FileChange, readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { specifier } from "./config.js";
import {
  databaseEnvFile,
  type EnvToFill,
  envLoaderView,
  gitignore,
  newSecret,
  planEnvWrites,
  readEnvForWriting,
} from "./env-files.js";
import { authLayout } from "./framework.js";
import { emptyPart, ormAdapter, planOrm } from "./orm.js";
import { mergePackageJson, parsePackageJson } from "./package-json.js";
import { renderTemplate } from "./render.js";
import { newTsconfig } from "./tsconfig.js";
import type { EnvVariable, PlannedFile, ProviderSnippet } from "./types.js";

export interface InitRequest {
  root: string;
  providers: AnyParsedProvider[];
  backend: Backend;
  schema: SchemaFlavour;
  dialect: Dialect;
  session: "jwt" | "database";
  force: boolean;
  framework: Framework;
  /** What detection found in the project (layout facts are used whatever the framework). */
  facts: FrameworkFacts;
  /** Next.js: paths the proxy/middleware protects. */
  protect?: string[];
  /** The ORM the adapter goes through; "none" generates the backend's own adapter. */
  orm?: OrmId;
  ormFacts?: OrmFacts;
  tablePrefix?: string;
}

export interface InitPlan {
  changes: FileChange[];
  /** Project-relative paths of files that exist with other contents and were left alone (no --force). */
  leftAlone: string[];
  /** Values kept although they differ from what init would write (package.json), and other notices. */
  notices: string[];
  snippets: ProviderSnippet[];
  /** Relative path of the auth config. */
  configPath: string;
  scripts: Record<string, string>;
  framework: Framework;
  /** Variables still to fill in after the plan (empty or commented out): the only ones the next steps ask for. */
  unsetEnv: string[];
  /** The same, with the file each is in. */
  envToFill: EnvToFill[];
  /** The env file each variable is set in (the project's own, or where init wrote it). */
  envWhere: Record<string, string>;
  /** The SQL script the tables come from (SQL backends), project-relative. */
  schemaPath: string | undefined;
  /** Password sign-in was generated: the auth:add-user script exists. */
  passwords: boolean;
  /** What to do by hand where a framework file was the user's own and left alone. */
  manualSteps: string[];
  /** With an ORM: the command that makes the tables, and what runs after the install (prisma generate). */
  orm?: Pick<OrmPlan, "tablesStep" | "afterInstall" | "dialect">;
}

/** Whether the project is an ES module package; a package.json that is no JSON object stops init before anything is planned. */
const isEsmPackage = (root: string, pkgText: string | null) =>
  pkgText === null || parsePackageJson(pkgText, root).type === "module";

export async function planInit(request: InitRequest): Promise<InitPlan> {
  const { root } = request;
  const notices: string[] = [];
  const pkgText = readIfExists(join(root, "package.json"));
  const tsconfigText = readIfExists(join(root, "tsconfig.json"));
  const esm = isEsmPackage(root, pkgText);
  const tsconfig = tsconfigText === null ? newTsconfig(esm, request.schema === "typeorm") : undefined;
  const ext = tsconfig?.importExtension ?? importExtension(root);
  if (
    tsconfigText !== null &&
    request.schema === "typeorm" &&
    !/"experimentalDecorators"\s*:\s*true/.test(tsconfigText)
  ) {
    notices.push(
      'TypeORM entities need "experimentalDecorators": true and "emitDecoratorMetadata": true in your tsconfig.json (left as it is).',
    );
  }

  const [{ generateAdapter }, { generateSchema }, { generateSnippet }, { generateConfig }, { generateFramework }] =
    await Promise.all([
      import("./adapter.js"),
      import("./schema.js"),
      import("../families/index.js"),
      import("./config.js"),
      import("./framework.js"),
    ]);
  const srcDir = existsSync(join(root, "src")) && statSync(join(root, "src")).isDirectory();
  const { configPath, authDir } = authLayout(request.framework, srcDir);
  // Password sign-in is stored through the SQL adapter's database; other backends keep the skeleton.
  const ormPlan = await planOrm(request, authDir, ext);
  const passwords =
    !ormPlan && request.providers.some((p) => p.kind === "credentials") && dialectOf(request.backend) !== undefined;
  const passwordsPath = `${authDir}/passwords.ts`;
  const providerFile = posix.join(posix.dirname(configPath), "providers", "x.ts");
  const [adapter, schema, snippets, wiring] = await Promise.all([
    ormPlan
      ? ormAdapter(ormPlan, authDir)
      : generateAdapter(request.backend, { importExtension: ext, dialect: request.dialect, dir: authDir, passwords }),
    ormPlan ? emptyPart : generateSchema(request.schema, request.dialect, { importExtension: ext, dir: authDir }),
    Promise.all(
      request.providers.map((p) =>
        generateSnippet(p, {
          framework: request.framework,
          importExtension: ext,
          passwordsModule: passwords ? specifier(providerFile, passwordsPath, "") : undefined,
        }),
      ),
    ),
    generateFramework({
      facts: request.facts,
      framework: request.framework,
      configPath,
      authDir,
      importExtension: ext,
      protect: request.protect,
    }),
  ]);

  const otherConfig = usualConfigPlaces.find((p) => p !== configPath && existsSync(join(root, p)));
  const scripts = { ...adapter.scripts, ...schema.scripts, ...wiring.scripts };
  const verifyCommand = "verify-adapter" in scripts ? "npm run verify-adapter" : "npx create-auth verify-adapter";
  const config = await generateConfig({
    configPath,
    providers: snippets,
    adapterPath: adapter.adapterPath,
    session: request.session,
    backend: ormPlan ? `${ormEntry(request.orm ?? "none").title} on ${ormPlan.dialect}` : request.backend,
    importExtension: ext,
    verifyCommand,
    framework: request.framework,
    routeFile: wiring.routeFile,
    serverHint: wiring.serverHint,
    envPath: wiring.envPath,
  });
  // One env loader, whoever needs it, in the order of the framework's own (Vite's for SvelteKit).
  const loadEnvPath = `${authDir}/load-env.ts`;
  const loadEnv =
    wiring.needsLoadEnv || adapter.files.some((f) => f.path === loadEnvPath)
      ? [
          {
            path: loadEnvPath,
            contents: await renderTemplate("adapters/load-env.ts.hbs", envLoaderView(request.framework)),
          },
        ]
      : [];

  const changes: FileChange[] = [];
  const leftAlone: string[] = [];
  // The SQL adapter ships its own schema.<dialect>.sql; the same path from the schema generator is the same file.
  const fromAdapter = new Set(adapter.files.map((f) => f.path));
  // The wiring imports the config init writes; when the project keeps a config of its own, the wiring is theirs to add.
  const ownConfig =
    otherConfig !== undefined ||
    (!request.force && changeFile(join(root, configPath), config[0]!.contents)?.before != null);
  const wiringFiles = ownConfig ? [] : wiring.files;
  const generated: PlannedFile[] = [
    ...(otherConfig ? [] : config),
    ...adapter.files.filter((f) => f.path !== loadEnvPath),
    ...schema.files.filter((f) => !fromAdapter.has(f.path)),
    ...loadEnv,
    ...wiringFiles,
    ...(tsconfig ? [{ path: "tsconfig.json", contents: tsconfig.text }] : []),
  ];
  if (otherConfig) {
    notices.push(
      `An auth config exists at ${otherConfig}; it was left alone. Add providers to it with create-auth add-provider <kind>, and the adapter from ${adapter.adapterPath}.`,
    );
  }
  for (const file of generated) {
    const change = changeFile(join(root, file.path), file.contents);
    if (change?.before != null && !request.force) leftAlone.push(file.path);
    else if (change) changes.push(change);
  }
  for (const edit of ormPlan?.edits ?? []) {
    const change = changeFile(join(root, edit.path), edit.contents);
    if (change) changes.push(change);
  }
  notices.push(...(ormPlan?.notices ?? []));
  const manualSteps = [
    ...wiring.notes,
    ...Object.entries(wiring.instructions)
      .filter(([path]) => leftAlone.includes(path))
      .map(([path, what]) => `${path} is yours and was left alone; in it: ${what}.`),
    ...(ownConfig
      ? Object.entries(wiring.instructions)
          .filter(([path]) => !existsSync(join(root, path)))
          .map(
            ([path, what]) =>
              `Your auth config was kept, so ${path} was not written; wire it yourself: ${what.replaceAll(configPath, otherConfig ?? configPath)}.`,
          )
      : []),
  ];
  if (leftAlone.includes(configPath)) {
    notices.push(`${configPath} exists and was left alone; add providers to it with create-auth add-provider <kind>.`);
  }

  const variables = new Map<string, EnvVariable>();
  for (const v of [...adapter.env, ...schema.env, ...wiring.env, ...snippets.flatMap((s) => s.env)]) {
    if (!variables.has(v.name)) variables.set(v.name, v);
  }
  const merged = mergePackageJson(
    pkgText,
    {
      dependencies: [
        "@auth/core",
        ...wiring.dependencies,
        ...adapter.dependencies,
        ...schema.dependencies,
        ...snippets.flatMap((s) => s.dependencies),
      ],
      // create-auth runs the verify-adapter script; typescript and tsx type-check and run the .ts files.
      devDependencies: [
        "create-auth",
        "typescript",
        "tsx",
        "@types/node",
        ...wiring.devDependencies,
        ...snippets.flatMap((s) => s.devDependencies ?? []),
        ...adapter.devDependencies,
        ...schema.devDependencies,
      ],
      scripts,
    },
    root,
  );
  notices.push(...merged.kept);
  const env = planEnvWrites({
    env: readEnvForWriting(root, request.framework),
    framework: request.framework,
    variables: [...variables.values()],
    heading: "Auth (added by create-auth init)",
    secret: newSecret(),
    database: { names: adapter.env.map((v) => v.name), file: databaseEnvFile(ormPlan !== undefined) },
  });
  notices.push(...env.notices);
  const merges: [string, string][] = [
    ["package.json", merged.text],
    ...env.files.map((f): [string, string] => [f.name, f.after]),
    [
      ".gitignore",
      gitignore(readIfExists(join(root, ".gitignore")), ormPlan ? undefined : request.backend, [
        ...(ormPlan?.ignored ?? []),
        ...env.created,
      ]),
    ],
  ];
  for (const [path, text] of merges) {
    const change = changeFile(join(root, path), text);
    if (change) changes.push(change);
  }
  return {
    changes,
    leftAlone,
    notices,
    snippets,
    configPath,
    scripts,
    framework: request.framework,
    unsetEnv: env.toFill.map((v) => v.name),
    envToFill: env.toFill,
    envWhere: env.where,
    schemaPath: adapter.schemaPath,
    passwords,
    manualSteps,
    orm: ormPlan && { tablesStep: ormPlan.tablesStep, afterInstall: ormPlan.afterInstall, dialect: ormPlan.dialect },
  };
}
