/**
 * Reading and editing dotenv files the way dotenv reads them, so an edit
 * lands on a real assignment and never inside another variable's value:
 * `export` prefixes, `#` comments, values in single, double or back quotes
 * that run over several lines, CRLF line endings. Edits replace character
 * ranges of one parse; every other byte of the file stays as it was.
 */
import type { EnvVariable } from "../render/parts.js";

/** One assignment: its name, its value as dotenv gives it, and where its value's text lies. */
export interface EnvEntry {
  name: string;
  value: string;
  /** The value's text in the file, quotes included ([valueStart, valueEnd)); empty for `NAME=`. */
  valueStart: number;
  valueEnd: number;
}

const assignment = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*/;

/** The end of the line that starts at `from` (before its \r\n or \n). */
function lineEnd(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  const end = newline === -1 ? text.length : newline;
  return end > from && text[end - 1] === "\r" ? end - 1 : end;
}

/** Where the quoted value opening at `open` closes (the index after the quote), or -1 when it never does. */
function closingQuote(text: string, open: number): number {
  const quote = text[open]!;
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i + 1;
  }
  return -1;
}

function unquote(raw: string): string {
  const quote = raw[0];
  const inner = raw.slice(1, -1);
  if (quote !== '"') return inner;
  return inner.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
}

/** Every assignment in the file, in order (a name may appear twice: dotenv's parse keeps the last). */
export function parseEnv(text: string): EnvEntry[] {
  const entries: EnvEntry[] = [];
  let at = 0;
  while (at < text.length) {
    const end = lineEnd(text, at);
    const match = assignment.exec(text.slice(at, end));
    let next = text.indexOf("\n", at) === -1 ? text.length : text.indexOf("\n", at) + 1;
    if (match) {
      const valueStart = at + match[0].length;
      const closes = /["'`]/.test(text[valueStart] ?? "") ? closingQuote(text, valueStart) : -1;
      if (closes !== -1) {
        entries.push({ name: match[1]!, value: unquote(text.slice(valueStart, closes)), valueStart, valueEnd: closes });
        // A quoted value may run over lines: the next assignment starts after the line it closes on.
        const after = text.indexOf("\n", closes);
        next = after === -1 ? text.length : after + 1;
      } else {
        // Unquoted (or a quote never closed, which dotenv reads as plain text): up to a ` #` comment.
        const line = text.slice(valueStart, end);
        const comment = /(^|[ \t])#/.exec(line);
        const raw = (comment ? line.slice(0, comment.index) : line).replace(/[ \t]+$/, "");
        entries.push({ name: match[1]!, value: raw, valueStart, valueEnd: valueStart + raw.length });
      }
    }
    at = next;
  }
  return entries;
}

/** The assignment of `name` that counts: the last, as dotenv's parse keeps. */
const effectiveEntry = (text: string, name: string) => parseEnv(text).findLast((entry) => entry.name === name);

/** The value of `name` in a dotenv text ("" when set empty), or undefined when it is not set. */
export function envValue(text: string, name: string): string | undefined {
  return effectiveEntry(text, name)?.value;
}

/**
 * Returns the new file text, or the old text when every name is defined;
 * `value` gives what each new line holds. New lines take the file's own line
 * ending (CRLF stays CRLF).
 */
export function addEnvEntries(
  existing: string | null,
  variables: readonly EnvVariable[],
  heading: string,
  value: (variable: EnvVariable) => string,
): string {
  const text = existing ?? "";
  const names = new Set(parseEnv(text).map((entry) => entry.name));
  const missing = variables.filter((v) => !names.has(v.name));
  if (missing.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = [`# ${heading}`];
  for (const variable of missing) lines.push(`# ${variable.description}`, `${variable.name}=${value(variable)}`);
  const separator = text === "" ? "" : text.endsWith(eol + eol) ? "" : text.endsWith(eol) ? eol : eol + eol;
  return `${text}${separator}${lines.join(eol)}${eol}`;
}

/** Sets `name` where the file has it with an empty value (as after `cp .env.example .env.local`); other values stay. */
export function fillEmptyValue(text: string, name: string, value: string): string {
  const entry = effectiveEntry(text, name);
  if (entry?.value !== "") return text;
  return text.slice(0, entry!.valueStart) + value + text.slice(entry!.valueEnd);
}

/** Dotenv files by name: .env, .env.local, .env.production... */
export const isEnvFile = (name: string) => name === ".env" || name.startsWith(".env.");

/** The env files that hold real values: all but the documented templates (.env.example and the like). */
export const isSecretEnvFile = (name: string) => isEnvFile(name) && !/\.(?:example|sample|template|dist)$/.test(name);

/** Every assigned value replaced by <hidden>, for diffs and messages, multi-line values whole; comments and empty values stay. */
export function maskEnvValues(text: string): string {
  let masked = "";
  let at = 0;
  for (const entry of parseEnv(text)) {
    if (entry.valueEnd === entry.valueStart) continue;
    masked += `${text.slice(at, entry.valueStart)}<hidden>`;
    at = entry.valueEnd;
  }
  return masked + text.slice(at);
}
