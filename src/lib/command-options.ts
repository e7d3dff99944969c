/**
 * A command's options, written once: one row per flag gives commander its
 * flag and --help line, zod its validation, the error its expectation, and
 * (for the options a terminal asks) the question and the --yes answer.
 * Everything else — the schema, the flags, the list of what a CI run must
 * pass, the prompts — is derived from the table. The provider families'
 * options (KindOption) are rows of the same type, and questionOf() gives any row its question.
 */
import type { Command } from "commander";
import { z } from "zod";
import { parseOptions } from "./options.js";

export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

/** What a terminal asks when no flag gave the option. */
export interface Question<C> {
  message: string;
  /** A list to pick one from, or several. */
  multiple?: boolean;
  /** The list; without one, the answer is typed (and may not be empty). */
  choices?(context: C): Choice[];
  /** Preselected: a detected value, else the --yes answer (a typed answer's placeholder). */
  initial?(context: C): string | string[] | undefined;
  /**
   * Asked by the command itself once what the question depends on is known (the token rows, after the
   * providers): not among the table's first questions (`asked`), and its absence in CI no error.
   */
  later?: boolean;
  /** The rest of a long list, searched when the user picks this entry below `choices`. */
  more?: { label: string; choices(context: C): Choice[] };
}

// A table mixes rows whose questions read different contexts: the default context is any.
export interface OptionRow<S extends z.ZodTypeAny = z.ZodTypeAny, C = any> {
  /** As commander takes it: "--backend <name>", "-y, --yes", "--no-install", "--seed [n]". */
  flag?: string;
  /** A boolean flag's --no- form ("--no-refresh-tokens"): false, where leaving both out leaves it undefined. */
  negation?: string;
  /** A positional argument instead of a flag, as commander takes it: "<module>", "[schema]". */
  argument?: string;
  /** Its --help line. */
  description: string;
  /** Validates what the flag or a prompt gave. */
  schema: S;
  /** What a valid value looks like, after "expected" in the one-line error. */
  expects?: string;
  /** commander's argument parser (a flag given several times keeps every value). */
  parse?: (value: string, previous: any) => unknown;
  /** The answer --yes takes when the flag is not given (documented in --help). */
  fallback?: z.input<S>;
  /** The values it takes, where they are few: listed by --help and --list, offered by its question. */
  values?: readonly string[];
  /** One line per value, shown where a question offers the values. */
  hints?: Readonly<Record<string, string>>;
  /** Asked in a terminal when the flag was not given; without --yes in CI, its absence is an error naming the flag. */
  question?: Question<C>;
}

/**
 * The question a row asks: its own, else the one its description, values
 * and fallback make (a provider's --issuer, --api-version), so a row that
 * has a flag has a question with the same words.
 */
export function questionOf<C>(row: OptionRow<z.ZodTypeAny, C>): Question<C> {
  if (row.question) return row.question;
  const fallback = row.fallback === undefined ? undefined : String(row.fallback);
  const { values, hints } = row;
  return {
    message: `${row.description} (${longFlag(row)})`,
    ...(values && { choices: () => values.map((value) => ({ value, label: value, hint: hints?.[value] })) }),
    initial: () => fallback,
  };
}

type Rows = Record<string, OptionRow>;
type Shape<R extends Rows> = { [K in keyof R]: R[K]["schema"] };

/** The option's key: commander's for a flag ("--table-prefix <p>" -> tablePrefix), an argument's name ("[schema]" -> schema). */
export function keyOf(row: Pick<OptionRow, "flag" | "argument">): string {
  if (row.argument)
    return row.argument.replace(/[<>[\].]/g, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return keyOfFlag(row.flag!);
}

/** commander's key for a flag: "--table-prefix <p>" -> tablePrefix, "--no-install" -> install. */
export function keyOfFlag(flag: string): string {
  const long = flag.split(/[ ,]+/).find((part) => part.startsWith("--"))!;
  return long
    .slice(2)
    .replace(/^no-/, "")
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** How messages name a row: its long flag ("--backend"), or its argument ("<module>"). */
export const longFlag = (row: Pick<OptionRow, "flag" | "argument">) =>
  row.argument ?? row.flag!.split(/[ ,]+/).find((part) => part.startsWith("--"))!;

export interface CommandOptions<R extends Rows> {
  rows: R;
  schema: z.ZodObject<Shape<R>>;
  /** Validates input (flags, answers, a test's object) into the options, one line per bad value. */
  parse(input: unknown): z.output<z.ZodObject<Shape<R>>>;
  /** Registers every row's flag on the command. */
  configure(command: Command): Command;
  /** The options a terminal asks first, in table order (not the questions asked later). */
  asked: (keyof R & string)[];
  /** The --yes answers of the asked options. */
  fallbacks: Partial<{ [K in keyof R]: z.input<R[K]["schema"]> }>;
}

export function defineOptions<const R extends Rows>(rows: R): CommandOptions<R> {
  for (const [key, row] of Object.entries(rows))
    if (keyOf(row) !== key || !row.flag === !row.argument)
      throw new Error(`Option ${key} must have one flag or argument named for it (${row.flag ?? row.argument})`);
  const schema = z.object(Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, r.schema])) as Shape<R>);
  const expectations = Object.fromEntries(
    Object.entries(rows).flatMap(([k, r]) => (r.expects ? [[k, r.expects]] : [])),
  );
  const flags = Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, longFlag(r)]));
  const asked = Object.keys(rows).filter((k) => rows[k]!.question && !rows[k]!.question.later) as (keyof R & string)[];
  return {
    rows,
    schema,
    parse: (input) => parseOptions(schema, input, expectations, flags),
    configure(command) {
      for (const row of Object.values(rows)) {
        if (row.argument) command.argument(row.argument, row.description);
        else if (row.parse) command.option(row.flag!, row.description, row.parse as (v: string, p: unknown) => unknown);
        else command.option(row.flag!, row.description);
        if (row.negation) command.option(row.negation, `not ${longFlag(row)}, and not asked in a terminal`);
      }
      return command;
    },
    asked,
    fallbacks: Object.fromEntries(
      Object.entries(rows).flatMap(([k, r]) => (r.fallback === undefined ? [] : [[k, r.fallback]])),
    ) as CommandOptions<R>["fallbacks"],
  };
}

/** A comma list on the command line, an array from prompts and tests; at least one item. */
export const commaList = () =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (typeof v === "string" ? v.split(",") : v).map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.length > 0);
