/**
 * Adds entries to a .gitignore unless its rules already ignore them, read
 * with gitignore's own semantics (the `ignore` package: globs, negations,
 * the last matching rule wins). An appended rule comes last, so it also
 * overrides a negation such as `!.env.local`. The file's line ending is kept.
 */
import ignore from "ignore";

/** A rule to add, and the paths it must cover; a plain string is both. */
export type IgnoreEntry = string | { pattern: string; paths: string[] };

export function addIgnoreEntries(existing: string | null, entries: IgnoreEntry[]): string {
  const text = existing ?? "";
  const rules = ignore().add(text);
  const missing = entries
    .map((entry) => (typeof entry === "string" ? { pattern: entry, paths: [entry] } : entry))
    .filter((entry) => entry.paths.some((path) => !rules.ignores(path)))
    .map((entry) => entry.pattern);
  if (missing.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const separator = text === "" || text.endsWith("\n") ? "" : eol;
  return `${text}${separator}${missing.join(eol)}${eol}`;
}
