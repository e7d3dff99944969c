/**
 * The checks a case makes of what came back: a §2.9 model, exactly null,
 * the same id, date or value as written (with the tolerances of
 * spec/tolerance.ts). Each throws a ContractFailure that names what differs.
 */
import type { z } from "zod";
import { ContractFailure, describeValue } from "../spec/failure.js";
import { idKeys, sameField, sameId, sameSecond } from "../spec/tolerance.js";

type Row = Record<string, any>;

export class Checks {
  /** Observations about the whole adapter, reported once per run. */
  readonly notes = new Set<string>();

  /** Validates a result against a §2.9 model; returns the original object, not a copy. */
  model<S extends z.ZodTypeAny>(schema: S, value: unknown, what: string): z.infer<S> & Row {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
      throw new ContractFailure(`${what}${path}: ${issue.message}`, { received: describeValue(value) });
    }
    this.noteNumericIds(value);
    return value as z.infer<S> & Row;
  }

  /**
   * §2.9 types ids as strings; SERIAL keys come back as numbers. That works
   * (the service passes ids back unchanged), so it is one note per run, not
   * a failure and not a warning on every case.
   */
  private noteNumericIds(value: unknown): void {
    const row = value as Row | null;
    if (typeof row !== "object" || row === null) return;
    if (typeof row.id === "number" || typeof row.userId === "number" || typeof row.user?.id === "number") {
      this.notes.add(
        "ids come back as numbers; the adapter interface types them as strings. Sign-in still works because the service passes ids back unchanged.",
      );
    }
  }

  /** Exactly null, not undefined (§7.3 and the getters of §4.2). */
  isNull(value: unknown, what: string): void {
    if (value !== null)
      throw new ContractFailure(`${what} should be null`, { expected: "null", received: describeValue(value) });
  }

  isNullish(value: unknown, what: string): void {
    if (value != null)
      throw new ContractFailure(`${what} should be null or nothing`, {
        expected: "null or undefined",
        received: describeValue(value),
      });
  }

  /** Ids compare as strings: stores may hand back numbers for SERIAL keys. */
  sameId(actual: unknown, expected: unknown, what: string): void {
    if (!sameId(actual, expected)) {
      throw new ContractFailure(`${what} is the wrong id`, {
        expected: describeValue(expected),
        received: describeValue(actual),
      });
    }
  }

  /** Dates compare to the second: some databases drop sub-second precision. */
  sameDate(actual: unknown, expected: Date, what: string): void {
    if (!sameSecond(actual, expected))
      throw new ContractFailure(`${what} is not the date written`, {
        expected: describeValue(expected),
        received: describeValue(actual),
      });
  }

  equal(actual: unknown, expected: unknown, what: string): void {
    if (expected instanceof Date) {
      this.sameDate(actual, expected, what);
      return;
    }
    if (!sameField("", actual, expected))
      throw new ContractFailure(`${what} differs from what was written`, {
        expected: describeValue(expected),
        received: describeValue(actual),
      });
  }

  /** Every field of `expected` comes back equal in `actual`. */
  fields(actual: Row, expected: Row, what: string): void {
    for (const [key, value] of Object.entries(expected)) {
      if (idKeys.has(key)) this.sameId(actual[key], value, `${what}.${key}`);
      else this.equal(actual[key], value, `${what}.${key}`);
    }
  }

  check(condition: boolean, message: string, details: { expected?: string; received?: string } = {}): void {
    if (!condition) throw new ContractFailure(message, details);
  }
}
