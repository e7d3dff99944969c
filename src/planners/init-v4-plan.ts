/**
 * init in a next-auth v4 project that keeps v4: only what v4 can use, added
 * to the project's own `authOptions` (found by the finder) — the storage's
 * adapter module, schema and tables, `adapter:` and the session strategy in
 * the options, and next-auth v4's built-in providers the config lacks. No
 * v5 code: no auth.ts, no App Router route, no NextAuthConfig; the user's
 * providers and every other option stay as they are. Nothing here writes.
 */
import { dirname, join } from "node:path";
import type { AnyParsedProvider } from "../families/index.js";
import type { FrameworkDetection } from "../frameworks/registry.js";
import { UsageError } from "../lib/errors.js";
import { posixRelative } from "../lib/posix-path.js";
import { type EnvToFill, newSecret } from "../render/env-files.js";
import { specifier } from "../render/modules.js";
import { type GeneratedPart, mergeParts, type ProviderSnippet, part } from "../render/parts.js";
import { type OwnAdapter, ownAdapterPart } from "../storage/own-adapter.js";
import type { AuthSetup } from "../workspace/auth-setup/index.js";
import type { PackageManager } from "../workspace/package-manager.js";
import { changesOfParts } from "../workspace/parts-to-changes.js";
import { readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { schemaPart } from "./init-plan.js";
import type { InitPlan, StorageChoice } from "./init-request.js";
import { projectFileOf } from "./own-adapter.js";
import { planProjectMerges } from "./project-merges.js";
import { placeSnippet, providerModulesDir } from "./provider-modules.js";
import { unthrottledNotice } from "./provider-throttle.js";

export interface V4InitRequest {
  root: string;
  /** The project's next-auth v4 setup: the module holding `authOptions`. */
  setup: AuthSetup;
  /** Providers to add; the ones the config already has (by id) are kept as the user wrote them. */
  providers: AnyParsedProvider[];
  session: "jwt" | "database";
  force: boolean;
  framework: FrameworkDetection;
  storage: StorageChoice;
  /** The adapter authOptions already makes: kept, with no storage of init's own beside it. */
  kept?: OwnAdapter;
  /** --session was given (with the app's own adapter, only then is the strategy written). */
  sessionGiven?: boolean;
  /** The manager that installs (--package-manager, else detected): where overrides go. */
  packageManager?: PackageManager;
}

export async function planInitV4(request: V4InitRequest): Promise<InitPlan> {
  const { root, setup, storage } = request;
  const { framework } = request.framework;
  const [{ generateSnippet }, { addProviderToConfig }, { addOptionsToConfig }] = await Promise.all([
    import("../families/index.js"),
    import("../ast/insert-provider.js"),
    import("../ast/insert-option.js"),
  ]);
  const ext = importExtension(root);
  const configPath = setup.providersFile;
  const configDir = dirname(configPath);
  // Beside the config, or lib/auth/ when the config is a file of pages/ (every file there is a route).
  const modulesDir = providerModulesDir(root, configDir);
  const authDir = posixRelative(root, modulesDir) || ".";
  const notices: string[] = [];
  const passwords = false;
  const { kept } = request;
  // The app's own adapter: no storage of init's, only the module verify-adapter runs on that adapter.
  const [storagePart, schema] = kept
    ? [undefined, part()]
    : await Promise.all([
        storage.module.plan({
          facts: storage.facts,
          dialect: storage.dialect,
          authDir,
          ext,
          tablePrefix: storage.tablePrefix,
          passwords,
          envOrder: framework.envOrder,
        }),
        schemaPart(storage, authDir, ext),
      ]);
  const stored: GeneratedPart =
    storagePart ??
    (await ownAdapterPart({
      ...kept!,
      authDir,
      ext,
      envOrder: framework.envOrder,
      projectFile: projectFileOf(root, configPath),
    }));

  // The config, edited in memory: each provider, then the options.
  let text = readIfExists(configPath) ?? "";
  if (request.session === "database" && /["']next-auth\/providers\/credentials["']/.test(text))
    throw new UsageError(
      `--session database: ${posixRelative(root, configPath)} has a Credentials provider, which next-auth v4 signs in with JWT sessions only; keep --session jwt.`,
    );
  const snippets: ProviderSnippet[] = [];
  for (const provider of request.providers) {
    const snippet = placeSnippet(
      await generateSnippet(provider, {
        nextAuthV4: true,
        authPackage: framework.authPackage,
        basePath: framework.basePath,
        importExtension: ext,
        modulesDir: authDir,
      }),
      configDir,
      modulesDir,
    );
    const edit = addProviderToConfig(
      text,
      { id: snippet.id, imports: snippet.imports, entry: snippet.entry },
      configPath,
    );
    if (edit.status === "refused") {
      notices.push(`Provider "${snippet.id}" was not added: ${edit.reason}`);
      continue;
    }
    if (edit.status !== "unchanged") text = edit.text;
    snippets.push(snippet);
    // The generated throttle reads what Auth.js v5 hands a provider (its Request, the client's address): v4 counts nothing.
    if (snippet.kind === "credentials") notices.push(unthrottledNotice(snippet.kind, undefined, true));
  }
  const adapterPath = storagePart?.adapterPath;
  const session = { key: "session", value: `{ strategy: "${request.session}" }` };
  const options = addOptionsToConfig(
    text,
    adapterPath
      ? [
          {
            key: "adapter",
            value: "createAdapter()",
            imports: [{ from: specifier(posixRelative(root, configPath), adapterPath, ext), named: ["createAdapter"] }],
          },
          // With an adapter v4 defaults to database sessions, which Credentials cannot use: the choice is written out.
          session,
        ]
      : // The app's own adapter: its sessions as they are, unless --session says otherwise.
        request.sessionGiven
        ? [session]
        : [],
    configPath,
  );
  const shownConfig = posixRelative(root, configPath);
  if (options.status === "refused")
    notices.push(
      adapterPath
        ? `${shownConfig} was not given the adapter (${options.reason}); add \`adapter: createAdapter()\` from ${adapterPath} to authOptions by hand.`
        : `${shownConfig} was not given the session strategy (${options.reason}); add \`session: { strategy: "${request.session}" }\` by hand.`,
    );
  else {
    text = options.text;
    for (const key of options.kept)
      notices.push(
        key === "adapter"
          ? `authOptions already has an adapter; it was kept. The generated one is in ${adapterPath} if you want it.`
          : `authOptions already sets session; it was kept (init would have chosen strategy "${request.session}").`,
      );
  }

  const placed = snippets.map((s) => ({
    ...s,
    files: s.files.map((f) => ({ ...f, path: posixRelative(root, join(modulesDir, f.path)) })),
  }));
  const merged = mergeParts(stored, schema, ...placed);
  notices.push(...merged.notices);

  const env = planProjectMerges({
    root,
    envOrder: framework.envOrder,
    merged,
    // No next-auth here: the project's v4 stays. The generated adapter's types come from @auth/core, which v4.24 accepts.
    packages: { dependencies: [], devDependencies: ["create-auth", "tsx", "@types/node"] },
    databaseVariables: stored.env.map((v) => v.name),
    orm: !kept && storage.module.chosenBy === "orm",
    // v4 reads NEXTAUTH_SECRET, else AUTH_SECRET: a fresh one only when the project has neither.
    secret: (projectEnv) =>
      ["NEXTAUTH_SECRET", "AUTH_SECRET"].some((name) => projectEnv.get(name)?.value) ? undefined : newSecret(),
    // next-auth itself is raised within v4 when the project's version has an advisory (package-security.ts).
    packageManager: request.packageManager,
  });
  const { changes, leftAlone } = changesOfParts(
    root,
    [{ edits: [{ path: configPath, contents: text }] }, merged, env.part],
    {
      force: request.force,
    },
  );
  notices.push(...env.notices);
  const envToFill: EnvToFill[] = env.toFill;
  return {
    changes,
    leftAlone,
    notices,
    snippets,
    configPath: shownConfig,
    scripts: merged.scripts,
    framework,
    envToFill,
    envWhere: env.where,
    passwords,
    // The provider snippets' own steps are said by init's report from `snippets`; here only the storage's.
    manualSteps: [...stored.steps, ...schema.steps],
    storage: storagePart
      ? {
          schemaPath: storagePart.schemaPath,
          tablesStep: storagePart.tablesStep,
          afterInstall: storagePart.afterInstall,
          embedded: storage.module.embedded === true,
        }
      : { embedded: false },
  };
}
