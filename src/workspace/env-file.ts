/**
 * Adds variables to a dotenv file without changing anything already there:
 * an existing name keeps its value, whatever it is.
 */
export interface EnvEntry {
  name: string;
  description: string;
  value: string;
}

const definedNames = (text: string) =>
  new Set(
    text
      .split(/\r?\n/)
      .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
      .filter((name): name is string => Boolean(name)),
  );

/** Returns the new file text, or the old text when every name is defined. */
export function addEnvEntries(existing: string | null, entries: EnvEntry[], heading: string): string {
  const text = existing ?? "";
  const names = definedNames(text);
  const missing = entries.filter((e) => !names.has(e.name));
  if (missing.length === 0) return text;
  const lines = [`# ${heading}`];
  for (const entry of missing) lines.push(`# ${entry.description}`, `${entry.name}=${entry.value}`);
  const separator = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${lines.join("\n")}\n`;
}
