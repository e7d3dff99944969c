/**
 * Parsing and text-edit plumbing shared by the config transforms. Edits are
 * collected as ranges against one parse and applied to the text in one go, so
 * the user's formatting and comments outside those ranges survive byte for
 * byte (re-printing the tree would normalise them away).
 *
 * The parser is Babel's: the edits need ranges, comments and tokens, not
 * types, and it loads in a tenth of the time of TypeScript's compiler. Load
 * this module with `await import(...)` all the same: it is half a megabyte.
 */
import {
  type ParseError,
  type ParseResult,
  type ParserOptions,
  parse as parseModule,
  parseExpression as parseOne,
} from "@babel/parser";
import type { Comment, Expression, File, Statement } from "@babel/types";

/** A token as Babel reports it when asked for tokens: comments among them. */
export interface Token {
  type: string | { label: string };
  value?: unknown;
  start: number;
  end: number;
}

export interface SourceFile {
  text: string;
  /** The name it was read from (its extension chose the syntax), if given. */
  fileName?: string;
  /** The whole tree; empty when the text did not parse at all. */
  root: File;
  statements: Statement[];
  comments: Comment[];
  tokens: Token[];
  syntaxErrors: { line: number; message: string }[];
}

/**
 * The syntax a file name implies, as TypeScript and Node read it: types in
 * .ts/.mts/.cts/.tsx, JSX in .tsx/.jsx and (as TypeScript allows) .js;
 * .cjs is CommonJS, and so is a .js file that neither imports nor exports.
 */
function optionsFor(fileName: string | undefined): ParserOptions & { ambiguous: boolean } {
  const ext = /\.(?:[cm]?[jt]s|[jt]sx)$/i.exec(fileName ?? "")?.[0].toLowerCase() ?? ".ts";
  const typescript = /^\.[cm]?tsx?$/.test(ext);
  const jsx = ext === ".tsx" || !typescript;
  return {
    sourceType: ext === ".cjs" ? "commonjs" : "module",
    ambiguous: ext === ".js" || ext === ".jsx",
    plugins: [
      ...(typescript ? (["typescript"] as const) : []),
      ...(jsx ? (["jsx"] as const) : []),
      "decorators-legacy",
    ],
    // Comments are read from `comments` by position; attaching them to nodes is work nobody reads.
    attachComment: false,
    // Recovering from what it can lets an edit refuse with the first error, and still write the snippet in the file's style.
    errorRecovery: true,
    tokens: true,
  };
}

const moduleStatement = /^(?:Import|Export\w*)Declaration$|^TSExportAssignment$/;

/** Whether a file imports or exports the ES module way (`export =` included). */
export function hasModuleSyntax(statements: readonly Statement[]): boolean {
  return statements.some((s) => moduleStatement.test(s.type));
}

function parseFile(text: string, fileName: string | undefined): ParseResult<File> {
  const { ambiguous, ...options } = optionsFor(fileName);
  const root = parseModule(text, options);
  // CommonJS runs in sloppy mode, where an octal literal or a top-level `return` is fine and a module's
  // parse would refuse the file. Babel's own "unambiguous" makes that call, but not when recovering from errors.
  if (!ambiguous || !root.errors?.length || hasModuleSyntax(root.program.body)) return root;
  return parseModule(text, { ...options, sourceType: "commonjs" });
}

export function parse(text: string, fileName?: string): SourceFile {
  const file = { text, fileName, comments: [], tokens: [], syntaxErrors: [] };
  try {
    const root = parseFile(text, fileName);
    return {
      ...file,
      root,
      statements: root.program.body,
      comments: root.comments ?? [],
      tokens: (root.tokens ?? []) as Token[],
      syntaxErrors: (root.errors ?? []).map(describeError),
    };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { ...file, root: emptyFile(text), statements: [], syntaxErrors: [describeError(error as ParseError)] };
  }
}

function describeError(error: ParseError): { line: number; message: string } {
  // Babel ends its messages with "(line:column)"; the refusal says the line its own way.
  return { line: error.loc.line, message: error.message.replace(/\s*\(\d+:\d+\)$/, "") };
}

function emptyFile(text: string): File {
  const program = { type: "Program", body: [], directives: [], sourceType: "module", start: 0, end: text.length };
  return { type: "File", program, start: 0, end: text.length } as unknown as File;
}

/** Parses a lone expression (the entry to add); undefined when the text is not exactly one. */
export function parseExpression(text: string): (Expression & { tokens?: Token[] }) | undefined {
  try {
    return parseOne(text, { plugins: ["typescript"], tokens: true }) as Expression & { tokens?: Token[] };
  } catch {
    return undefined;
  }
}

/** The first syntax error as "line N: message", or undefined when the file parses cleanly. */
export function firstSyntaxError(file: SourceFile): string | undefined {
  const error = file.syntaxErrors[0];
  return error && `line ${error.line}: ${error.message}`;
}

/** The 1-based line that `pos` sits on. */
export function lineAt(text: string, pos: number): number {
  return text.slice(0, pos).split(/\r\n?|[\n\u2028\u2029]/).length;
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits made against the same original text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Infinity;
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error("overlapping text edits");
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}

/** Leading whitespace of the line that `pos` sits on. */
export function indentAt(text: string, pos: number): string {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

export function lineStartOf(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** True when only whitespace separates the start of the line from `pos`. */
export function startsLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStartOf(text, pos), pos));
}

/** One indentation step as the file itself uses it (tabs, or its narrowest space indent; a block comment's ` * ` lines are no step). */
export function indentUnit(text: string): string {
  let narrowest: string | undefined;
  for (const match of text.matchAll(/^([ \t]+)(?!\*)\S/gm)) {
    const indent = match[1]!;
    if (indent.startsWith("\t")) return "\t";
    if (!narrowest || indent.length < narrowest.length) narrowest = indent;
  }
  return narrowest ?? "  ";
}

export function eol(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** Re-indents continuation lines of a multi-line snippet to sit under `indent`. */
export function reindent(snippet: string, indent: string, newline: string): string {
  return snippet
    .split(/\r?\n/)
    .map((line, i) => (i === 0 || line.trim() === "" ? line : indent + line))
    .join(newline);
}

/** The position of the first character at or after `from` that is neither whitespace nor in a comment. */
export function skipTrivia(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text.startsWith("//", i)) {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 2;
    } else return i;
  }
  return i;
}

/** The position of the next `char` at or after `from`, outside comments. */
export function nextChar(text: string, from: number, char: string): number | undefined {
  for (let i = skipTrivia(text, from); i < text.length; i = skipTrivia(text, i + 1)) {
    if (text[i] === char) return i;
  }
  return undefined;
}
