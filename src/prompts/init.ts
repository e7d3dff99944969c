/**
 * The questions init asks in a terminal, grouped, only for what no flag
 * gave; each has a flag of the same name (see src/commands/init.ts). Ctrl-C
 * at any question cancels before anything is planned or written.
 */
import * as p from "@clack/prompts";
import { CliError, ExitCode } from "../lib/errors.js";

export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

export interface InitQuestions {
  framework?: { choices: Choice[]; initial: string };
  /** `more`: the rest, searched when the user picks "more" in the short list. */
  providers?: { choices: Choice[]; more: Choice[]; initial: string[] };
  backend?: { choices: Choice[]; initial: string };
  schema?: { choices: Choice[]; initial: string };
  session?: { choices: Choice[]; initial: string };
}

export interface InitAnswers {
  framework?: string;
  providers?: string[];
  backend?: string;
  schema?: string;
  session?: string;
}

const cancelled = () => {
  p.cancel("Cancelled; nothing was written.");
  return new CliError("Cancelled; nothing was written.", { exitCode: ExitCode.cancelled });
};

/** The ORM question, asked before the others: with an ORM, the backend and schema are the project's. */
export async function askOrm(q: { choices: Choice[]; initial: string }): Promise<string> {
  const answer = await p.select({
    message: "ORM the adapter goes through (--orm)",
    options: q.choices,
    initialValue: q.initial,
  });
  if (p.isCancel(answer)) throw cancelled();
  return answer as string;
}

export function intro(): void {
  p.intro("create-auth init");
}

const searchTheRest = "more:search";

export async function askInit(q: InitQuestions): Promise<InitAnswers> {
  const select = (s: { choices: Choice[]; initial: string }, message: string) => () =>
    p.select({ message, options: s.choices, initialValue: s.initial }) as Promise<string>;
  const answers = await p.group(
    {
      framework: q.framework ? select(q.framework, "Framework to wire sign-in into (--framework)") : () => undefined,
      providers: q.providers
        ? () =>
            p.multiselect({
              message: "Sign-in providers (--providers; space to choose, enter to confirm)",
              options: [
                ...q.providers!.choices,
                {
                  value: searchTheRest,
                  label: "Another built-in provider…",
                  hint: `search ${q.providers!.more.length} more`,
                },
              ],
              initialValues: q.providers!.initial,
              required: true,
            }) as Promise<string[]>
        : () => undefined,
      backend: q.backend ? select(q.backend, "Database adapter (--backend)") : () => undefined,
      schema: q.schema ? select(q.schema, "Entity schema flavour (--schema)") : () => undefined,
      session: q.session ? select(q.session, "Session strategy (--session)") : () => undefined,
    },
    {
      onCancel: () => {
        throw cancelled();
      },
    },
  );
  const chosen = answers as InitAnswers;
  if (chosen.providers?.includes(searchTheRest)) {
    const more = await p.autocompleteMultiselect({
      message: "Search Auth.js's built-in providers (type to filter, space to choose, enter to confirm)",
      options: q.providers!.more,
      required: true,
    });
    if (p.isCancel(more)) throw cancelled();
    chosen.providers = [...chosen.providers.filter((v) => v !== searchTheRest), ...(more as string[])];
  }
  return chosen;
}

/** A spinner while a slow step (the install) runs. */
export function spinner(message: string): { done(message: string): void; failed(message: string): void } {
  const s = p.spinner();
  s.start(message);
  return { done: (m) => s.stop(m), failed: (m) => s.error(m) };
}

export function outro(lines: string[]): void {
  if (lines.length) p.note(lines.join("\n"), "Next steps");
  p.outro("Auth is set up.");
}
