/** The questions add-provider asks in a terminal; each has a flag of the same name. */
import * as p from "@clack/prompts";
import type { KindOption } from "../families/family.js";
import { CliError, ExitCode } from "../lib/errors.js";

/** A family option as a question: the same row the flag is made from, so the two cannot drift. */
type OptionQuestion = Pick<KindOption, "key" | "flag" | "description" | "default" | "values" | "hints">;

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

/** init in a next-auth v4 project: move to v5 first, or add to the v4 setup. */
export async function askNextAuthV4(version: string): Promise<"upgrade" | "keep"> {
  // No intro here: init's own questions open with it when they follow.
  return answered(
    await p.select({
      message: `This project runs next-auth ${version} (v4). Upgrade it to v5 first?`,
      options: [
        { value: "upgrade", label: "Upgrade to v5 now", hint: "create-auth upgrade: one reviewable change" },
        { value: "keep", label: "Keep v4", hint: "add only what v4 can use to your authOptions" },
      ],
      initialValue: "keep",
    }),
  ) as "upgrade" | "keep";
}
