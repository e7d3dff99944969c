/**
 * Parsing and text-edit plumbing shared by the config transforms. Edits are
 * collected as ranges against one parse and applied to the text in one go, so
 * the user's formatting and comments outside those ranges survive byte for
 * byte (re-printing through the compiler would normalise them away).
 */
import { type Diagnostic, type Expression, Node, Project, type SourceFile, ts } from "./morph.js";

let project: Project | undefined;

/** One Project per process: creating it is the costly part, a parse is cheap. */
function sharedProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    // Nothing here asks the type checker anything, so lib.d.ts is dead weight.
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true, noLib: true, noResolve: true },
  });
  return project;
}

let parses = 0;

/**
 * Each parse gets a file of its own in the shared project: overwriting one
 * file would invalidate every node of the previous parse, which a caller may
 * still hold. The extension decides TS vs JS vs JSX parsing.
 */
function virtualName(stem: string, fileName: string | undefined): string {
  const ext = /\.(?:[cm]?[jt]s|[jt]sx)$/i.exec(fileName ?? "")?.[0].toLowerCase() ?? ".ts";
  parses += 1;
  return `/${stem}-${parses}${ext}`;
}

export function parse(text: string, fileName?: string): SourceFile {
  return sharedProject().createSourceFile(virtualName("auth-config", fileName), text);
}

/** Parses a lone expression (the entry to add) so its identifiers can be read; undefined when it is not one. */
export function parseExpression(text: string): Expression | undefined {
  const file = sharedProject().createSourceFile(virtualName("entry", undefined), `(${text}\n);`);
  const [first, ...rest] = file.getStatements();
  if (rest.length > 0 || parseDiagnostics(file).length > 0) return undefined;
  if (!Node.isExpressionStatement(first)) return undefined;
  const wrapped = first.getExpression();
  return Node.isParenthesizedExpression(wrapped) ? wrapped.getExpression() : undefined;
}

function parseDiagnostics(file: SourceFile): readonly Diagnostic[] {
  // `parseDiagnostics` is internal to the compiler but has been there for a decade;
  // the public route builds a Program, which costs more than the whole edit.
  const internal = (file.compilerNode as unknown as { parseDiagnostics?: readonly Diagnostic[] }).parseDiagnostics;
  return internal ?? file.getProject().getProgram().compilerObject.getSyntacticDiagnostics(file.compilerNode);
}

/** The first syntax error as "line N: message", or undefined when the file parses cleanly. */
export function firstSyntaxError(file: SourceFile): string | undefined {
  const diagnostic = parseDiagnostics(file)[0];
  if (!diagnostic) return undefined;
  const line =
    diagnostic.start === undefined
      ? undefined
      : file.compilerNode.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  return line === undefined ? message : `line ${line}: ${message}`;
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

/** One indentation step as the file itself uses it (tabs, or its narrowest space indent). */
export function indentUnit(text: string): string {
  let narrowest: string | undefined;
  for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
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

/** Looks through `x as T`, `x satisfies T`, `(x)` and `x!` to the value underneath. */
export function unwrap(node: Node): Node {
  let current = node;
  while (
    Node.isAsExpression(current) ||
    Node.isSatisfiesExpression(current) ||
    Node.isParenthesizedExpression(current) ||
    Node.isNonNullExpression(current) ||
    Node.isTypeAssertion(current)
  ) {
    current = current.getExpression();
  }
  return current;
}

/** Property name as written, for identifiers and string literal keys; undefined for computed ones. */
export function propertyName(node: Node): string | undefined {
  if (
    !Node.isPropertyAssignment(node) &&
    !Node.isShorthandPropertyAssignment(node) &&
    !Node.isMethodDeclaration(node) &&
    !Node.isGetAccessorDeclaration(node)
  )
    return undefined;
  const name = node.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name)) return name.getLiteralText();
  return undefined;
}
