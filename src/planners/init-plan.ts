/**
 * init's plan, as a list of parts: the storage's adapter and schema, a
 * schema file in the flavour asked for, each provider's module, the
 * framework's wiring, and the auth config the framework shapes; then the
 * merges into the project's own files (package.json, the env files,
 * .gitignore, tsconfig). Nothing here writes; reading the project is all
 * it does.
 */
import { join, posix } from "node:path";
import type { Dialect } from "../catalog/sql-dialects.js";
import type { TokenChoice } from "../families/family.js";
import { type AnyParsedProvider, hasProviderTokens } from "../families/index.js";
import { throttleFile, throttlePath } from "../families/throttle.js";
import { twoFactorFiles, twoFactorModulePath, twoFactorPagesPath } from "../families/two-factor.js";
import { clientAddressFile } from "../frameworks/client-address.js";
import type { FrameworkDetection } from "../frameworks/registry.js";
import { twoFactorMountStep } from "../frameworks/two-factor-route.js";
import { UsageError } from "../lib/errors.js";
import {
  databaseEnvFile,
  type EnvToFill,
  type EnvWritePlan,
  gitignore,
  newSecret,
  planEnvWrites,
  readEnvForWriting,
} from "../render/env-files.js";
import { specifier } from "../render/modules.js";
import { mergePackageJson, parsePackageJson } from "../render/package-json.js";
import { type GeneratedPart, mergeParts, type ProviderSnippet, part } from "../render/parts.js";
import { newTsconfig } from "../render/tsconfig.js";
import type { SchemaFlavour } from "../storage/schemas.js";
import type { StorageModule, StoragePart } from "../storage/storage.js";
import { usualConfigPlaces } from "../workspace/find-config.js";
import { changeFile, type FileChange, readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import type { EnvOrder, ProjectEnv } from "../workspace/project-env.js";
import type { ProjectView } from "../workspace/project-view.js";
import { generateConfig, postLogoutVariable } from "./auth-config.js";

const postLogoutEnv = (example = "http://localhost:3000/") => ({
  name: postLogoutVariable,
  description:
    "Where the provider sends the browser after its sign-out (registered there as a post-logout redirect URI)",
  example,
});

/** Where the auth data lives, as init settled it. */
export interface StorageChoice {
  module: StorageModule;
  /** What the module's detect() or assume() read of the project. */
  facts: unknown;
  dialect: Dialect;
  /** --schema: with memory, skeleton or TypeORM, a schema file beside the adapter. */
  schema: SchemaFlavour;
  tablePrefix?: string;
}

export interface InitRequest {
  root: string;
  project: ProjectView;
  providers: AnyParsedProvider[];
  session: "jwt" | "database";
  force: boolean;
  framework: FrameworkDetection;
  storage: StorageChoice;
  /** Paths whose visitors must be signed in. */
  protect?: string[];
  /** --refresh-tokens, --federated-logout: for the providers that sign in through OAuth. */
  tokens?: TokenChoice;
  /** Where a provider sends the browser after its own sign-out (--federated-logout). */
  postLogoutRedirectUri?: string;
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
  framework: FrameworkDetection["framework"];
  /** Variables still to fill in after the plan (empty or commented out), and the file each is in. */
  envToFill: EnvToFill[];
  /** The env file each variable is set in (the project's own, or where init wrote it). */
  envWhere: Record<string, string>;
  /** Password sign-in was generated: the auth:add-user script exists. */
  passwords: boolean;
  /** --federated-logout: the post-logout redirect URI to register at the providers. */
  postLogoutRedirectUri?: string;
  /** What to do by hand: where a framework file was the user's own, and what the parts ask for. */
  manualSteps: string[];
  /** How the tables come to be: the SQL migrate applies, the step init leaves, what runs after the install. */
  storage: Pick<StoragePart, "schemaPath" | "tablesStep" | "afterInstall"> & { embedded: boolean };
}

/** Whether the project is an ES module package; a package.json that is no JSON object stops init before anything is planned. */
const isEsmPackage = (root: string, pkgText: string | null) =>
  pkgText === null || parsePackageJson(pkgText, root).type === "module";

/** The schema file in the flavour asked for, where the storage does not write the schema itself. */
export async function schemaPart(storage: StorageChoice, authDir: string, ext: "" | ".js"): Promise<GeneratedPart> {
  const own = storage.module.chosenBy === "orm" || (storage.module.dialect !== undefined && storage.schema === "sql");
  if (own) return part();
  const { generateSchema } = await import("../storage/schemas.js");
  return generateSchema(storage.schema, storage.dialect, { importExtension: ext, dir: authDir });
}

export async function planInit(request: InitRequest): Promise<InitPlan> {
  const { root, project, storage } = request;
  const { framework, facts } = request.framework;
  const notices: string[] = [];
  const pkgText = readIfExists(join(root, "package.json"));
  const tsconfigText = readIfExists(join(root, "tsconfig.json"));
  const tsconfig =
    tsconfigText === null ? newTsconfig(isEsmPackage(root, pkgText), storage.schema === "typeorm") : undefined;
  const ext = tsconfig?.importExtension ?? importExtension(root);
  if (
    tsconfigText !== null &&
    storage.schema === "typeorm" &&
    !/"experimentalDecorators"\s*:\s*true/.test(tsconfigText)
  )
    notices.push(
      'TypeORM entities need "experimentalDecorators": true and "emitDecoratorMetadata": true in your tsconfig.json (left as it is).',
    );

  if (request.tokens && !storage.module.accountTokens)
    throw new UsageError(
      `${request.tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: the ${storage.module.title} adapter does not update accounts yet (token rotation needs updateAccount, listAccountsByUserId and leaseAccount); use another --backend (sqlite, postgres, mysql, memory) or --orm. Nothing was written.`,
    );
  const { configPath, authDir } = framework.layout(facts, project);
  // Password sign-in is stored through init's own SQL adapter; other stores keep the credentials skeleton.
  const passwords =
    storage.module.chosenBy === "backend" &&
    storage.module.dialect !== undefined &&
    request.providers.some((p) => p.kind === "credentials");
  // --two-factor totp: its state goes where the users are, through the storage's own two-factor-store.ts.
  const twoFactorProvider = request.providers.find((p) => p.kind === "credentials" && p.options.twoFactor === "totp");
  if (twoFactorProvider && storage.module.chosenBy === "orm")
    throw new UsageError(
      `--two-factor totp: the ${storage.module.title} store of two-factor sign-in is not written yet; use --backend sqlite, postgres, mysql or memory. Nothing was written.`,
    );
  const [{ generateSnippet }, stored, schema, wiring] = await Promise.all([
    import("../families/index.js"),
    storage.module.plan({
      facts: storage.facts,
      dialect: storage.dialect,
      authDir,
      ext,
      tablePrefix: storage.tablePrefix,
      passwords,
      twoFactor: twoFactorProvider !== undefined,
      envOrder: framework.envOrder,
    }),
    schemaPart(storage, authDir, ext),
    framework.plan({
      facts,
      configPath,
      authDir,
      importExtension: ext,
      alias: project.alias,
      protect: request.protect,
      federatedSignOut: Boolean(request.tokens?.federatedLogout && request.providers.some(hasProviderTokens)),
      twoFactorPages: twoFactorProvider ? twoFactorPagesPath(authDir) : undefined,
    }),
  ]);
  // A framework that mounts no route of the pages (none, or one not done yet) leaves the mount to the user.
  const mountsPages = [...wiring.files, ...wiring.edits].some((f) => f.contents.includes("handleTwoFactor"));
  if (twoFactorProvider && !mountsPages && !wiring.steps.some((s) => s.includes("handleTwoFactor")))
    wiring.steps.push(...twoFactorMountStep("your app", twoFactorPagesPath(authDir)));
  const providerFile = posix.join(posix.dirname(configPath), "providers", "x.ts");
  const snippets = await Promise.all(
    request.providers.map((p) =>
      generateSnippet(p, {
        authPackage: framework.authPackage,
        basePath: framework.basePath,
        importExtension: ext,
        passwordsModule: stored.passwordsPath ? specifier(providerFile, stored.passwordsPath, "") : undefined,
        throttleModule: specifier(providerFile, throttlePath(authDir), ""),
        twoFactorModule: specifier(providerFile, twoFactorModulePath(authDir), ""),
        modulesDir: posix.dirname(configPath),
        tokens: request.tokens && hasProviderTokens(p) ? request.tokens : undefined,
      }),
    ),
  );
  // Password and email sign-in count their attempts through the throttle, which reads the wiring's client address.
  const throttle = snippets.some((s) => s.throttled)
    ? [await throttleFile(authDir, ext), await clientAddressFile(authDir)]
    : [];
  const twoFactor = twoFactorProvider
    ? await twoFactorFiles({
        authDir,
        ext,
        configPath,
        basePath: framework.basePath,
        providerId: (twoFactorProvider.options as { id: string }).id,
        framework: framework.title,
        throttle: throttle.length > 0,
      })
    : [];
  const scripts = { ...stored.scripts, ...schema.scripts, ...wiring.scripts };
  const config = await generateConfig({
    configPath,
    providers: snippets,
    adapterPath: stored.adapterPath,
    session: request.session,
    storage: storage.module.chosenBy === "orm" ? `${storage.module.title} on ${stored.dialect}` : storage.module.id,
    importExtension: ext,
    verifyCommand: "verify-adapter" in scripts ? "npm run verify-adapter" : "npx create-auth verify-adapter",
    shape: wiring.config,
    postLogoutRedirectUri: request.postLogoutRedirectUri,
    twoFactorPath: twoFactorProvider ? twoFactorModulePath(authDir) : undefined,
  });

  // The wiring imports the config init writes; when the project keeps a config of its own, the wiring is theirs to add.
  const otherConfig = usualConfigPlaces.find((p) => p !== configPath && project.isFile(p));
  const ownConfig =
    otherConfig !== undefined ||
    (!request.force && changeFile(join(root, configPath), config[0]!.contents)?.before != null);
  const placedSnippets = snippets.map((s) => ({ ...s, files: [] }));
  const unwired = (file: { path: string }) => !(file.path in wiring.instructions);
  const merged = mergeParts(
    stored,
    schema,
    ownConfig ? { ...wiring, files: wiring.files.filter(unwired), edits: wiring.edits.filter(unwired) } : wiring,
    ...placedSnippets,
    { files: throttle },
    { files: twoFactor },
    { files: otherConfig ? [] : config },
    part({ env: request.tokens?.federatedLogout ? [postLogoutEnv(request.postLogoutRedirectUri)] : [] }),
    { files: tsconfig ? [{ path: "tsconfig.json", contents: tsconfig.text }] : [] },
  );
  if (otherConfig)
    notices.push(
      `An auth config exists at ${otherConfig}; it was left alone. Add providers to it with create-auth add-provider <kind>, and the adapter from ${stored.adapterPath}.`,
    );

  const changes: FileChange[] = [];
  const leftAlone: string[] = [];
  for (const file of merged.files) {
    const change = changeFile(join(root, file.path), file.contents);
    if (change?.before != null && !request.force) leftAlone.push(file.path);
    else if (change) changes.push(change);
  }
  for (const edit of merged.edits) {
    const change = changeFile(join(root, edit.path), edit.contents);
    if (change) changes.push(change);
  }
  notices.push(...merged.notices);
  const manualSteps = [
    ...wiring.steps,
    ...Object.entries(wiring.instructions)
      .filter(([path]) => leftAlone.includes(path))
      .map(([path, what]) => `${path} is yours and was left alone; in it: ${what}.`),
    ...(ownConfig
      ? Object.entries(wiring.instructions)
          .filter(([path]) => !project.isFile(path) || wiring.edits.some((e) => e.path === path))
          .map(
            ([path, what]) =>
              `Your auth config was kept, so ${path} was not ${project.isFile(path) ? "edited" : "written"}; wire it yourself: ${what.replaceAll(configPath, otherConfig ?? configPath)}.`,
          )
      : []),
  ];
  if (leftAlone.includes(configPath))
    notices.push(`${configPath} exists and was left alone; add providers to it with create-auth add-provider <kind>.`);

  const env = planProjectMerges({
    root,
    envOrder: framework.envOrder,
    merged,
    packages: {
      dependencies: ["@auth/core", ...framework.dependencies],
      devDependencies: ["create-auth", "typescript", "tsx", "@types/node", ...framework.devDependencies],
    },
    databaseVariables: stored.env.map((v) => v.name),
    orm: storage.module.chosenBy === "orm",
    secret: () => newSecret(),
  });
  changes.push(...env.changes);
  notices.push(...env.notices);
  return {
    changes,
    leftAlone,
    notices,
    snippets,
    configPath,
    scripts: merged.scripts,
    framework,
    envToFill: env.toFill,
    envWhere: env.where,
    passwords,
    postLogoutRedirectUri: request.tokens?.federatedLogout ? request.postLogoutRedirectUri : undefined,
    manualSteps,
    storage: {
      schemaPath: stored.schemaPath,
      tablesStep: stored.tablesStep,
      afterInstall: stored.afterInstall,
      embedded: storage.module.embedded === true,
    },
  };
}

/**
 * The env files, package.json and .gitignore beside init's own files: the
 * planner's packages and the merged parts' packages and scripts (values the
 * project already has kept, each a notice), the merged parts' variables where
 * the project keeps its env (the database's where its ORM tool reads them:
 * Prisma and drizzle-kit read .env), a fresh secret unless `secret` finds the
 * project has one, and the env files made ignored.
 */
export function planProjectMerges(request: {
  root: string;
  envOrder: EnvOrder;
  merged: Pick<GeneratedPart, "env" | "ignored" | "dependencies" | "devDependencies" | "scripts">;
  /** What the planner adds to package.json beyond the merged parts' packages. */
  packages: { dependencies: string[]; devDependencies: string[] };
  databaseVariables: string[];
  orm: boolean;
  /** A new secret, or undefined when the project already has one. */
  secret(env: ProjectEnv): string | undefined;
}): Pick<EnvWritePlan, "notices" | "toFill" | "where"> & { changes: FileChange[] } {
  const { root, merged } = request;
  const pkg = mergePackageJson(
    readIfExists(join(root, "package.json")),
    {
      dependencies: [...request.packages.dependencies, ...merged.dependencies],
      devDependencies: [...request.packages.devDependencies, ...merged.devDependencies],
      scripts: merged.scripts,
    },
    root,
  );
  const projectEnv = readEnvForWriting(root, request.envOrder);
  const env = planEnvWrites({
    env: projectEnv,
    envOrder: request.envOrder,
    variables: merged.env,
    heading: "Auth (added by create-auth init)",
    secret: request.secret(projectEnv),
    database: { names: request.databaseVariables, file: databaseEnvFile(request.orm) },
  });
  const merges: [string, string][] = [
    ["package.json", pkg.text],
    ...env.files.map((f): [string, string] => [f.name, f.after]),
    [".gitignore", gitignore(readIfExists(join(root, ".gitignore")), [...merged.ignored, ...env.created])],
  ];
  const changes = merges.flatMap(([path, text]) => changeFile(join(root, path), text) ?? []);
  return { changes, notices: [...pkg.kept, ...env.notices], toFill: env.toFill, where: env.where };
}
