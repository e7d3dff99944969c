/**
 * add-provider's --refresh-tokens and --federated-logout, wired as init
 * wires them: token-rotation.ts beside the adapter whose operations it
 * uses, the rotation created in the config and composed with its callbacks
 * and events (src/ast/token-wiring), and for a federated sign-out the
 * framework's own wiring (the config's exports, the files init generated)
 * planned again with it and carried onto the project's files. What cannot be
 * done with certainty is a note with the lines to add. Nothing here writes.
 */
import { dirname, join } from "node:path";
import type { DependencyName } from "../catalog/dependencies.js";
import { dependencyVersions } from "../catalog/dependencies.js";
import { importedPackages } from "../families/render.js";
import type { FrameworkModule } from "../frameworks/framework.js";
import { UsageError } from "../lib/errors.js";
import { posixRelative } from "../lib/posix-path.js";
import { carryChange } from "../render/carry-change.js";
import type { FilesPart, PlannedFile, ProviderSnippet } from "../render/parts.js";
import { readAliases, resolveSpecifier } from "../workspace/auth-setup/aliases.js";
import { readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { BeforeInitView } from "../workspace/project-view.js";
import { postLogoutVariable } from "./auth-config.js";
import { inJavaScript } from "./javascript.js";

export interface TokenWiringInput {
  root: string;
  /** The config the provider went into, absolute, and its text after that edit. */
  configPath: string;
  configText: string;
  /** Where provider modules go: token-rotation.ts too, when the adapter is not a module of the project. */
  modulesDir: string;
  snippet: ProviderSnippet & { tokens: NonNullable<ProviderSnippet["tokens"]> };
  framework: FrameworkModule;
  /** A JavaScript project whose server runs its modules as written: token-rotation.js, and the framework's files in JavaScript. */
  javascript?: boolean;
}

export interface TokenWiring {
  configText: string;
  /** token-rotation.ts where it is missing, and the framework files the sign-out goes through. */
  part: FilesPart;
  /** What could not be done with certainty, with the lines to add. */
  notes: string[];
  dependencies: DependencyName[];
}

/** What rotation calls beyond Auth.js's adapter (token-rotation.ts's TokenAdapter). */
const operations = ["updateAccount", "listAccountsByUserId", "leaseAccount"];

/** The extension of the project's relative imports: always .js where Node runs the modules as written. */
const extensionOf = (input: TokenWiringInput): "" | ".js" => (input.javascript ? ".js" : importExtension(input.root));

/** `./auth/token-rotation.js` from the config's folder, as the project writes its imports. */
function moduleSpecifier(fromDir: string, file: string, ext: "" | ".js"): string {
  const rel = posixRelative(fromDir, file).replace(/\.ts$/, ext);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/**
 * The config's adapter, refused (before anything is written) when it is
 * not there or cannot do what rotation needs: rotation keeps the tokens on
 * the stored account. Returns the file of the module that makes it, when
 * that is one of the project's.
 */
async function adapterModule(input: TokenWiringInput, flag: string): Promise<string | undefined> {
  const { readAdapter } = await import("../ast/adapter-expression.js");
  const adapter = readAdapter(input.configText, input.configPath);
  const config = posixRelative(input.root, input.configPath);
  // A config the edit cannot read for it: the wiring itself says why.
  if (typeof adapter === "string") return undefined;
  if (adapter === undefined)
    throw new UsageError(
      `${flag}: ${config} has no adapter, and token rotation keeps the tokens on the stored account; create-auth init writes one (or give the config an adapter with ${operations.join(", ")}). Nothing was written.`,
    );
  const from = adapter.factory?.module;
  const file =
    from === undefined ? input.configPath : resolveSpecifier(readAliases(input.root), input.configPath, from);
  const lacking = file === undefined ? operations : operations.filter((op) => !readIfExists(file)?.includes(op));
  if (lacking.length)
    throw new UsageError(
      `${flag}: the adapter of ${config} (${adapter.text}) has no ${lacking.join(", ")}, which token rotation calls to keep the tokens on the stored account; the adapter create-auth init generates has them. Nothing was written.`,
    );
  return file === input.configPath ? undefined : file;
}

export async function planTokenWiring(input: TokenWiringInput): Promise<TokenWiring> {
  const { snippet, configPath, root } = input;
  const flag = snippet.tokens.refresh ? "--refresh-tokens" : "--federated-logout";
  const adapterFile = await adapterModule(input, flag);
  const [{ wireTokenRotation, rotationImport }, { renderTemplate }] = await Promise.all([
    import("../ast/token-wiring/index.js"),
    import("../render/templates.js"),
  ]);
  // The rotation the config already imports, else one beside the adapter (it uses the adapter's operations).
  const imported = rotationImport(input.configText, configPath);
  const rotationPath =
    (imported && resolveSpecifier(readAliases(root), configPath, imported)) ??
    join(adapterFile ? dirname(adapterFile) : input.modulesDir, `token-rotation.${input.javascript ? "js" : "ts"}`);
  const rotationSource = await renderTemplate("config/token-rotation.ts.hbs", {});
  const rotationText = input.javascript
    ? (await import("../ast/strip-types.js")).stripTypes(rotationSource, "token-rotation.ts")
    : rotationSource;
  const notes: string[] = [];
  const edits: PlannedFile[] = [];
  const shown = posixRelative(root, configPath);
  const wired = wireTokenRotation(
    input.configText,
    {
      rotationModule: imported ?? moduleSpecifier(dirname(configPath), rotationPath, extensionOf(input)),
      refresh: snippet.tokens.refresh ? [snippet.entry] : [],
      federatedSignOut: snippet.tokens.federatedLogout ? [snippet.entry] : [],
      postLogoutVariable,
    },
    configPath,
  );
  let configText = input.configText;
  if (wired.status === "refused")
    notes.push(`${shown} was not wired for token rotation (${wired.reason}); add to it:\n${wired.manual}`);
  else configText = wired.text;
  if (snippet.tokens.federatedLogout && wired.status !== "refused") {
    const signOut = await signOutWiring(input, configText);
    configText = signOut.configText;
    edits.push(...signOut.edits);
    notes.push(...signOut.notes);
  }
  const dependencies = importedPackages(rotationText).filter((name): name is DependencyName =>
    Object.hasOwn(dependencyVersions, name),
  );
  // A copy of the rotation the user edited is theirs.
  return {
    configText,
    part: { ifMissing: [{ path: rotationPath, contents: rotationText }], edits },
    notes,
    dependencies,
  };
}

/**
 * The framework's sign-out wiring, planned with and without a federated
 * sign-out on the project as init saw it, and the difference carried over:
 * the config's imports and exports, and each framework file init generated.
 */
async function signOutWiring(input: TokenWiringInput, configText: string) {
  const { root, framework, configPath } = input;
  const view = new BeforeInitView(root);
  const facts = framework.detect(view)?.facts ?? framework.assume(view);
  const request = {
    facts,
    configPath: posixRelative(root, configPath),
    authDir: framework.layout(facts, view).authDir,
    importExtension: extensionOf(input),
    alias: view.alias,
  };
  const asWritten = async (part: Awaited<ReturnType<FrameworkModule["plan"]>>) =>
    input.javascript ? { ...part, files: (await inJavaScript({ files: part.files, scripts: {} })).part.files } : part;
  // In a JavaScript project init wrote the framework's files as JavaScript: compare and carry them as such.
  const [off, on] = await Promise.all([
    framework.plan(request).then(asWritten),
    framework.plan({ ...request, federatedSignOut: true }).then(asWritten),
  ]);
  const notes: string[] = [];
  const shown = request.configPath;
  const { addImports, swapExports } = await import("../ast/config-shape.js");
  const newImports = on.config.imports.filter((line) => !off.config.imports.includes(line));
  const imported = addImports(configText, newImports, configPath);
  const swapped = "text" in imported && swapExports(imported.text, off.config.exports, on.config.exports, configPath);
  let text = configText;
  if (swapped && "text" in swapped) text = swapped.text;
  else {
    const why = "refusal" in imported ? imported.refusal : swapped && "refusal" in swapped ? swapped.refusal : "";
    notes.push(
      `${shown} does not send a sign-out on to the provider yet (${why}); in it, add:\n${[...newImports, ...(off.config.exports.length ? [`and in place of ${off.config.exports.join("\n")}:`] : []), ...on.config.exports].join("\n")}`,
    );
  }
  const edits: PlannedFile[] = [];
  for (const file of on.files) {
    const before = off.files.find((f) => f.path === file.path)?.contents;
    if (before === file.contents) continue;
    const path = join(root, file.path);
    const disk = readIfExists(path);
    if (disk === file.contents) continue;
    if (disk === null && before === undefined) {
      edits.push({ path, contents: file.contents });
      continue;
    }
    const carried = disk !== null && before !== undefined ? await carryChange(before, file.contents, disk) : undefined;
    if (carried?.text) edits.push({ path, contents: carried.text });
    else
      notes.push(
        disk === null
          ? `${file.path}, which init writes, is not there: for a sign-out to reach the provider, pass each request through signOutRequest(request, userIdOf) from ${shown} before Auth.js sees it.`
          : `${file.path} was changed since init wrote it, so the sign-out wiring was not merged; add to it:\n${carried?.added.join("\n") ?? ""}`,
      );
  }
  notes.push(...on.steps.filter((step) => !off.steps.includes(step)));
  return { configText: text, edits, notes };
}
