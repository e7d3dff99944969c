/**
 * Composing a handler the project exports itself with the handlers Auth.js
 * adds, through the framework's own `sequence()`: SvelteKit's `handle` in
 * src/hooks.server.ts (`sequence` of @sveltejs/kit/hooks), Astro's
 * `onRequest` in src/middleware.ts (`sequence` of astro:middleware).
 *
 * - A handle that is already `sequence(a, b)` gets the new handlers in
 *   front: `sequence(authHandle, a, b)`.
 * - Any other handle keeps every byte but its export and its name
 *   (`export const handle = ...` becomes `const appHandle = ...`), and
 *   `export const handle = sequence(authHandle, appHandle)` follows it.
 * - A module without the export gets one.
 *
 * A pure text edit: a second run changes nothing (a later one adds only the
 * handlers still missing); what cannot be read with certainty is refused
 * with the reason, and the user adds the lines by hand.
 */
import type { CallExpression, Node } from "@babel/types";
import { commaAfter } from "./list-edit.js";
import { endOf, startOf, unwrap } from "./nodes.js";
import {
  addImports,
  detachExport,
  fileStyle,
  findExport,
  importedAs,
  importLine,
  localOf,
  type NamedImport,
} from "./own-export.js";
import { applyEdits, eol, firstSyntaxError, indentAt, parse, type SourceFile, type TextEdit } from "./parse.js";

export interface SequenceWiring {
  /** The export the framework runs: "handle", "onRequest". */
  exportName: string;
  /** The module sequence() comes from: "@sveltejs/kit/hooks", "astro:middleware". */
  sequenceFrom: string;
  /** The handlers that run before the project's own, in order, and where each is imported from. */
  handlers: NamedImport[];
  /** The name the project's own handler takes when it is not a sequence(): "appHandle". */
  ownName: string;
  /** Comment lines written above a new export, each starting with "//". */
  comment: string[];
}

export type SequenceEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const sequenceImport = (wiring: SequenceWiring): NamedImport => ({ name: "sequence", from: wiring.sequenceFrom });

/** The lines a user adds by hand, their handler standing as `yours`. */
export function sequenceLines(wiring: SequenceWiring, yours: string): string[] {
  const style = { cjs: false, quote: '"', semicolon: true };
  const handlers = wiring.handlers.map(localOf);
  return [
    importLine(sequenceImport(wiring), style),
    ...wiring.handlers.map((h) => importLine(h, style)),
    `export const ${wiring.exportName} = sequence(${[...handlers, yours].join(", ")});`,
  ];
}

export function composeSequence(text: string, wiring: SequenceWiring, fileName = "hooks.server.ts"): SequenceEdit {
  const file = parse(text, fileName);
  const syntax = firstSyntaxError(file);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const found = findExport(file, wiring.exportName);
  if (found.kind === "unreadable") return { status: "refused", reason: found.reason };
  // `export { handle } from "$lib/server/auth"`: the first handler alone, as create-auth writes a new module.
  const reexported =
    found.kind === "reexport" && found.from === wiring.handlers[0]?.from && found.imported === wiring.handlers[0].name;
  if (found.kind === "reexport" && !reexported)
    return { status: "refused", reason: `it re-exports ${wiring.exportName} from ${found.from}` };
  if (reexported && wiring.handlers.length === 1) return { status: "unchanged" };
  if (reexported && found.statement.specifiers.length > 1)
    return { status: "refused", reason: `it re-exports ${wiring.exportName} with other names in one statement` };
  const handlers = wiring.handlers.map((h) => importedAs(file, h)?.local ?? localOf(h));
  const present = wiring.handlers.filter((h) => importedAs(file, h));
  const sequence = importedAs(file, sequenceImport(wiring))?.local;
  const value = found.kind === "variable" && found.init ? unwrap(found.init) : undefined;
  const call = value?.type === "CallExpression" && sequence && isCallOf(value, sequence) ? value : undefined;
  // `export const handle = authHandle`, as a module with no handle of its own gets it.
  const alone = value?.type === "Identifier" && handlers.includes(value.name) ? found : undefined;
  if (present.length === wiring.handlers.length) return { status: "unchanged" };
  // Composed before: only handlers added since (--protect on a later run) go in.
  if (present.length && !call && !alone)
    return { status: "refused", reason: `its ${wiring.exportName} is not the sequence() create-auth composed` };

  const newline = eol(text);
  const sequenceName = sequence ?? "sequence";
  const needsSequence = !call && (!(found.kind === "none" || reexported) || handlers.length > 1);
  const imports = addImports(file, [
    ...(needsSequence && !sequence ? [sequenceImport(wiring)] : []),
    ...wiring.handlers,
  ]);
  if ("reason" in imports) return { status: "refused", reason: imports.reason };
  const edits: TextEdit[] = [...imports.edits];
  const composed = (own: string[]) => {
    const all = [...handlers, ...own];
    return all.length === 1 ? all[0]! : `${sequenceName}(${all.join(", ")})`;
  };
  const semicolon = fileStyle(file).semicolon ? ";" : "";
  const exported = (own: string[]) =>
    [...wiring.comment, `export const ${wiring.exportName} = ${composed(own)}${semicolon}`].join(newline);

  if (call) edits.push(...insertArguments(file, call, handlers));
  else if (alone?.kind === "variable")
    edits.push({ start: startOf(alone.init!), end: endOf(alone.init!), text: composed([]) });
  else if (reexported) edits.push({ start: startOf(found.statement), end: endOf(found.statement), text: exported([]) });
  else if (found.kind === "none") {
    const end = text.trimEnd().length;
    edits.push({ start: end, end, text: end ? `${newline}${newline}${exported([])}` : `${exported([])}${newline}` });
  } else {
    const detached = detachExport(file, found, wiring.ownName);
    if ("reason" in detached) return { status: "refused", reason: detached.reason };
    edits.push(...detached.edits);
    const at = endOf(detached.after);
    edits.push({ start: at, end: at, text: `${newline}${newline}${exported([detached.local])}` });
  }
  return { status: "edited", text: applyEdits(text, edits) };
}

const isCallOf = (call: CallExpression, name: string) => call.callee.type === "Identifier" && call.callee.name === name;

/**
 * The handlers missing from `sequence(...)`'s arguments, each after the one
 * before it in `handlers` (the first ones in front), in the list's layout.
 */
function insertArguments(file: SourceFile, call: CallExpression, handlers: string[]): TextEdit[] {
  const { text } = file;
  const args: Node[] = call.arguments;
  const names = args.map((a) => (a.type === "Identifier" ? a.name : undefined));
  const first = args[0];
  const multiline = first !== undefined && text.slice(endOf(call.callee), startOf(first)).includes("\n");
  const gap = multiline ? `${eol(text)}${indentAt(text, startOf(first))}` : " ";
  const edits: TextEdit[] = [];
  let anchor: Node | undefined;
  let pending: string[] = [];
  const flush = () => {
    if (!pending.length) return;
    if (anchor) {
      // After the anchor's comma when it has one (more arguments follow, or a trailing comma), else after it.
      const comma = commaAfter(text, endOf(anchor));
      edits.push(
        comma === undefined
          ? { start: endOf(anchor), end: endOf(anchor), text: pending.map((p) => `,${gap}${p}`).join("") }
          : { start: comma, end: comma, text: pending.map((p) => `${gap}${p},`).join("") },
      );
    } else if (first) {
      edits.push({ start: startOf(first), end: startOf(first), text: pending.map((p) => `${p},${gap}`).join("") });
    } else {
      const close = endOf(call) - 1;
      edits.push({ start: close, end: close, text: pending.join(", ") });
    }
    pending = [];
  };
  for (const handler of handlers) {
    const index = names.indexOf(handler);
    if (index === -1) pending.push(handler);
    else {
      flush();
      anchor = args[index];
    }
  }
  flush();
  return edits;
}
