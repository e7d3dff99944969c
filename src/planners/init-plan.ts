/**
 * init's plan, as a list of parts: the storage's adapter and schema, a
 * schema file in the flavour asked for, each provider's module, the
 * framework's wiring, and the auth config the framework shapes; then the
 * merges into the project's own files (package.json, the env files,
 * .gitignore, tsconfig). Nothing here writes; reading the project is all
 * it does.
 */
import { join, posix } from "node:path";
import { hasProviderTokens } from "../families/index.js";
import { throttleFile, throttlePath } from "../families/throttle.js";
import { twoFactorFiles, twoFactorModulePath, twoFactorPagesPath } from "../families/two-factor.js";
import { clientAddressFile, clientAddressPath } from "../frameworks/client-address.js";
import { twoFactorMountStep } from "../frameworks/two-factor-route.js";
import { UsageError } from "../lib/errors.js";
import { newSecret } from "../render/env-files.js";
import { specifier } from "../render/modules.js";
import { parsePackageJson } from "../render/package-json.js";
import { type GeneratedPart, mergeParts, part } from "../render/parts.js";
import { newTsconfig } from "../render/tsconfig.js";
import { ownAdapterPart } from "../storage/own-adapter.js";
import type { StoragePart } from "../storage/storage.js";
import { usualConfigPlaces } from "../workspace/find-config.js";
import { changesOfParts } from "../workspace/parts-to-changes.js";
import { readIfExists } from "../workspace/plan.js";
import { importExtension, isJavaScriptProject } from "../workspace/project.js";
import { generateConfig, postLogoutEnv } from "./auth-config.js";
import type { InitPlan, InitRequest, StorageChoice } from "./init-request.js";
import { inJavaScript } from "./javascript.js";
import { projectFileOf } from "./own-adapter.js";
import { planProjectMerges } from "./project-merges.js";

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
  // A JavaScript project whose server runs its modules as written gets JavaScript, and no tsconfig.
  const javascript = framework.runsModulesAsWritten === true && isJavaScriptProject(root);
  const tsconfig =
    tsconfigText === null && !javascript
      ? newTsconfig(isEsmPackage(root, pkgText), storage.schema === "typeorm")
      : undefined;
  const ext = javascript ? ".js" : (tsconfig?.importExtension ?? importExtension(root));
  if (
    tsconfigText !== null &&
    storage.schema === "typeorm" &&
    !/"experimentalDecorators"\s*:\s*true/.test(tsconfigText)
  )
    notices.push(
      'TypeORM entities need "experimentalDecorators": true and "emitDecoratorMetadata": true in your tsconfig.json (left as it is).',
    );

  const { kept } = request;
  if (request.tokens && kept)
    throw new UsageError(
      `${request.tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: ${kept.configPath} keeps its own config and adapter; add the provider with create-auth add-provider <provider> ${request.tokens.refresh ? "--refresh-tokens" : "--federated-logout"}, which wires the rotation into it when its adapter can keep tokens. Nothing was written.`,
    );
  if (request.tokens && !storage.module.accountTokens)
    throw new UsageError(
      `${request.tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: the ${storage.module.title} adapter does not update accounts yet (token rotation needs updateAccount, listAccountsByUserId and leaseAccount); use another --backend (sqlite, postgres, mysql, memory) or --orm. Nothing was written.`,
    );
  const { configPath, authDir } = framework.layout(facts, project);
  // Password sign-in is stored through init's own SQL adapter; other stores keep the credentials skeleton.
  const passwords =
    !kept &&
    storage.module.chosenBy === "backend" &&
    storage.module.dialect !== undefined &&
    request.providers.some((p) => p.kind === "credentials");
  // --two-factor totp: its state goes where the users are, through the storage's own two-factor-store.ts.
  const twoFactorProvider = request.providers.find((p) => p.kind === "credentials" && p.options.twoFactor === "totp");
  if (twoFactorProvider && kept)
    throw new UsageError(
      "--two-factor totp: this app keeps its own adapter, and the two-factor store is written for create-auth's own; add two-factor sign-in to a project init set up. Nothing was written.",
    );
  const [{ generateSnippet }, storagePart, schema, wiring] = await Promise.all([
    import("../families/index.js"),
    kept
      ? undefined
      : storage.module.plan({
          facts: storage.facts,
          dialect: storage.dialect,
          authDir,
          ext,
          tablePrefix: storage.tablePrefix,
          passwords,
          twoFactor: twoFactorProvider !== undefined,
          envOrder: framework.envOrder,
        }),
    kept ? part() : schemaPart(storage, authDir, ext),
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
  // The app's own adapter: no storage of init's, only the module verify-adapter runs on that adapter.
  const stored: GeneratedPart & Partial<StoragePart> =
    storagePart ??
    (await ownAdapterPart({
      ...kept!,
      authDir,
      ext,
      envOrder: framework.envOrder,
      projectFile: projectFileOf(root, join(root, kept!.configPath)),
    }));
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
  const config = storagePart
    ? await generateConfig({
        configPath,
        providers: snippets,
        adapterPath: storagePart.adapterPath,
        session: request.session,
        storage:
          storage.module.chosenBy === "orm" ? `${storage.module.title} on ${storagePart.dialect}` : storage.module.id,
        importExtension: ext,
        verifyCommand: "verify-adapter" in scripts ? "npm run verify-adapter" : "npx create-auth verify-adapter",
        shape: wiring.config,
        postLogoutRedirectUri: request.postLogoutRedirectUri,
        twoFactorPath: twoFactorProvider ? twoFactorModulePath(authDir) : undefined,
        throttlePath: throttle.length > 0 ? throttlePath(authDir) : undefined,
      })
    : [];

  // The wiring imports the config init writes; when the project keeps a config of its own, the wiring is theirs to add.
  const otherConfig = kept?.configPath ?? usualConfigPlaces.find((p) => p !== configPath && project.isFile(p));
  const configOnDisk = readIfExists(join(root, configPath));
  const ownConfig =
    otherConfig !== undefined || (!request.force && configOnDisk !== null && configOnDisk !== config[0]!.contents);
  // A config of the project's own is left alone: the providers are not added to it, so nothing of theirs is planned.
  const added = otherConfig ? [] : snippets;
  const placedSnippets = added.map((s) => ({ ...s, files: [] }));
  // With the project's own config, what init would wire is the user's to add, and with it the module that
  // hands the wiring the client's address, unless something init still writes imports it.
  const unwired = (file: { path: string }) => !(file.path in wiring.instructions);
  const addressModule = clientAddressPath(authDir);
  const stillWritten = [...wiring.files, ...wiring.edits].filter(unwired);
  const keptWiring = (file: { path: string }) =>
    unwired(file) &&
    (file.path !== addressModule ||
      stillWritten.some((f) => f.path !== file.path && f.contents.includes(posix.basename(addressModule, ".ts"))));
  const planned = mergeParts(
    stored,
    schema,
    ownConfig ? { ...wiring, files: wiring.files.filter(keptWiring), edits: wiring.edits.filter(unwired) } : wiring,
    ...placedSnippets,
    { files: otherConfig ? [] : throttle },
    { files: otherConfig ? [] : twoFactor },
    { files: otherConfig ? [] : config },
    part({ env: request.tokens?.federatedLogout ? [postLogoutEnv(request.postLogoutRedirectUri)] : [] }),
    { files: tsconfig ? [{ path: "tsconfig.json", contents: tsconfig.text }] : [] },
  );
  const output = javascript ? await inJavaScript(planned) : { part: planned, rename: (text: string) => text };
  const merged = output.part;
  if (otherConfig)
    notices.push(
      `An auth config exists at ${otherConfig}; it was left alone. Add providers to it with create-auth add-provider <kind>${storagePart ? `, and the adapter from ${storagePart.adapterPath}` : ""}.`,
    );

  const env = planProjectMerges({
    root,
    envOrder: framework.envOrder,
    merged,
    packages: {
      // Beside an app's own auth, @auth/core only where the wiring imports it (next-auth brings its own).
      dependencies: [
        ...(kept && framework.authPackage !== "@auth/core" ? [] : ["@auth/core" as const]),
        ...framework.dependencies,
      ],
      devDependencies: [
        "create-auth",
        ...(javascript ? [] : (["typescript", "tsx"] as const)),
        "@types/node",
        ...framework.devDependencies,
      ],
    },
    databaseVariables: stored.env.map((v) => v.name),
    orm: !kept && storage.module.chosenBy === "orm",
    secret: () => newSecret(),
    packageManager: request.packageManager,
  });
  const { changes, leftAlone } = changesOfParts(root, [merged, env.part], { force: request.force });
  notices.push(...merged.notices);
  const configShown = output.rename(configPath);
  const instructions = Object.entries(wiring.instructions).map(([path, what]) => [
    output.rename(path),
    output.rename(what),
  ]);
  const manualSteps = [
    ...wiring.steps.map(output.rename),
    ...instructions
      .filter(([path]) => leftAlone.includes(path!))
      .map(([path, what]) => `${path} is yours and was left alone; in it: ${what}.`),
    ...(ownConfig
      ? instructions
          .filter(([path]) => !project.isFile(path!) || wiring.edits.some((e) => output.rename(e.path) === path))
          .map(
            ([path, what]) =>
              `Your auth config was kept, so ${path} was not ${project.isFile(path!) ? "edited" : "written"}; wire it yourself: ${what!.replaceAll(configShown, otherConfig ?? configShown)}.`,
          )
      : []),
  ];
  if (leftAlone.includes(configShown))
    notices.push(`${configShown} exists and was left alone; add providers to it with create-auth add-provider <kind>.`);

  notices.push(...env.notices);
  return {
    changes,
    leftAlone,
    notices,
    snippets: added,
    configPath: configShown,
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
      embedded: !kept && storage.module.embedded === true,
    },
  };
}
