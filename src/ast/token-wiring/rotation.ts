/**
 * The rotation itself in the config module: `const tokens =
 * createTokenRotation({ adapter, refresh, federatedSignOut, ... })` created
 * before the config statement (the config's adapter shared with it, hoisted
 * into a const when it is an expression), the exports the app reads
 * (getAccessToken, signOutUrl, signOutRequest), and later providers added to
 * its lists. Each function is one pass: edits against one parse.
 */
import type { CallExpression, Node, ObjectExpression, Statement } from "@babel/types";
import { collectBindings, localDeclarations } from "../bindings.js";
import { appendToList, literalList, rangesOf } from "../list-edit.js";
import { descendants, endOf, ofType, parentOf, propertyName, rangeWithParens, startOf, textOf } from "../nodes.js";
import { eol, indentAt, indentUnit, lineAt, lineStartOf, type SourceFile, type TextEdit } from "../parse.js";
import { referencedNames } from "../references.js";
import { type ConfigObject, isFree, member, propertyValue } from "./config-object.js";

export interface RotationLists {
  /** Provider entries (the bindings in `providers`) whose access tokens are refreshed. */
  refresh: readonly string[];
  /** Provider entries whose own session ends on sign-out. */
  federatedSignOut: readonly string[];
  /** The variable holding the post-logout redirect URI. */
  postLogoutVariable: string;
}

export interface Rotation {
  /** The const holding it ("tokens"). */
  name: string;
  options: ObjectExpression;
  statement: Statement;
}

/** What the app imports from the config: each export, the method of the rotation it is, and its comment. */
const rotationExports = {
  getAccessToken:
    'A fresh access token for your own API calls: await getAccessToken(session.user.id, "<provider id>").',
  signOutUrl:
    "The provider's end-session URL for a user, or null; Auth.js's sign-out goes there through signOutRequest.",
  signOutRequest:
    "Auth.js's sign-out request with the provider's end-session URL as its callbackUrl: the wiring passes requests through it.",
} as const;

/** The exports a rotation with these lists needs. */
export const exportsFor = (federated: boolean): (keyof typeof rotationExports)[] =>
  federated ? ["getAccessToken", "signOutUrl", "signOutRequest"] : ["getAccessToken"];

const topLevel = (file: SourceFile, node: Node): Statement | undefined => {
  let current: Node = node;
  for (let parent = parentOf(file.root, current); parent; parent = parentOf(file.root, current)) {
    if (parent.type === "Program") return current as Statement;
    current = parent;
  }
  return undefined;
};

/** The module's rotation, if it creates one; a call the wiring cannot follow is a refusal. */
export function findRotation(file: SourceFile): Rotation | undefined | { refusal: string } {
  const imported = collectBindings(file).find((b) => b.imported === "createTokenRotation" && !b.typeOnly);
  if (!imported) return undefined;
  const calls = descendants(
    file.root.program,
    (node): node is CallExpression =>
      node.type === "CallExpression" && node.callee.type === "Identifier" && node.callee.name === imported.local,
  );
  if (calls.length === 0) return undefined;
  const call = calls[0]!;
  const declarator = parentOf(file.root, call);
  const statement = topLevel(file, call);
  const options = call.arguments[0];
  if (
    calls.length > 1 ||
    declarator?.type !== "VariableDeclarator" ||
    declarator.id.type !== "Identifier" ||
    options?.type !== "ObjectExpression" ||
    statement?.type !== "VariableDeclaration" ||
    statement.declarations.length !== 1
  )
    return {
      refusal: `createTokenRotation() at line ${lineAt(file.text, startOf(call))} is not one \`const tokens = createTokenRotation({ ... })\` at the top of the module.`,
    };
  return { name: declarator.id.name, options, statement };
}

/** Edits adding what `lists` names and the rotation lacks; a list that is not an array literal is a refusal. */
export function extendLists(file: SourceFile, rotation: Rotation, lists: RotationLists): TextEdit[] | string {
  const { text } = file;
  const edits: TextEdit[] = [];
  const newProperties: string[] = [];
  for (const key of ["refresh", "federatedSignOut"] as const) {
    const wanted = lists[key];
    if (wanted.length === 0) continue;
    const found = member(rotation.options, key);
    if (found === undefined) {
      newProperties.push(`${key}: [${wanted.join(", ")}]`);
      continue;
    }
    const array = found === "several" ? undefined : propertyValue(found);
    if (array?.type !== "ArrayExpression" || array.elements.includes(null))
      return `\`${key}\` of createTokenRotation() is not an array literal the provider can be added to`;
    const present = new Set(array.elements.map((e) => textOf(text, e!).trim()));
    const missing = wanted.filter((entry) => !present.has(entry));
    if (missing.length)
      edits.push(
        ...appendToList(
          literalList(
            text,
            array,
            array.elements.map((e) => rangeWithParens(text, e!)),
            false,
          ),
          missing,
        ),
      );
  }
  const signsOut = lists.federatedSignOut.length > 0;
  if (signsOut && member(rotation.options, "postLogoutRedirectUri") === undefined)
    newProperties.push(`postLogoutRedirectUri: process.env.${lists.postLogoutVariable}`);
  if (newProperties.length)
    edits.push(
      ...appendToList(literalList(text, rotation.options, rangesOf(rotation.options.properties), true), newProperties),
    );
  return edits;
}

/** The statement index of a module-scope name's declaration; -1 for an import (hoisted), undefined when not declared. */
function declaredAt(file: SourceFile, name: string): number | undefined {
  if (collectBindings(file).some((b) => b.local === name)) return -1;
  const declaration = localDeclarations(file).get(name);
  const statement = declaration && topLevel(file, declaration);
  return statement ? file.statements.indexOf(statement) : undefined;
}

const functionNodes = ofType("ArrowFunctionExpression", "FunctionExpression");

/** Names the expression reads at once (not inside a function it defines, which may run later). */
function eagerReads(node: Node): Set<string> {
  const later = descendants(node, functionNodes).flatMap((fn) => [...referencedNames(fn)]);
  const now = referencedNames(node);
  for (const name of later) now.delete(name);
  return now;
}

interface NewRotation {
  edits: TextEdit[];
  /** The import the block needs. */
  name: string;
}

/**
 * The rotation created before the config statement, sharing the config's
 * adapter: an identifier declared above it as it is, any other expression
 * hoisted into `const adapter`, which the config then reads.
 */
export function createRotation(
  file: SourceFile,
  config: ConfigObject,
  lists: RotationLists,
  semicolon: boolean,
): NewRotation | string {
  const { text } = file;
  const nl = eol(text);
  const end = semicolon ? ";" : "";
  const unit = indentUnit(text);
  const adapterMember = member(config.object, "adapter");
  if (adapterMember === undefined)
    return "the config has no adapter, and the rotation keeps the tokens on the stored account";
  const value = adapterMember === "several" ? undefined : propertyValue(adapterMember);
  if (!value) return "the config's `adapter` is not one property the rotation can share";
  const configIndex = file.statements.indexOf(config.statement);
  const block: string[] = [];
  const edits: TextEdit[] = [];
  let adapter: string;
  if (value.type === "Identifier") {
    const at = declaredAt(file, value.name);
    if (at === undefined || at >= configIndex)
      return `the config's adapter \`${value.name}\` is not declared above the config, where the rotation is created`;
    adapter = value.name === "adapter" ? "adapter" : `adapter: ${value.name}`;
  } else {
    if (!isFree(file, "adapter"))
      return "`adapter` is already a name in the module, so the config's adapter cannot be shared under it";
    for (const name of eagerReads(value)) {
      const at = declaredAt(file, name);
      if (at !== undefined && at >= configIndex)
        return `the config's adapter reads \`${name}\`, declared below the config, so it cannot be created before it`;
    }
    const property = adapterMember as Node;
    const shorthand = propertyName(property) === "adapter" && property.type === "ObjectProperty" && !property.computed;
    edits.push({ start: startOf(property), end: endOf(property), text: shorthand ? "adapter" : "adapter: adapter" });
    const indent = indentAt(text, startOf(property));
    const expression = textOf(text, value)
      .split(/\r?\n/)
      .map((line, i) => (i > 0 && line.startsWith(indent) ? line.slice(indent.length) : line))
      .join(nl);
    block.push(
      "// One adapter for Auth.js and the token rotation (one connection pool).",
      `const adapter = ${expression}${end}`,
    );
    adapter = "adapter";
  }
  for (const name of ["tokens", ...exportsFor(lists.federatedSignOut.length > 0)])
    if (!isFree(file, name)) return `\`${name}\` is already a name in the module`;
  const options = [
    adapter,
    ...(lists.refresh.length ? [`refresh: [${lists.refresh.join(", ")}]`] : []),
    ...(lists.federatedSignOut.length
      ? [
          `federatedSignOut: [${lists.federatedSignOut.join(", ")}]`,
          `postLogoutRedirectUri: process.env.${lists.postLogoutVariable}`,
        ]
      : []),
  ];
  block.push(
    "// Tokens stay on the stored account and are refreshed when a session is read;",
    "// see token-rotation.ts (https://authjs.dev/guides/refresh-token-rotation).",
    "const tokens = createTokenRotation({",
    ...options.map((o) => `${unit}${o},`),
    `})${end}`,
    ...exportLines("tokens", exportsFor(lists.federatedSignOut.length > 0), end),
    "",
  );
  const at = leadingCommentsStart(file, config.statement);
  edits.push({ start: at, end: at, text: block.map((line) => line + nl).join("") });
  return { edits, name: "createTokenRotation" };
}

function exportLines(tokens: string, names: readonly (keyof typeof rotationExports)[], end: string): string[] {
  return names.flatMap((name) => [`/** ${rotationExports[name]} */`, `export const ${name} = ${tokens}.${name}${end}`]);
}

/** Where a statement's comments begin: the comments right above it (no blank line between) belong to it. */
function leadingCommentsStart(file: SourceFile, statement: Statement): number {
  const { text } = file;
  let start = lineStartOf(text, startOf(statement));
  for (const comment of [...file.comments].reverse()) {
    const [from, to] = [comment.start ?? 0, comment.end ?? 0];
    if (to > start) continue;
    const ownLine = /^\s*$/.test(text.slice(lineStartOf(text, from), from));
    if (!ownLine || !/^[ \t]*\r?\n?$/.test(text.slice(to, start))) break;
    start = lineStartOf(text, from);
  }
  return start;
}

/**
 * The exports the lists need and the module lacks, after the rotation's
 * statement and the exports already following it; a name taken by
 * something else is a refusal.
 */
export function addExports(
  file: SourceFile,
  rotation: Rotation,
  federated: boolean,
  semicolon: boolean,
): TextEdit[] | string {
  const { text } = file;
  const exported = new Set(
    file.statements.flatMap((s) =>
      s.type === "ExportNamedDeclaration"
        ? [
            ...(s.declaration?.type === "VariableDeclaration"
              ? s.declaration.declarations.flatMap((d) => (d.id.type === "Identifier" ? [d.id.name] : []))
              : []),
            ...s.specifiers.flatMap((sp) => (sp.exported.type === "Identifier" ? [sp.exported.name] : [])),
          ]
        : [],
    ),
  );
  const missing = exportsFor(federated).filter((name) => !exported.has(name));
  if (missing.length === 0) return [];
  for (const name of missing) if (!isFree(file, name)) return `\`${name}\` is already a name in the module`;
  // After the rotation and the `export const x = tokens.x` lines that follow it.
  let index = file.statements.indexOf(rotation.statement);
  while (
    file.statements[index + 1]?.type === "ExportNamedDeclaration" &&
    textOf(text, file.statements[index + 1]!).includes(`= ${rotation.name}.`)
  )
    index++;
  const nl = eol(text);
  const end = endOf(file.statements[index]!);
  // After a comment that trails the statement on its line, so the comment stays with it.
  const newline = text.indexOf("\n", end);
  let lineEnd = newline === -1 ? text.length : newline;
  if (text[lineEnd - 1] === "\r") lineEnd--;
  const after = /^\s*(?:\/\/.*|\/\*.*\*\/\s*)?$/.test(text.slice(end, lineEnd)) ? lineEnd : end;
  const lines = exportLines(rotation.name, missing, semicolon ? ";" : "");
  return [{ start: after, end: after, text: lines.map((line) => nl + line).join("") }];
}
