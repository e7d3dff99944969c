/**
 * Near-duplicates of a value, as real data holds them: one letter in the
 * other case, one character replaced, added, removed, or replaced by what a
 * pattern reads as "any character". Stores that build a pattern from a key,
 * compare without case or index a prefix find the wrong record for them.
 */
import { constantFrom, type Gen, nat } from "./gen.js";

export const lengthOf = (s: string) => [...s].length;
/** Keys hold no edge whitespace: MySQL's and MariaDB's PAD SPACE collations ignore trailing spaces. */
export const trimmed = (s: string) => s.trim().length > 0 && s === s.trim();

export type Variation = "case" | "char" | "append" | "drop" | "wildcard";
export const variation: Gen<{ kind: Variation; at: number }> = (s) => ({
  kind: constantFrom<Variation>("case", "char", "append", "drop", "wildcard")(s),
  at: nat(s),
});

/**
 * A near-duplicate of `value`: one letter in the other case, one character
 * replaced, added or removed. `protect` (the run's salt) is left intact so
 * the result stays unique to this run. Returns `value` when nothing applies,
 * so callers check for equality.
 */
export function vary(value: string, protect: string, { kind, at }: { kind: Variation; at: number }): string {
  const chars = [...value];
  const saltAt = protect ? [...value.slice(0, Math.max(0, value.indexOf(protect)))].length : -1;
  const saltLength = protect ? [...protect].length : 0;
  const free = chars.map((_, i) => i).filter((i) => saltAt < 0 || i < saltAt || i >= saltAt + saltLength);
  const edges = new Set([0, chars.length - 1]);
  if (free.length === 0) return value;
  const pick = (candidates: number[]) => candidates[at % candidates.length];
  switch (kind) {
    case "case": {
      const flippable = free.filter((i) => flipCase(chars[i]!) !== chars[i]);
      const i = pick(flippable);
      if (i === undefined) return value;
      chars[i] = flipCase(chars[i]!);
      break;
    }
    case "char": {
      const i = pick(free)!;
      chars[i] = nextChar(chars[i]!);
      break;
    }
    case "append": {
      const i = pick(free)!;
      chars.splice(i, 0, nextChar(chars[i]!));
      break;
    }
    case "wildcard": {
      // One character replaced by what a pattern would read as "any character" or "anything".
      const i = pick(free)!;
      chars[i] = "_%*?."[at % 5]!;
      break;
    }
    case "drop": {
      if (chars.length < 2) return value;
      const i = pick(free.filter((j) => !edges.has(j) || chars.length > 2))!;
      chars.splice(i, 1);
      break;
    }
  }
  const result = chars.join("");
  return trimmed(result) ? result : value;
}

function flipCase(c: string): string {
  const upper = c.toUpperCase();
  if (upper !== c && lengthOf(upper) === 1) return upper;
  const lower = c.toLowerCase();
  return lower !== c && lengthOf(lower) === 1 ? lower : c;
}

/** The next code point, skipping characters a key must not hold. */
function nextChar(c: string): string {
  const code = c.codePointAt(0)!;
  if (code === 0x7e) return "!";
  let next = code + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  if (next === 0xfffe || next === 0xffff || next > 0x10ffff) next = 0x41;
  const s = String.fromCodePoint(next);
  return /\s/.test(s) ? "A" : s;
}
