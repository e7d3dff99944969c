/**
 * Wires access-token rotation into an auth config, as text in and text (or
 * a refusal with the lines to add by hand) out: the rotation created beside
 * the config and sharing its adapter, the providers added to its lists, the
 * exports the app reads, and the config's callbacks and events composed
 * with it (rotation.ts, callbacks.ts). A config init wrote and a user's own
 * go through the same passes; a second run adds only what is missing. Each
 * pass parses afresh, so its edits are made against positions that are
 * still true. Load it with `await import(...)`: the parser is half a
 * megabyte of code.
 */
import { collectBindings, isCommonJs } from "../bindings.js";
import { formatImport, importStyle, planImports } from "../imports.js";
import { applyEdits, firstSyntaxError, parse, type TextEdit } from "../parse.js";
import { wireEvents, wireRedirect, wireSession } from "./callbacks.js";
import { configObject, member } from "./config-object.js";
import {
  addExports,
  createRotation,
  exportsFor,
  extendLists,
  findRotation,
  type Rotation,
  type RotationLists,
} from "./rotation.js";

export interface TokenWiringRequest extends RotationLists {
  /** token-rotation.ts as the config imports it ("./auth/token-rotation.js"). */
  rotationModule: string;
}

export type TokenWiringResult =
  | { status: "edited" | "unchanged"; text: string }
  /** The source is untouched; `manual` holds the lines to add by hand. */
  | { status: "refused"; reason: string; manual: string };

class Refusal extends Error {}

export function wireTokenRotation(source: string, request: TokenWiringRequest, fileName?: string): TokenWiringResult {
  try {
    const text = wire(source, request, fileName);
    return { status: text === source ? "unchanged" : "edited", text };
  } catch (error) {
    // A shape the passes did not foresee must not crash the command: the user still gets the lines.
    const reason =
      error instanceof Refusal
        ? error.message
        : `create-auth could not edit this file (${error instanceof Error ? error.message : String(error)})`;
    return { status: "refused", reason, manual: manualLines(request) };
  }
}

function wire(source: string, request: TokenWiringRequest, fileName: string | undefined): string {
  let text = source;
  const fresh = () => {
    const file = parse(text, fileName);
    const broken = firstSyntaxError(file);
    if (broken) throw new Refusal(`the file does not parse (${broken})`);
    const config = configObject(file);
    if ("refusal" in config) throw new Refusal(config.refusal);
    return { file, config };
  };
  const apply = (edits: TextEdit[] | string) => {
    if (typeof edits === "string") throw new Refusal(edits);
    text = applyEdits(text, edits);
  };
  const rotationOf = (file: ReturnType<typeof fresh>["file"]): Rotation | undefined => {
    const found = findRotation(file);
    if (found && "refusal" in found) throw new Refusal(found.refusal);
    return found;
  };

  let { file, config } = fresh();
  if (isCommonJs(file)) throw new Refusal("the config is a CommonJS module, and the rotation's exports are ES exports");
  const style = importStyle(file, false);
  const existing = rotationOf(file);
  if (existing) apply(extendLists(file, existing, request));
  else {
    const created = createRotation(file, config, request, style.semicolon);
    if (typeof created === "string") throw new Refusal(created);
    apply(created.edits);
    const imports = planImports(
      parse(text, fileName),
      [{ from: request.rotationModule, named: [created.name] }],
      style,
    );
    if ("conflict" in imports) throw new Refusal(imports.conflict);
    apply(imports.edits);
  }

  ({ file } = fresh());
  const rotation = rotationOf(file)!;
  const federated = member(rotation.options, "federatedSignOut") !== undefined;
  apply(addExports(file, rotation, federated, style.semicolon));
  const names = { tokens: rotation.name, end: style.semicolon ? ";" : "", federated };
  for (const pass of [wireSession, wireRedirect, wireEvents]) {
    ({ file, config } = fresh());
    apply(pass(file, config, names));
  }
  const broken = firstSyntaxError(parse(text, fileName));
  if (broken) throw new Error(`the edit would produce invalid code (${broken})`);
  return text;
}

/** What to add by hand: the import, the rotation, its exports, and where the config calls it. */
export function manualLines(request: TokenWiringRequest): string {
  const style = { cjs: false, quote: '"', semicolon: true };
  const lists = [
    "adapter: <the config's adapter>",
    ...(request.refresh.length ? [`refresh: [${request.refresh.join(", ")}]`] : []),
    ...(request.federatedSignOut.length
      ? [
          `federatedSignOut: [${request.federatedSignOut.join(", ")}]`,
          `postLogoutRedirectUri: process.env.${request.postLogoutVariable}`,
        ]
      : []),
  ];
  return [
    formatImport({ from: request.rotationModule, named: ["createTokenRotation"] }, style),
    `const tokens = createTokenRotation({ ${lists.join(", ")} });`,
    ...exportsFor(request.federatedSignOut.length > 0).map((name) => `export const ${name} = tokens.${name};`),
    "In the config: callbacks.session returns await tokens.refreshOnRead(<its session>, user?.id ?? token?.sub);",
    `callbacks.redirect: tokens.redirect${request.federatedSignOut.length ? " (an end-session URL it lets through must pass yours)" : ""}; events: tokens.events (or call tokens.events.signIn and .signOut from yours).`,
  ].join("\n");
}

/** Where the config imports createTokenRotation from, when it does. */
export function rotationImport(source: string, fileName?: string): string | undefined {
  const file = parse(source, fileName);
  return collectBindings(file).find((b) => b.imported === "createTokenRotation" && !b.typeOnly)?.module;
}
