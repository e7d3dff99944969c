/**
 * Realistic values for exploration. Real users' data is not random hex: it
 * holds any script, mixed case, punctuation, digit-only ids, one-character
 * and very long values, and values that differ from another only in case or
 * in one character. Everything here stays within what real stores keep: no
 * NUL or other control characters (PostgreSQL text refuses NUL), no lone
 * surrogates (not valid UTF-8), no leading or trailing whitespace in keys
 * (MySQL/MariaDB PAD SPACE collations ignore trailing spaces), and lengths
 * within the VARCHAR(255) columns of the generated and documented schemas.
 */
import fc from "fast-check";

/** Code point ranges a real user's data draws from, weighted toward ASCII. */
const ranges: Array<{ weight: number; from: number; to: number }> = [
  { weight: 6, from: 0x61, to: 0x7a }, // a-z
  { weight: 4, from: 0x41, to: 0x5a }, // A-Z
  { weight: 3, from: 0x30, to: 0x39 }, // 0-9
  { weight: 2, from: 0x21, to: 0x2f }, // ! " # $ % & ' ( ) * + , - . /
  { weight: 1, from: 0x3a, to: 0x40 }, // : ; < = > ? @
  { weight: 1, from: 0x5b, to: 0x60 }, // [ \ ] ^ _ `
  { weight: 1, from: 0x7b, to: 0x7e }, // { | } ~
  { weight: 2, from: 0xc0, to: 0x24f }, // Latin accents: é, Ø, ß, ŀ
  { weight: 1, from: 0x391, to: 0x3c9 }, // Greek
  { weight: 1, from: 0x410, to: 0x44f }, // Cyrillic
  { weight: 1, from: 0x5d0, to: 0x5ea }, // Hebrew (right to left)
  { weight: 1, from: 0x627, to: 0x64a }, // Arabic
  { weight: 1, from: 0x4e00, to: 0x9fff }, // CJK
  { weight: 1, from: 0x1f300, to: 0x1faff }, // emoji, outside the BMP
  { weight: 1, from: 0x300, to: 0x36f }, // combining marks
];

const totalWeight = ranges.reduce((sum, r) => sum + r.weight, 0);

/** mulberry32: a tiny seeded generator, so a whole string costs fast-check two integers. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` characters drawn from the weighted ranges; `spaces` allows inner spaces (names). */
function textFrom(seed: number, length: number, spaces: boolean): string {
  const next = generator(seed);
  let out = "";
  for (let i = 0; i < length; i++) {
    if (spaces && i > 0 && i < length - 1 && next() < 0.12) {
      out += " ";
      continue;
    }
    let pick = next() * totalWeight;
    for (const { weight, from, to } of ranges) {
      if (pick < weight) {
        out += String.fromCodePoint(from + Math.floor(next() * (to - from + 1)));
        break;
      }
      pick -= weight;
    }
  }
  return out;
}

const lengthOf = (s: string) => [...s].length;

/**
 * Text of a length in [min, max]. fast-check draws a length and a seed (it
 * shrinks both: shorter, then simpler), and the characters come from the
 * seed: generating a value costs two integers whatever its length, which
 * keeps long values as cheap as short ones.
 */
const text = (min: number, max: number, spaces = false) =>
  fc.tuple(fc.integer({ min, max }), fc.nat()).map(([length, seed]) => textFrom(seed, length, spaces));

/** Short most of the time, sometimes one character, sometimes very long. */
function sized(max: number, spaces = false): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: text(1, 12, spaces) },
    { weight: 1, arbitrary: text(1, 1) },
    { weight: 1, arbitrary: text(Math.max(1, max - 20), max, spaces) },
  );
}

const trimmed = (s: string) => s.trim().length > 0 && s === s.trim();

/** A value used as (part of) a lookup key. */
export const keyText = (max = 120) => sized(max).filter(trimmed);

/** Text over a fixed alphabet (digits, hex, base64url), drawn like `text`. */
const over = (alphabet: string, min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.nat()).map(([length, seed]) => {
    const next = generator(seed);
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  });

const digits = (max: number) => over("0123456789", 1, max);
const base64url = (min: number, max: number) =>
  over("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min, max);
const hex = (length: number) => over("0123456789abcdef", length, length);
/** A version-4-shaped uuid, as Auth.js makes session tokens and ids. */
const uuid = fc
  .tuple(hex(32), fc.constantFrom("8", "9", "a", "b"))
  .map(([h, v]) => `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${v}${h.slice(17, 20)}-${h.slice(20)}`);

/** Display names: any script, spaces inside, very long, or absent (null). */
export const displayName = fc.oneof(
  { weight: 8, arbitrary: sized(200, true).filter(trimmed) },
  { weight: 1, arbitrary: fc.constant(null) },
);

export const imageUrl = fc.oneof(
  { weight: 5, arbitrary: keyText(60).map((path) => `https://images.example.test/${encodeURIComponent(path)}.png`) },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** The local part of an email: Unicode (internationalised mail), dots, plus tags, digits only. */
export const emailLocal = fc.oneof(
  { weight: 6, arbitrary: keyText(60).map((s) => s.replace(/[@\s]/g, "_")) },
  { weight: 2, arbitrary: fc.tuple(keyText(12), keyText(12)).map(([a, b]) => `${a}+${b}`.replace(/[@\s]/g, ".")) },
  { weight: 1, arbitrary: digits(20) },
);

export const emailDomain = fc.constantFrom(
  "example.test",
  "Example.TEST",
  "mail.example.test",
  "пример.test",
  "例え.test",
);

/** A provider id as configured in an app: short ASCII ids mostly, anything sometimes. */
export const providerBase = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("github", "google", "GitHub", "vk", "apple", "azure-ad", "email", "a", "x") },
  { weight: 2, arbitrary: keyText(30) },
);

/** A provider account id: numeric ids, uuids, emails, opaque base64, any text. */
export const providerAccountIdBase = fc.oneof(
  { weight: 3, arbitrary: digits(19) },
  { weight: 1, arbitrary: uuid },
  { weight: 2, arbitrary: base64url(1, 43) },
  { weight: 2, arbitrary: keyText(100) },
);

export const opaqueToken = fc.oneof(
  { weight: 3, arbitrary: uuid },
  { weight: 2, arbitrary: base64url(1, 64) },
  { weight: 1, arbitrary: keyText(100) },
);

/** Verification tokens are stored hashed (hex) but a custom hash may yield anything. */
export const verificationTokenBase = fc.oneof({ weight: 3, arbitrary: hex(64) }, { weight: 1, arbitrary: keyText(64) });

export const credentialIdBase = base64url(1, 86);

/** WebAuthn signature counters: usually 0 or small; within a signed 32-bit column. */
export const counter = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 2 ** 31 - 1 }) },
);

/** Seconds from "now" for expiry dates: mostly future, sometimes already past. */
export const futureSeconds = fc.integer({ min: 60, max: 400 * 24 * 3600 });
export const pastSeconds = fc.integer({ min: 1, max: 30 * 24 * 3600 });

export type Variation = "case" | "char" | "append" | "drop";
export const variation = fc.record({
  kind: fc.constantFrom<Variation>("case", "char", "append", "drop"),
  at: fc.nat(),
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

/** FNV-1a over a string: a short, stable salt from the run's nonce. */
export function saltFrom(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  let second = hash ^ 0x5bd1e995;
  for (let i = text.length - 1; i >= 0; i--) {
    second ^= text.charCodeAt(i);
    second = Math.imul(second, 0x01000193);
  }
  return ((hash >>> 0).toString(36) + (second >>> 0).toString(36)).slice(0, 10).padEnd(10, "0");
}

export { lengthOf };
