/** The questions add-provider asks in a terminal; each has a flag of the same name. */
import * as p from "@clack/prompts";
import { CliError, ExitCode } from "../lib/errors.js";

interface OptionQuestion {
  key: string;
  flag: string;
  description: string;
  default?: unknown;
  values?: readonly string[];
  /** One line per value, beside it in the list. */
  hints?: Readonly<Record<string, string>>;
}

function answered<T>(value: T | symbol): T {
  if (typeof value === "symbol" || p.isCancel(value)) {
    p.cancel("Cancelled; nothing was written.");
    throw new CliError("Cancelled; nothing was written.", { exitCode: ExitCode.cancelled });
  }
  return value as T;
}

export async function askOptions(questions: readonly OptionQuestion[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const q of questions) {
    const message = `${q.description} (${q.flag.split(" ")[0]})`;
    answers[q.key] = q.values
      ? answered(
          await p.select({
            message,
            options: q.values.map((v) => ({ value: v, label: v, hint: q.hints?.[v] })),
            initialValue: q.default === undefined ? undefined : String(q.default),
          }),
        )
      : answered(
          await p.text({
            message,
            placeholder: q.default === undefined ? undefined : String(q.default),
            validate: (v) => (v?.trim() ? undefined : "Required"),
          }),
        );
  }
  return answers;
}
