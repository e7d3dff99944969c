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
  const names = definedNames(text);
  const missing = variables.filter((v) => !names.has(v.name));
  if (missing.length === 0) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = [`# ${heading}`];
  for (const variable of missing) lines.push(`# ${variable.description}`, `${variable.name}=${value(variable)}`);
  const separator = text === "" ? "" : text.endsWith(eol + eol) ? "" : text.endsWith(eol) ? eol : eol + eol;
  return `${text}${separator}${lines.join(eol)}${eol}`;
}

/** The value of `name` in a dotenv text ("" when set empty), or undefined when it is not set. */
export function envValue(text: string, name: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (match?.[1] === name) return match[2]!.trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return undefined;
}

/** Sets `name` where the file has it with an empty value (as after `cp .env.example .env.local`); other values stay. */
export function fillEmptyValue(text: string, name: string, value: string): string {
  const line = new RegExp(`^(\\s*(?:export\\s+)?${name}\\s*=)[ \\t]*(?:""|'')?[ \\t]*(\\r?)$`, "m");
  return text.replace(line, (_, assignment: string, cr: string) => `${assignment}${value}${cr}`);
}

/** Dotenv files by name: .env, .env.local, .env.production... */
export const isEnvFile = (name: string) => name === ".env" || name.startsWith(".env.");

/** The env files that hold real values: all but the documented templates (.env.example and the like). */
export const isSecretEnvFile = (name: string) => isEnvFile(name) && !/\.(?:example|sample|template|dist)$/.test(name);

/** Every assigned value replaced by <hidden>, for diffs and messages; comments and empty values stay. */
export function maskEnvValues(text: string): string {
  return text.replace(/^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=)[ \t]*(\S.*?)(\r?)$/gm, "$1<hidden>$3");
}
