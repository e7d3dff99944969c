/**
 * Appending to and removing from comma-separated lists between brackets
 * (`[...]`, `{ a, b }` in imports and destructuring) as text edits that keep
 * the list's own layout: one item per line stays one per line, a trailing
 * comma stays, a single line stays single.
 */
import type { Node } from "@babel/types";
import { endOf, startOf } from "./nodes.js";
import { eol, indentAt, indentUnit, lineStartOf, reindent, skipTrivia, startsLine, type TextEdit } from "./parse.js";

export interface ListShape {
  /** The whole file text. */
  text: string;
  /** Position of the opening bracket. */
  open: number;
  /** Position of the closing bracket. */
  close: number;
  elements: readonly { start: number; end: number }[];
  /** Whether the source has a comma after the last element. */
  trailingComma: boolean;
  /** `{ a }` pads with spaces; `[a]` does not. */
  padded: boolean;
}

/** Position just past the comma that follows `from`, skipping whitespace and comments. */
export function commaAfter(text: string, from: number): number | undefined {
  const at = skipTrivia(text, from);
  return text[at] === "," ? at + 1 : undefined;
}

type Range = { start: number; end: number };

/** The list between a literal's own brackets (`{…}`, `[…]`), with its members' ranges and its trailing-comma habit. */
export function literalList(text: string, literal: Node, members: readonly Range[], padded: boolean): ListShape {
  const last = members.at(-1);
  return {
    text,
    open: startOf(literal),
    close: endOf(literal) - 1,
    elements: members,
    trailingComma: last ? commaAfter(text, last.end) !== undefined : false,
    padded,
  };
}

/** The ranges of nodes, for literalList. */
export const rangesOf = (nodes: readonly Node[]): Range[] => nodes.map((n) => ({ start: startOf(n), end: endOf(n) }));

function isMultiLine(list: ListShape): boolean {
  const first = list.elements[0];
  const last = list.elements.at(-1);
  if (!first || !last) return list.text.slice(list.open, list.close).includes("\n");
  return list.text.slice(list.open, first.start).includes("\n") || list.text.slice(last.end, list.close).includes("\n");
}

/** Indentation for a new item: that of the items already there, or one step in from the closing bracket. */
function itemIndent(list: ListShape): string {
  const last = list.elements.at(-1);
  if (last) return indentAt(list.text, last.start);
  const inner = list.text
    .slice(list.open + 1, list.close)
    .split(/\r?\n/)
    .slice(1)
    .find((line) => line.trim() !== "");
  const existing = inner && /^[ \t]*/.exec(inner)![0];
  return existing || indentAt(list.text, list.close) + indentUnit(list.text);
}

export function appendToList(list: ListShape, items: readonly string[]): TextEdit[] {
  const { text } = list;
  const nl = eol(text);
  const last = list.elements.at(-1);
  if (isMultiLine(list)) {
    const indent = itemIndent(list);
    // A list with no items yet has no habit to follow; prettier's default keeps trailing commas.
    const trailing = last ? list.trailingComma : true;
    const lines = items.map(
      (item, i) => `${indent}${reindent(item, indent, nl)}${i < items.length - 1 || trailing ? "," : ""}`,
    );
    const edits: TextEdit[] = [];
    if (last && !list.trailingComma) edits.push({ start: last.end, end: last.end, text: "," });
    if (startsLine(text, list.close)) {
      // Before the closing bracket's line, so comments after the last item stay above the new one.
      const at = lineStartOf(text, list.close);
      edits.push({ start: at, end: at, text: lines.join(nl) + nl });
    } else {
      const at = last ? (list.trailingComma ? commaAfter(text, last.end)! : last.end) : list.open + 1;
      edits.push({ start: at, end: at, text: nl + lines.join(nl) });
    }
    return mergeSamePosition(edits);
  }
  const joined = items.join(", ");
  if (!last) {
    const inner = text.slice(list.open + 1, list.close);
    const body = list.padded ? ` ${joined} ` : joined;
    return inner.trim() === ""
      ? [{ start: list.open + 1, end: list.close, text: body }]
      : [{ start: list.open + 1, end: list.open + 1, text: joined }];
  }
  if (list.trailingComma) {
    const at = commaAfter(text, last.end)!;
    return [{ start: at, end: at, text: ` ${joined},` }];
  }
  return [{ start: last.end, end: last.end, text: `, ${joined}` }];
}

/** Removes element `index` and one neighbouring comma; the caller handles removing the only element. */
export function removeFromList(list: ListShape, index: number): TextEdit {
  const element = list.elements[index]!;
  const next = list.elements[index + 1];
  if (next) return { start: element.start, end: next.start, text: "" };
  const previous = list.elements[index - 1]!;
  return { start: previous.end, end: element.end, text: "" };
}

function mergeSamePosition(edits: TextEdit[]): TextEdit[] {
  const [a, b] = edits;
  if (a && b && a.start === b.start && a.end === a.start && b.end === b.start)
    return [{ start: a.start, end: a.end, text: a.text + b.text }];
  return edits;
}

/**
 * Removes a whole statement with its line when nothing else shares that line;
 * a comment trailing it on the line described it, so it goes too.
 */
export function removeStatement(text: string, start: number, end: number): TextEdit {
  const newline = text.indexOf("\n", end);
  const lineEnd = newline === -1 ? text.length : newline + 1;
  if (startsLine(text, start) && /^\s*(?:\/\/.*|\/\*.*\*\/\s*)?$/.test(text.slice(end, lineEnd).trimEnd()))
    return { start: lineStartOf(text, start), end: lineEnd, text: "" };
  return { start, end, text: "" };
}
