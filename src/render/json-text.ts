/**
 * Edits of a JSON file as text: a member's value replaced where it stands,
 * or a member added at the end of its object in the file's own indentation
 * and line ending. Every byte outside the edit stays as it was: inline
 * arrays, the spacing of `"a":1`, escapes, a missing final newline. The text
 * must be valid JSON (the callers parse it first).
 */

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r";

function skipSpace(text: string, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

/** The index just past the string starting at `i` (a quote). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new Error("unterminated string in JSON");
}

/** The index just past the value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    let j = skipSpace(text, i + 1);
    if (text[j] === close) return j + 1;
    for (;;) {
      if (c === "{") j = skipSpace(text, skipSpace(text, stringEnd(text, j)) + 1);
      j = skipSpace(text, valueEnd(text, j));
      if (text[j] === close) return j + 1;
      j = skipSpace(text, j + 1);
    }
  }
  const literal = /^-?[\w.+-]+/.exec(text.slice(i));
  if (!literal) throw new Error(`unexpected ${JSON.stringify(c)} in JSON at ${i}`);
  return i + literal[0].length;
}

/** The members of the object whose `{` is at `open`, and the index of its `}`. */
function membersOf(text: string, open: number): { members: Member[]; close: number } {
  const members: Member[] = [];
  let j = skipSpace(text, open + 1);
  if (text[j] === "}") return { members, close: j };
  for (;;) {
    const keyEnd = stringEnd(text, j);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, valueStart);
    members.push({ key: JSON.parse(text.slice(j, keyEnd)) as string, keyStart: j, valueStart, valueEnd: end });
    j = skipSpace(text, end);
    if (text[j] === "}") return { members, close: j };
    j = skipSpace(text, j + 1);
  }
}

/** The whitespace a line starts with, for the line holding index `i`. */
function lineIndent(text: string, i: number): string {
  const start = text.lastIndexOf("\n", i - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The file's indentation unit: the first indented key's, else two spaces. */
const indentUnit = (text: string) => /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";

/**
 * `value` set at `path` (object keys from the top): replaced in place when
 * the member exists, else added at the end of the deepest object that does,
 * with the missing objects around it. Throws when a key on the path holds
 * something other than an object.
 */
export function setJsonMember(text: string, path: readonly string[], value: unknown): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const unit = indentUnit(text);
  const render = (v: unknown, indent: string) => JSON.stringify(v, null, unit).replace(/\n/g, eol + indent);
  let open = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  for (let depth = 0; ; depth++) {
    if (text[open] !== "{") throw new Error(`"${path.slice(0, depth).join(".")}" is not an object`);
    const { members, close } = membersOf(text, open);
    const key = path[depth]!;
    const found = members.findLast((m) => m.key === key);
    if (found && depth < path.length - 1) {
      open = found.valueStart;
      continue;
    }
    if (found) {
      const rendered = render(value, lineIndent(text, found.keyStart));
      return text.slice(0, found.valueStart) + rendered + text.slice(found.valueEnd);
    }
    // The member to add: the rest of the path as nested objects around the value.
    const added = path.slice(depth + 1).reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
    const last = members.at(-1);
    const entry = (indent: string) => `${JSON.stringify(key)}: ${render(added, indent)}`;
    if (last) {
      const sameLine =
        !text.slice(last.valueEnd, close).includes("\n") && !text.slice(open, last.keyStart).includes("\n");
      if (sameLine)
        return `${text.slice(0, last.valueEnd)}, ${entry(lineIndent(text, open))}${text.slice(last.valueEnd)}`;
      const indent = lineIndent(text, last.keyStart);
      return `${text.slice(0, last.valueEnd)},${eol}${indent}${entry(indent)}${text.slice(last.valueEnd)}`;
    }
    const outer = lineIndent(text, open);
    const indent = outer + unit;
    return `${text.slice(0, open + 1)}${eol}${indent}${entry(indent)}${eol}${outer}${text.slice(close)}`;
  }
}
