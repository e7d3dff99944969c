/**
 * Adds variables to a dotenv file without changing anything already there:
 * an existing name keeps its value, whatever it is.
 */
import type { EnvVariable } from "../generators/types.js";

const definedNames = (text: string) =>
  new Set(
    text
      .split(/\r?\n/)
      .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
      .filter((name): name is string => Boolean(name)),
  );

/** Returns the new file text, or the old text when every name is defined; `value` gives what each new line holds. */
export function addEnvEntries(
  existing: string | null,
  variables: readonly EnvVariable[],
  heading: string,
  value: (variable: EnvVariable) => string,
): string {
  const text = existing ?? "";
  const names = definedNames(text);
  const missing = variables.filter((v) => !names.has(v.name));
  if (missing.length === 0) return text;
  const lines = [`# ${heading}`];
  for (const variable of missing) lines.push(`# ${variable.description}`, `${variable.name}=${value(variable)}`);
  const separator = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${lines.join("\n")}\n`;
}
