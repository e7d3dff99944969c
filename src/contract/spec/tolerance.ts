/**
 * How a value read back is compared with the value written, for the cases
 * and the exploration alike (the failure policy in the README):
 *
 * - ids as strings: a store may choose them, and SERIAL keys come back as
 *   numbers; the service only ever passes them back;
 * - dates to the second: several databases drop or round sub-second
 *   precision;
 * - null and absent alike for a value written as null or left out: SQL
 *   stores cannot tell the two apart;
 * - everything else exactly; fields not written are not compared (§2.10:
 *   records may carry fields of their own).
 */
export const idKeys: ReadonlySet<string> = new Set(["id", "userId"]);

export const sameId = (actual: unknown, expected: unknown) => actual != null && String(actual) === String(expected);

export const sameSecond = (actual: unknown, expected: Date) =>
  actual instanceof Date && Math.floor(actual.getTime() / 1000) === Math.floor(expected.getTime() / 1000);

/** Whether `actual` holds what was written as `expected` under `key`. */
export function sameField(key: string, actual: unknown, expected: unknown): boolean {
  if (expected instanceof Date) return sameSecond(actual, expected);
  if (expected === null || expected === undefined) return actual == null;
  if (idKeys.has(key)) return sameId(actual, expected);
  return actual === expected;
}

/** The first field of `expected` that `actual` does not hold. */
export function firstMismatch(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
): { key: string; actual: unknown; expected: unknown } | undefined {
  for (const key in expected) {
    if (!sameField(key, actual[key], expected[key])) return { key, actual: actual[key], expected: expected[key] };
  }
  return undefined;
}
