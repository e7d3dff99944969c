/**
 * The config's callbacks and events composed with the rotation: the
 * session callback refreshes what expired (after the user's own callback,
 * which runs as it was), the redirect callback lets an end-session URL
 * through (every other URL still goes through the user's rule), and the
 * rotation's sign-in and sign-out events run beside the user's. A callback
 * that already calls the rotation is left alone; one written in a way the
 * edit cannot follow is a refusal. Each function is one pass.
 */
import type { Node, ObjectExpression } from "@babel/types";
import { appendToList, literalList, rangesOf } from "../list-edit.js";
import { descendants, endOf, rangeWithParens, startOf, textOf } from "../nodes.js";
import { eol, indentAt, indentUnit, reindent, type SourceFile, type TextEdit } from "../parse.js";
import { type ConfigObject, isFree, member, propertyValue } from "./config-object.js";

type Pass = TextEdit[] | string;

/** The rotation's const, the module's statement end (";" or none), and whether it signs out at the provider. */
export interface Names {
  tokens: string;
  end: string;
  federated: boolean;
}

const callable = new Set(["ArrowFunctionExpression", "FunctionExpression", "Identifier", "MemberExpression"]);

/**
 * The user's callback as an expression to call: a method becomes a function
 * expression of the same name and body, a property's value is taken as it
 * is; continuation lines relative to the member's own indent.
 */
function asExpression(file: SourceFile, node: Node): string | undefined {
  const { text } = file;
  const indent = indentAt(text, startOf(node));
  let expression: string;
  if (node.type === "ObjectMethod") {
    if (node.kind !== "method" || node.computed || node.generator || node.key.type !== "Identifier") return undefined;
    // `super` means nothing outside the object literal.
    if (descendants(node.body, (n) => n.type === "Super").length) return undefined;
    expression = `${node.async ? "async " : ""}function ${text.slice(startOf(node.key), endOf(node))}`;
  } else if (node.type === "ObjectProperty" && callable.has(node.value.type)) {
    const range = rangeWithParens(text, node.value);
    expression = text.slice(range.start, range.end);
  } else return undefined;
  return expression
    .split(/\r?\n/)
    .map((line, i) => (i > 0 && line.startsWith(indent) ? line.slice(indent.length) : line))
    .join("\n");
}

/** Replaces a member with `composed` (lines relative to the member), indented where the member is. */
function replaceMember(file: SourceFile, node: Node, composed: string[]): TextEdit {
  const nl = eol(file.text);
  const text = reindent(composed.join("\n"), indentAt(file.text, startOf(node)), nl);
  return { start: startOf(node), end: endOf(node), text };
}

/** Items appended to an object literal, each its own lines (relative), in the object's own layout. */
function append(file: SourceFile, object: ObjectExpression, items: string[][]): TextEdit[] {
  return appendToList(
    literalList(file.text, object, rangesOf(object.properties), true),
    items.map((lines) => lines.join("\n")),
  );
}

/** The config's `callbacks` object literal; undefined when it has none. */
function callbacksOf(config: ConfigObject): ObjectExpression | undefined | string {
  const found = member(config.object, "callbacks");
  if (found === undefined) return undefined;
  const value = found === "several" ? undefined : propertyValue(found);
  return value?.type === "ObjectExpression" ? value : "the config's `callbacks` is not an object literal";
}

/** A `callbacks` object holding one member (its lines), the comma after it as a multi-line list keeps one. */
function newCallbacks(file: SourceFile, lines: string[]): string[] {
  const unit = indentUnit(file.text);
  return ["callbacks: {", ...lines.map((l, i) => `${unit}${l}${i === lines.length - 1 ? "," : ""}`), "}"];
}

const nested = (file: SourceFile, expression: string) => expression.replace(/\n/g, `\n${indentUnit(file.text)}`);

export function wireSession(file: SourceFile, config: ConfigObject, { tokens, end }: Names): Pass {
  const unit = indentUnit(file.text);
  const callbacks = callbacksOf(config);
  if (typeof callbacks === "string") return callbacks;
  const fresh = [
    "// The access tokens that expired are refreshed when the session is read (session.error says when that failed).",
    "async session({ session, user, token }) {",
    `${unit}return ${tokens}.refreshOnRead(session, user?.id ?? token?.sub)${end}`,
    "}",
  ];
  if (!callbacks) return append(file, config.object, [newCallbacks(file, fresh)]);
  const own = member(callbacks, "session");
  if (own === undefined) return append(file, callbacks, [fresh]);
  if (own === "several") return "`callbacks` has several `session` members";
  if (textOf(file.text, own).includes(`${tokens}.refreshOnRead(`)) return [];
  const expression = asExpression(file, own);
  if (!expression || !isFree(file, "params") || !isFree(file, "result"))
    return "its session callback is written in a way the edit cannot wrap";
  return [
    replaceMember(file, own, [
      "async session(params) {",
      `${unit}// Your session callback as it was; then the access tokens that expired are refreshed (session.error says when that failed).`,
      `${unit}const result = await (${nested(file, expression)})(params)${end}`,
      `${unit}return ${tokens}.refreshOnRead(result, params.user?.id ?? params.token?.sub)${end}`,
      "}",
    ]),
  ];
}

/**
 * The rotation's redirect rule. A redirect callback of the user's is
 * composed only for a federated sign-out, the one thing it would refuse:
 * an end-session URL the rotation handed out passes, any other URL goes
 * through the user's rule.
 */
export function wireRedirect(file: SourceFile, config: ConfigObject, { tokens, end, federated }: Names): Pass {
  const unit = indentUnit(file.text);
  const callbacks = callbacksOf(config);
  if (typeof callbacks === "string") return callbacks;
  const fresh = [
    "// Lets a sign-out go on to the provider's end-session endpoint; otherwise Auth.js's own rule (this site only).",
    `redirect: ${tokens}.redirect`,
  ];
  if (!callbacks) return append(file, config.object, [newCallbacks(file, fresh)]);
  const own = member(callbacks, "redirect");
  if (own === undefined) return append(file, callbacks, [fresh]);
  if (own === "several") return "`callbacks` has several `redirect` members";
  if (textOf(file.text, own).includes(`${tokens}.redirect`) || !federated) return [];
  const expression = asExpression(file, own);
  if (!expression || !isFree(file, "params") || !isFree(file, "url"))
    return "its redirect callback is written in a way the edit cannot wrap";
  return [
    replaceMember(file, own, [
      "async redirect(params) {",
      `${unit}// An end-session URL of the provider passes, once (a sign-out going on to it); any other URL goes through your rule.`,
      `${unit}const url = await ${tokens}.redirect(params)${end}`,
      `${unit}return new URL(url).origin !== new URL(params.baseUrl).origin ? url : (${nested(file, expression)})(params)${end}`,
      "}",
    ]),
  ];
}

/** The rotation's events: later sign-ins write their tokens back, sign-out revokes; the user's own events run after them. */
export function wireEvents(file: SourceFile, config: ConfigObject, { tokens, end }: Names): Pass {
  const unit = indentUnit(file.text);
  const found = member(config.object, "events");
  if (found === undefined)
    return append(file, config.object, [
      [
        "// Later sign-ins write their fresh tokens to the account; sign-out revokes the refresh token.",
        `events: ${tokens}.events`,
      ],
    ]);
  if (found === "several") return "the config has several `events` members";
  if (textOf(file.text, found).replace(/\s/g, "").endsWith(`:${tokens}.events`)) return [];
  const events = propertyValue(found);
  if (events?.type !== "ObjectExpression") return "the config's `events` is not an object literal";
  const edits: TextEdit[] = [];
  const missing: string[][] = [];
  for (const name of ["signIn", "signOut"]) {
    const own = member(events, name);
    const ours = `${tokens}.events.${name}`;
    if (own === undefined) missing.push([`${name}: ${ours}`]);
    else if (own === "several") return `\`events\` has several \`${name}\` members`;
    else if (!textOf(file.text, own).includes(ours)) {
      const expression = asExpression(file, own);
      if (!expression || !isFree(file, "message")) return `its ${name} event is written in a way the edit cannot wrap`;
      edits.push(
        replaceMember(file, own, [
          `async ${name}(message) {`,
          `${unit}await ${ours}(message)${end}`,
          `${unit}await (${nested(file, expression)})(message)${end}`,
          "}",
        ]),
      );
    }
  }
  if (missing.length) edits.push(...append(file, events, missing));
  return edits;
}
