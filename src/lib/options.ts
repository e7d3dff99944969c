/** Validates a command's options with its zod schema; a bad value is one line naming the flag. */
import type { Command } from "commander";
import type { z } from "zod";
import { UsageError } from "./errors.js";
import { hideUrlCredentials } from "./redact.js";

/** The flag commander derives from an option key: apiVersion -> --api-version. */
export const toFlag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export function parseOptions<S extends z.ZodTypeAny>(
  schema: S,
  input: unknown,
  expectations: Record<string, string> = {},
  flagNames: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0] ?? "");
  const flag = flagNames[key] ?? toFlag(key);
  const value = (input as Record<string, unknown>)[key];
  const shown = hideUrlCredentials(Array.isArray(value) ? value.join(",") : String(value));
  throw new UsageError(
    `${flag}: invalid value "${shown}"; ${expectations[key] ? `expected ${expectations[key]}` : issue.message}.`,
  );
}

/** The argument parser of a flag that may be given several times (each value is kept). */
export const repeatable = (value: string, previous: string[] = []) => [...previous, value];

/**
 * A flag that takes one value may be given once, and not empty: commander
 * would keep the last of two silently and take "" as a value. Each is a usage
 * error naming the flag (values are not repeated: one may be a secret).
 */
export function refuseAmbiguousValues(command: Command): void {
  const given = new Set<string>();
  for (const option of command.options) {
    if (!option.required && !option.optional) continue;
    const flag = option.long ?? option.short ?? option.name();
    command.on(`option:${option.name()}`, (value: unknown) => {
      if (value === "" && option.required) throw new UsageError(`${flag} needs a value; it was given empty.`);
      if (option.parseArg === repeatable) return;
      if (given.has(flag)) throw new UsageError(`${flag} was given twice; give it once.`);
      given.add(flag);
    });
  }
}
