/**
 * Reading and editing dotenv files the way dotenv reads them, so an edit
 * lands on a real assignment and never inside another variable's value:
 * `export` prefixes, `#` comments, values in single, double or back quotes
 * that run over several lines, CRLF line endings, a byte-order mark (dotenv
 * reads it as the blank it is; editors on Windows write one). Edits replace
 * character ranges of one parse; every other byte of the file, the mark
 * included, stays as it was.
 */
import type { EnvVariable } from "./parts.js";

/** One assignment: its name, its value as dotenv gives it, and where its value's text lies. */
export interface EnvEntry {
  name: string;
  /** Where the name starts in the file (after any blank, byte-order mark or `export`). */
  nameStart: number;
  value: string;
  /** The value's text in the file, quotes included ([valueStart, valueEnd)); empty for `NAME=`. */
  valueStart: number;
  valueEnd: number;
}

/**
 * dotenv's line: blanks (its `\s`, which takes a byte-order mark and other
 * Unicode spaces too), an optional `export`, a name of word characters, dots
 * and dashes, `=`.
 */
const assignment = /^([^\S\r\n]*(?:export[^\S\r\n]+)?)([\w.-]+)[^\S\r\n]*=[^\S\r\n]*/;

/** The end of the line that starts at `from` (before its \r\n or \n). */
function lineEnd(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  const end = newline === -1 ? text.length : newline;
  return end > from && text[end - 1] === "\r" ? end - 1 : end;
}

/** The start of the line after the one `from` is on. */
function nextLine(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  return newline === -1 ? text.length : newline + 1;
}

/**
 * Where the quoted value opening at `open` closes (the index after the
 * quote), or -1 when dotenv reads it as plain text. As dotenv's pattern: a
 * backslash escapes only the quote itself; the value runs to the first
 * unescaped quote, else back to an escaped one, and counts only if nothing
 * but blanks and a comment follow it on its line.
 */
function closingQuote(text: string, open: number): number {
  const quote = text[open]!;
  const candidates: number[] = [];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === quote) candidates.unshift(++i);
    else if (text[i] === quote) {
      candidates.unshift(i);
      break;
    }
  }
  const ends = (close: number) => /^[^\S\r\n]*(?:#.*)?$/.test(text.slice(close + 1, lineEnd(text, close + 1)));
  const close = candidates.find(ends);
  return close === undefined ? -1 : close + 1;
}

/** A value between matching quotes, as dotenv gives it: line endings as \n, and \n, \r expanded in double quotes. */
function unquote(raw: string): string {
  const quote = raw[0];
  const inner = raw.slice(1, -1).replace(/\r\n?/g, "\n");
  if (quote !== '"') return inner;
  return inner.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
}

const isQuote = (char: string | undefined) => char === '"' || char === "'" || char === "`";

/** Every assignment in the file, in order (a name may appear twice: dotenv's parse keeps the last). */
export function parseEnv(text: string): EnvEntry[] {
  const entries: EnvEntry[] = [];
  let at = 0;
  while (at < text.length) {
    const end = lineEnd(text, at);
    const match = assignment.exec(text.slice(at, end));
    let next = nextLine(text, at);
    if (match) {
      const name = match[2]!;
      const nameStart = at + match[1]!.length;
      const valueStart = at + match[0].length;
      const closes = isQuote(text[valueStart]) ? closingQuote(text, valueStart) : -1;
      if (closes !== -1) {
        entries.push({ name, nameStart, value: unquote(text.slice(valueStart, closes)), valueStart, valueEnd: closes });
        // A quoted value may run over lines: the next assignment starts after the line it closes on.
        next = nextLine(text, closes);
      } else {
        // Unquoted (or a quote that does not close as dotenv needs): up to the first #, blanks trimmed.
        const line = text.slice(valueStart, end);
        const hash = line.indexOf("#");
        const raw = (hash === -1 ? line : line.slice(0, hash)).replace(/\s+$/, "");
        const quoted = raw.length > 1 && isQuote(raw[0]) && raw.at(-1) === raw[0];
        entries.push({
          name,
          nameStart,
          value: quoted ? unquote(raw) : raw,
          valueStart,
          valueEnd: valueStart + raw.length,
        });
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
 * Names written commented out (`# NAME=`, as create-auth writes a variable
 * for the user to fill in), outside any quoted value: they count as present,
 * so a second run does not add them again.
 */
export function commentedNames(text: string): Set<string> {
  const values = parseEnv(text).filter((entry) => entry.valueEnd - entry.valueStart > 1);
  const names = new Set<string>();
  for (const match of text.matchAll(/^[^\S\r\n]*#[^\S\r\n]*(?:export[^\S\r\n]+)?([\w.-]+)[^\S\r\n]*=/gm)) {
    if (!values.some((v) => match.index > v.valueStart && match.index < v.valueEnd)) names.add(match[1]!);
  }
  return names;
}

/**
 * Returns the new file text, or the old text when every name is defined
 * (assigned, or written commented out); `value` gives what each new line
 * holds, `null` for a line written commented out (`# NAME=`). New lines take
 * the file's own line ending (CRLF stays CRLF); a byte-order mark stays first.
 */
export function addEnvEntries(
  existing: string | null,
  variables: readonly EnvVariable[],
  heading: string,
  value: (variable: EnvVariable) => string | null,
): string {
  const text = existing ?? "";
  const names = new Set([...parseEnv(text).map((entry) => entry.name), ...commentedNames(text)]);
  const missing = variables.filter((v) => !names.has(v.name));
  if (missing.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = [`# ${heading}`];
  for (const variable of missing) {
    const line = value(variable);
    lines.push(`# ${variable.description}`, line === null ? `# ${variable.name}=` : `${variable.name}=${line}`);
  }
  const empty = text === "" || text === "\uFEFF";
  const separator = empty ? "" : text.endsWith(eol + eol) ? "" : text.endsWith(eol) ? eol : eol + eol;
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

/** Sets `name` to `value` in a dotenv text: its last assignment replaced, else a new line added. */
export function setEnvValue(text: string, name: string, value: string, description: string): string {
  const entry = parseEnv(text).findLast((e) => e.name === name);
  if (entry) return text.slice(0, entry.valueStart) + value + text.slice(entry.valueEnd);
  return addEnvEntries(text, [{ name, description, example: "" }], "Added by create-auth doctor --fix", () => value);
}

/** Renames every assignment of `from` to `to`, keeping values, comments, line endings and a byte-order mark. */
export function renameEnvVariable(text: string, from: string, to: string): string {
  let out = "";
  let at = 0;
  for (const entry of parseEnv(text).filter((e) => e.name === from)) {
    out += text.slice(at, entry.nameStart) + to;
    at = entry.nameStart + from.length;
  }
  return out + text.slice(at);
}
