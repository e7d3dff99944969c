/** Adds entries to a .gitignore unless an existing pattern already covers them. */
import picomatch from "picomatch";

export function addIgnoreEntries(existing: string | null, entries: string[]): string {
  const text = existing ?? "";
  const patterns = text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^\//, ""))
    .filter((line) => line && !line.startsWith("#") && !line.startsWith("!"));
  const covered = (entry: string) => patterns.some((p) => p === entry || picomatch(p, { dot: true })(entry));
  const missing = entries.filter((e) => !covered(e));
  if (missing.length === 0) return text;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${separator}${missing.join("\n")}\n`;
}
