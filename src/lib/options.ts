/** Validates a command's options with its zod schema; a bad value is one line naming the flag. */
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
