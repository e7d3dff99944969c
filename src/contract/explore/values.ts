/**
 * Realistic values for exploration. Real users' data is not random hex: it
 * holds any script, mixed case, punctuation, digit-only ids, one-character
 * and very long values, and values that differ from another only in case or
 * in one character. Everything here stays within what real stores keep: no
 * NUL or other control characters (PostgreSQL text refuses NUL), no lone
 * surrogates (not valid UTF-8), no leading or trailing whitespace in keys
 * (MySQL/MariaDB PAD SPACE collations ignore trailing spaces), and lengths
 * within the VARCHAR(255) columns of the generated and documented schemas.
 *
 * Values are generators (gen.ts) over a seeded source, not fast-check
 * arbitraries: see there why.
 */
import { constant, constantFrom, type Gen, int, map, oneof, type Rng, tuple } from "./gen.js";
import { trimmed } from "./variation.js";

export * from "./gen.js";
export * from "./variation.js";

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

/** `length` characters drawn from the weighted ranges; `spaces` allows inner spaces (names). */
function textOf(s: Rng, length: number, spaces: boolean): string {
  if (s.simple) return "a".repeat(length);
  // A long value repeats a random core of 24 characters: as long and as mixed, at a tenth of the cost.
  if (length > 24) {
    const core = [...textOf(s, 24, spaces)];
    return Array.from({ length }, (_, i) => core[i % 24]).join("");
  }
  let out = "";
  for (let i = 0; i < length; i++) {
    if (spaces && i > 0 && i < length - 1 && s.next() < 0.12) {
      out += " ";
      continue;
    }
    // One draw picks the range and, from what is left of it, the code point.
    let pick = s.next() * totalWeight;
    for (const { weight, from, to } of ranges) {
      if (pick < weight) {
        out += String.fromCodePoint(from + Math.floor((pick / weight) * (to - from + 1)));
        break;
      }
      pick -= weight;
    }
  }
  return out;
}

const text =
  (min: number, max: number, spaces = false): Gen<string> =>
  (s) => {
    // Combining marks or spaces may leave a value that trims differently: draw again.
    for (let attempt = 0; attempt < 8; attempt++) {
      const value = textOf(s, int(min, max)(s), spaces);
      if (trimmed(value)) return value;
    }
    return "a".repeat(min);
  };

/** Short most of the time, sometimes one character, sometimes very long. */
const sized = (max: number, spaces = false): Gen<string> =>
  oneof([6, text(1, 12, spaces)], [1, text(1, 1)], [1, text(Math.max(1, max - 20), max, spaces)]);

/**
 * Characters that mean something to a query language rather than to the
 * user: SQL LIKE's wildcards and escape, regular expressions, key-value
 * key syntax (Redis's `:` separators, glob `*?[]`, cluster hash tags `{}`),
 * quotes. A store that builds a pattern or a key from a value without
 * escaping it finds the wrong record, or none.
 */
const querySyntax = "%_\\*?[]{}().^$|+:'\"";

/** Text with query syntax inside it: `a%b`, `x_y`, `{k}:*`. */
const syntaxText =
  (max: number): Gen<string> =>
  (s) => {
    if (s.simple) return "a%a";
    const length = int(3, Math.min(max, 24))(s);
    let out = "";
    for (let i = 0; i < length; i++) {
      const special = i > 0 && i < length - 1 && s.next() < 0.4;
      out += special ? querySyntax[Math.floor(s.next() * querySyntax.length)] : textOf(s, 1, false);
    }
    return trimmed(out) ? out : "a%a";
  };

/** A value used as (part of) a lookup key. */
export const keyText = (max = 120) => sized(max);

/** Text over a fixed alphabet (digits, hex, base64url). */
const over =
  (alphabet: string, min: number, max: number): Gen<string> =>
  (s) => {
    const length = int(min, max)(s);
    if (s.simple) return alphabet[0]!.repeat(length);
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(s.next() * alphabet.length)];
    return out;
  };

const digits = (max: number) => over("0123456789", 1, max);
export const base64url = (min: number, max: number) =>
  over("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min, max);
const hex = (length: number) => over("0123456789abcdef", length, length);

/** A version-4-shaped uuid, as Auth.js makes session tokens and ids. */
const uuid: Gen<string> = (s) => {
  const h = hex(32)(s);
  const v = constantFrom("8", "9", "a", "b")(s);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${v}${h.slice(17, 20)}-${h.slice(20)}`;
};

/** Display names: any script, spaces inside, very long, or absent (null). */
export const displayName: Gen<string | null> = oneof<string | null>([8, sized(200, true)], [1, constant(null)]);

export const imageUrl: Gen<string | null> = oneof<string | null>(
  [5, map(keyText(60), (path) => `https://images.example.test/${encodedWithin(path, 255 - 32)}.png`)],
  [1, constant(null)],
);

/** `text` URL-encoded, shortened by whole characters until it fits in `max` (encoding grows a character up to 12-fold). */
function encodedWithin(text: string, max: number): string {
  const chars = [...text];
  let encoded = encodeURIComponent(text);
  while (encoded.length > max && chars.length > 1) {
    chars.pop();
    encoded = encodeURIComponent(chars.join(""));
  }
  return encoded;
}

/** The local part of an email: Unicode (internationalised mail), dots, plus tags, digits only. */
const emailLocal: Gen<string> = oneof(
  [6, map(keyText(60), (v) => v.replace(/[@\s]/g, "_"))],
  [1, map(syntaxText(60), (v) => v.replace(/[@\s]/g, "_"))],
  [2, (s) => `${keyText(12)(s)}+${keyText(12)(s)}`.replace(/[@\s]/g, ".")],
  [1, digits(20)],
);

const emailDomain = constantFrom("example.test", "Example.TEST", "mail.example.test", "пример.test", "例え.test");

/** A domain of 63-character labels: with a 64-character local part, an address near the 254-character limit. */
const longDomain: Gen<string> = (s) =>
  `${over(lowerAlphanumeric, 63, 63)(s)}.${over(lowerAlphanumeric, 63, 63)(s)}.${over(lowerAlphanumeric, 40, 48)(s)}.example.test`;
const lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A whole address: usual ones mostly, now and then one as long as mail allows (254 characters). */
export const emailAddress: Gen<string> = oneof(
  [12, (s) => `${emailLocal(s)}@${emailDomain(s)}`],
  [1, (s) => `${over(lowerAlphanumeric, 40, 50)(s)}@${longDomain(s)}`],
);

/** A provider id as configured in an app: short ASCII ids mostly, anything sometimes. */
export const providerBase: Gen<string> = oneof(
  [4, constantFrom("github", "google", "GitHub", "vk", "apple", "azure-ad", "email", "a", "x")],
  [2, keyText(30)],
);

/**
 * A provider account id as providers' profiles give them: numeric ids (some past 2^53, some with leading
 * zeros), uuids, Apple's dotted ids, Auth0's `provider|id`, opaque base64, any text.
 */
export const providerAccountIdBase: Gen<string> = oneof(
  [3, digits(19)],
  [1, map(tuple(over("0", 1, 3), digits(21)), ([zeros, id]) => `${zeros}${id}`)],
  [1, uuid],
  [1, map(tuple(digits(6), hex(32), digits(4)), ([a, b, c]) => `${a}.${b}.${c}`)],
  [1, map(tuple(constantFrom("google-oauth2", "github", "auth0"), digits(21)), ([p, id]) => `${p}|${id}`)],
  [2, base64url(1, 43)],
  [2, keyText(100)],
);

/** A JWT's shape: three base64url parts; Google's id_tokens and Microsoft's access tokens run to 2–4 KB. */
const jwt = (min: number, max: number): Gen<string> =>
  map(tuple(base64url(20, 60), base64url(min, max), base64url(43, 86)), (parts) => parts.join("."));

export const opaqueToken: Gen<string> = oneof([3, uuid], [2, base64url(1, 64)], [1, keyText(100)]);

/** An OAuth access, refresh or id token: opaque and short, or a JWT of up to 4 KB (TEXT columns hold them). */
export const oauthToken: Gen<string> = oneof([6, opaqueToken], [1, jwt(1800, 3900)]);

/** Verification tokens are stored hashed (hex) but a custom hash may yield anything. */
export const verificationTokenBase: Gen<string> = oneof([3, hex(64)], [1, keyText(64)]);

/** `length` random bytes in standard base64 (`+`, `/`, `=` padding), as @auth/core's toBase64 writes them. */
const base64Bytes =
  (min: number, max: number): Gen<string> =>
  (s) => {
    const bytes = Buffer.alloc(int(min, max)(s));
    for (let i = 0; i < bytes.length; i++) bytes[i] = s.simple ? 0 : Math.floor(s.next() * 256);
    return bytes.toString("base64");
  };

/**
 * Credential IDs before the run's salt is put in front (steps/authenticators.ts): 16 to 64 bytes
 * mostly, now and then up to the 179 whose base64, salt included, fits in 255 characters.
 */
export const credentialIdBase: Gen<string> = oneof(
  [3, base64Bytes(6, 6)],
  [3, base64Bytes(22, 22)],
  [2, base64Bytes(54, 54)],
  [1, base64Bytes(55, 179)],
);
/** COSE public keys: Ed25519 (44 bytes), P-256 (77), RSA-2048 (272). */
export const publicKey: Gen<string> = oneof(
  [1, base64Bytes(44, 44)],
  [3, base64Bytes(77, 77)],
  [1, base64Bytes(272, 272)],
);

/** WebAuthn signature counters: usually 0 or small; within a signed 32-bit column. */
export const counter: Gen<number> = oneof([3, constant(0)], [3, int(1, 1000)], [1, int(1001, 2 ** 31 - 1)]);

/**
 * Seconds from "now" for expiry dates: from ten minutes to over a year ahead.
 * Never in the past: the service only ever stores sessions and tokens that
 * expire later, and stores with a TTL (Redis) refuse an expiry already
 * gone. The model still allows an expired record to be gone already (§3),
 * for sequences that outlive a short expiry.
 */
export const expirySeconds: Gen<number> = oneof([3, int(600, 3600)], [6, int(3601, 400 * 24 * 3600)]);

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
