/**
 * add-provider's plan: the provider module(s) beside the auth config, the
 * config edit (an import and one `providers` entry), the variables it reads
 * in the env files, and the packages its modules import in package.json
 * (the merge init uses). Nothing here writes; a refusal leaves every file
 * as it is.
 */

import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { TokenChoice } from "../families/family.js";
import type { AnyParsedProvider, SnippetContext } from "../families/index.js";
import { throttlePath } from "../families/throttle.js";
import { twoFactorModulePath } from "../families/two-factor.js";
import type { FrameworkModule } from "../frameworks/framework.js";
import { frameworkByAuthPackage } from "../frameworks/registry.js";
import { UsageError } from "../lib/errors.js";
import { posixRelative } from "../lib/posix-path.js";
import { type EnvToFill, gitignore, planEnvWrites } from "../render/env-files.js";
import type { FilesPart, ProviderSnippet } from "../render/parts.js";
import type { PackageManager } from "../workspace/package-manager.js";
import { detectPackageVersion } from "../workspace/package-version.js";
import { changesOfParts } from "../workspace/parts-to-changes.js";
import { type FileChange, readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { ProjectView } from "../workspace/project-view.js";
import { readEnvForWriting } from "../workspace/read-env.js";
import { mergeSecurePackageJson } from "../workspace/secure-packages.js";
import { postLogoutEnv } from "./auth-config.js";
import { inJavaScript } from "./javascript.js";
import { moduleSpecifier, placeSnippet, providerModulesDir } from "./provider-modules.js";
import { findThrottleSetup, limitEmailTokens, throttlePart, unthrottledNotice } from "./provider-throttle.js";
import { findTwoFactorSetup, twoFactorPart } from "./provider-two-factor.js";
import { planTokenWiring } from "./token-wiring.js";

export interface AddProviderRequest {
  /** Absolute path of the auth config to edit. */
  configPath: string;
  /** The project root: where package.json and the env files are. */
  root: string;
  provider: AnyParsedProvider;
  /** The project's framework: built-in providers are imported from its package. */
  framework: FrameworkModule;
  /** Replace a provider with the same id and its generated files. */
  force: boolean;
  /** --refresh-tokens, --federated-logout. */
  tokens?: TokenChoice;
  /** The manager that installs (--package-manager, else detected): where overrides go. */
  packageManager?: PackageManager;
}

export type AddProviderPlan =
  | {
      status: "planned";
      snippet: ProviderSnippet;
      changes: FileChange[];
      /** The config after the edit (unchanged text when the provider was already there). */
      configText: string;
      configChanged: boolean;
      /** package.json gained dependencies: the install has something to do. */
      packageJsonChanged: boolean;
      /** Versions kept although they differ from the catalog, packages it could not add, env values kept. */
      notices: string[];
      /** The provider's variables still to fill in, and where. */
      envToFill: EnvToFill[];
    }
  /** The config edit cannot be made safely; `manual` is the snippet to paste. */
  | { status: "refused"; reason: string; manual: string }
  /** A file the provider needs exists with other contents (no --force). */
  | { status: "exists"; path: string };

/** The provider's variables in the env files (as init writes them), and .env.local kept out of git. */
function envPart(root: string, framework: FrameworkModule, snippet: ProviderSnippet) {
  if (snippet.env.length === 0) return { part: {}, toFill: [], notices: [] };
  const env = planEnvWrites({
    env: readEnvForWriting(root, framework.envOrder),
    envOrder: framework.envOrder,
    variables: snippet.env,
    heading: `${snippet.kind} provider "${snippet.id}" (added by create-auth add-provider)`,
  });
  const edits = [
    ...env.files.map((f) => ({ path: f.name, contents: f.after })),
    // .env.local will hold secrets: keep it out of git.
    { path: ".gitignore", contents: gitignore(readIfExists(join(root, ".gitignore"))) },
  ];
  return { part: { edits }, toFill: env.toFill, notices: env.notices };
}

/**
 * The provider's packages merged into the project's package.json: versions
 * only from the catalog, an existing entry (any version) left as it is,
 * unless it is an Auth.js package with a known advisory, which is raised
 * within its major (next-auth 4.24.11 → 4.24.15) whether or not the
 * provider adds packages. Without a package.json nothing is created (a new
 * one would make the project an ES module package): the notice says what
 * to install.
 */
function packagePart(
  root: string,
  snippet: ProviderSnippet,
  manager: PackageManager | undefined,
): { part: FilesPart; notices: string[] } {
  const devDependencies = snippet.devDependencies ?? [];
  if (readIfExists(join(root, "package.json")) === null) {
    if (snippet.dependencies.length === 0 && devDependencies.length === 0) return { part: {}, notices: [] };
    return {
      part: {},
      notices: [
        `No package.json in ${root}: install ${[...snippet.dependencies, ...devDependencies].join(", ")} with your package manager.`,
      ],
    };
  }
  const merged = mergeSecurePackageJson(
    root,
    { dependencies: snippet.dependencies, devDependencies, scripts: {} },
    manager,
  );
  const edits = [
    { path: "package.json", contents: merged.text },
    ...(merged.workspace ? [{ path: merged.workspace.path, contents: merged.workspace.after }] : []),
  ];
  return { part: { edits }, notices: merged.notices };
}

/**
 * The framework whose Auth.js package the project depends on: built-in
 * providers are imported from that package (a project may use next-auth
 * before it has next itself); else the detected framework's.
 */
function authPackageFramework(root: string, detected: FrameworkModule): FrameworkModule {
  const project = new ProjectView(root);
  return frameworkByAuthPackage((name) => project.has(name)) ?? detected;
}

/** Whether the project's Auth.js package is next-auth at major 4 (installed, locked, else package.json's range). */
export function runsNextAuthV4(root: string, framework: Pick<FrameworkModule, "authPackage">): boolean {
  return framework.authPackage === "next-auth" && detectPackageVersion(root, "next-auth")?.major === 4;
}

export async function planAddProvider(request: AddProviderRequest): Promise<AddProviderPlan> {
  const { configPath, root, provider } = request;
  const [{ generateSnippet }, { addProviderToConfig }] = await Promise.all([
    import("../families/index.js"),
    import("../ast/insert-provider.js"),
  ]);
  // A project init set up with a database has the password module: a new credentials provider checks through it.
  const passwords = ["auth/passwords.ts", "src/lib/server/auth/passwords.ts"]
    .map((p) => join(root, p))
    .find((p) => existsSync(p));
  // Beside the real file when the config is a link: its relative imports resolve from there.
  const configDir = dirname(realpathSync(configPath));
  const modulesDir = providerModulesDir(realpathSync(root), configDir);
  const providerFile = join(modulesDir, "providers", "x.ts");
  const framework = authPackageFramework(root, request.framework);
  // A config in JavaScript, where the server runs its modules as written: the provider's module is JavaScript too.
  const javascript =
    framework.runsModulesAsWritten === true &&
    /\.m?js$/.test(configPath) &&
    new ProjectView(root).packageJson.type === "module";
  const nextAuthV4 = runsNextAuthV4(root, framework);
  if (nextAuthV4 && (request.tokens?.refresh || request.tokens?.federatedLogout))
    throw new UsageError(
      `${request.tokens.refresh ? "--refresh-tokens" : "--federated-logout"}: the generated token rotation needs next-auth v5; run create-auth upgrade first. Nothing was written.`,
    );
  // Password and email sign-in count their attempts through the throttle beside the adapter, when it has counters.
  const throttle = nextAuthV4 ? undefined : findThrottleSetup(root, request.framework);
  // --two-factor totp: its modules beside that adapter, refused where its store is not written.
  const twoFactor =
    provider.kind === "credentials" && (provider.options as { twoFactor?: string }).twoFactor === "totp"
      ? findTwoFactorSetup(root, throttle, nextAuthV4)
      : undefined;
  const context: SnippetContext = {
    nextAuthV4,
    authPackage: framework.authPackage,
    basePath: framework.basePath,
    importExtension: javascript ? ".js" : importExtension(root),
    passwordsModule: passwords ? moduleSpecifier(dirname(providerFile), passwords) : undefined,
    throttleModule: throttle?.counters
      ? moduleSpecifier(dirname(providerFile), throttlePath(throttle.authDir))
      : undefined,
    twoFactorModule: twoFactor
      ? moduleSpecifier(dirname(providerFile), join(root, twoFactorModulePath(twoFactor.authDir)))
      : undefined,
    modulesDir: posixRelative(realpathSync(root), modulesDir),
    tokens: request.tokens,
  };
  const generated = await generateSnippet(provider, context);
  const unthrottled =
    !generated.throttled && (await generateSnippet(provider, { ...context, throttleModule: "./throttle" })).throttled;
  const placed = placeSnippet(generated, configDir, modulesDir);
  const snippet = javascript
    ? { ...placed, files: (await inJavaScript({ files: placed.files, scripts: {} })).part.files }
    : placed;
  // With the token flags, the provider's module as add-provider wrote it without them is its own to replace:
  // turning rotation on for a provider added earlier is not an edit of the user's to keep.
  const withoutTokens = request.tokens
    ? await generateSnippet(provider, { ...context, tokens: undefined }).then(async (plain) => {
        const files = placeSnippet(plain, configDir, modulesDir).files;
        return javascript ? (await inJavaScript({ files, scripts: {} })).part.files : files;
      })
    : [];
  const configText = readIfExists(configPath) ?? "";
  const edit = addProviderToConfig(
    configText,
    { id: snippet.id, imports: snippet.imports, entry: snippet.entry, force: request.force },
    configPath,
  );
  if (edit.status === "refused") return { status: "refused", reason: edit.reason, manual: edit.manual };

  const providerFiles = snippet.files.map((file) => ({
    path: join(modulesDir, file.path),
    contents: file.contents,
    replaces: withoutTokens.find((plain) => plain.path === file.path)?.contents,
  }));
  const throttling =
    snippet.throttled && throttle
      ? await throttlePart(root, throttle, importExtension(root))
      : { part: {}, notices: unthrottled ? [unthrottledNotice(snippet.kind, throttle, nextAuthV4)] : [] };
  let edited = edit.text;
  if (snippet.throttledEmails && throttle) {
    const throttleFrom = `${moduleSpecifier(dirname(configPath), throttlePath(throttle.authDir))}${importExtension(root)}`;
    const limited = await limitEmailTokens(edited, configPath, throttleFrom);
    edited = limited.text;
    throttling.notices.push(...limited.notices);
  }
  const twoFactorPlan = twoFactor
    ? await twoFactorPart({
        root,
        setup: twoFactor,
        ext: importExtension(root),
        configPath,
        configText: edited,
        framework: request.framework,
        providerId: snippet.id,
        throttle: snippet.throttled === true,
      })
    : undefined;
  if (twoFactorPlan) edited = twoFactorPlan.configText;
  const tokens = snippet.tokens
    ? await planTokenWiring({
        root,
        configPath,
        configText: edited,
        modulesDir,
        snippet: { ...snippet, tokens: snippet.tokens },
        // The framework whose package the config uses: its exports are what the sign-out wiring changes.
        framework,
        javascript,
      })
    : undefined;
  if (tokens) edited = tokens.configText;
  const env = envPart(root, request.framework, {
    ...snippet,
    env: [...snippet.env, ...(snippet.tokens?.federatedLogout ? [postLogoutEnv()] : [])],
  });
  const packages = packagePart(
    root,
    { ...snippet, dependencies: [...new Set([...snippet.dependencies, ...(tokens?.dependencies ?? [])])] },
    request.packageManager,
  );
  const { changes, leftAlone } = changesOfParts(
    root,
    [
      { edits: edited === configText ? [] : [{ path: configPath, contents: edited }] },
      { files: providerFiles },
      throttling.part,
      twoFactorPlan?.part ?? {},
      tokens?.part ?? {},
      env.part,
      packages.part,
    ],
    { force: request.force },
  );
  // A provider module of the user's (or another provider's) stands where this one goes.
  if (leftAlone[0]) return { status: "exists", path: leftAlone[0] };
  return {
    status: "planned",
    snippet,
    changes,
    // The project's package.json, or the workspace root's that holds the overrides: nothing else writes one.
    packageJsonChanged: changes.some((change) => basename(change.path) === "package.json"),
    notices: [
      ...env.notices,
      ...packages.notices,
      ...throttling.notices,
      ...(tokens?.notes ?? []),
      ...(twoFactorPlan?.notices ?? []),
    ],
    envToFill: env.toFill,
    configText: edited,
    configChanged: edited !== configText,
  };
}
