/**
 * A command's questions, asked from its options table (src/lib/command-options.ts):
 * grouped, only for what no flag gave. Ctrl-C at any question cancels before
 * anything is planned or written.
 */
import * as p from "@clack/prompts";
import { keyOf, type OptionRow, type Question, questionOf } from "../lib/command-options.js";
import { CliError, ExitCode } from "../lib/errors.js";

const cancelled = () => {
  p.cancel("Cancelled; nothing was written.");
  return new CliError("Cancelled; nothing was written.", { exitCode: ExitCode.cancelled });
};

const searchTheRest = "more:search";

async function ask<C>(question: Question<C>, context: C): Promise<string | string[]> {
  const initial = question.initial?.(context);
  if (!question.choices)
    return p.text({
      message: question.message,
      placeholder: initial as string | undefined,
      validate: (v) => (v?.trim() ? undefined : "Required"),
    }) as Promise<string>;
  const options = question.choices(context);
  // What the earlier answers leave one way to do is said, not asked.
  if (!question.multiple && options.length === 1) {
    const only = options[0]!;
    p.log.info(`${question.message}: ${only.label}${only.hint ? ` (${only.hint})` : ""}`);
    return only.value;
  }
  if (!question.multiple)
    return p.select({ message: question.message, options, initialValue: initial as string }) as Promise<string>;
  const more = question.more?.choices(context) ?? [];
  const picked = (await p.multiselect({
    message: question.message,
    options: more.length
      ? [...options, { value: searchTheRest, label: question.more!.label, hint: `search ${more.length} more` }]
      : options,
    initialValues: (initial as string[] | undefined) ?? [],
    required: true,
  })) as string[] | symbol;
  if (p.isCancel(picked)) throw cancelled();
  if (!(picked as string[]).includes(searchTheRest)) return picked as string[];
  const searched = await p.autocompleteMultiselect({
    message: `${question.more!.label.replace(/…$/, "")}: type to filter, space to choose, enter to confirm`,
    options: more,
    required: true,
  });
  if (p.isCancel(searched)) throw cancelled();
  return [...(picked as string[]).filter((v) => v !== searchTheRest), ...(searched as string[])];
}

/**
 * Asks each question in order, as one group; returns the answers by key. A question whose context has
 * `answers` sees the answers given so far (flags and earlier questions), so it offers only what fits them.
 */
export async function askQuestions<C>(
  questions: { key: string; question: Question<C> }[],
  context: C,
): Promise<Record<string, string | string[]>> {
  const sofar = (results: Record<string, unknown>): C =>
    context && typeof context === "object" && "answers" in context
      ? { ...context, answers: { ...(context.answers as object), ...results } }
      : context;
  const steps = Object.fromEntries(
    questions.map(({ key, question }) => [
      key,
      ({ results }: { results: Record<string, unknown> }) => ask(question, sofar(results)),
    ]),
  );
  return (await p.group(steps, {
    onCancel: () => {
      throw cancelled();
    },
  })) as Record<string, string | string[]>;
}

/** Asks each row's question (questionOf: its own, else the one its description and values make), by the row's key. */
export function askRows(rows: readonly (OptionRow & { key?: string })[]): Promise<Record<string, string | string[]>> {
  return askQuestions(
    rows.map((row) => ({ key: row.key ?? keyOf(row), question: questionOf(row) })),
    undefined,
  );
}

/** init in a next-auth v4 project: move to v5 first, or add to the v4 setup. */
export async function askNextAuthV4(version: string): Promise<"upgrade" | "keep"> {
  // No intro here: init's own questions open with it when they follow.
  const answer = await p.select({
    message: `This project runs next-auth ${version} (v4). Upgrade it to v5 first?`,
    options: [
      { value: "upgrade", label: "Upgrade to v5 now", hint: "create-auth upgrade: one reviewable change" },
      { value: "keep", label: "Keep v4", hint: "add only what v4 can use to your authOptions" },
    ],
    initialValue: "keep",
  });
  if (p.isCancel(answer)) throw cancelled();
  return answer as "upgrade" | "keep";
}

export function intro(title: string): void {
  p.intro(title);
}

/** A spinner while a slow step (the install) runs. */
export function spinner(message: string): { done(message: string): void; failed(message: string): void } {
  const s = p.spinner();
  s.start(message);
  return { done: (m) => s.stop(m), failed: (m) => s.error(m) };
}

export function outro(lines: string[], done: string): void {
  if (lines.length) p.note(lines.join("\n"), "Next steps");
  p.outro(done);
}
