/**
 * The generated totp.ts against the test vectors of RFC 6238 (appendix B:
 * SHA-1, SHA-256 and SHA-512, 8 digits) and RFC 4226 (appendix D), and the
 * rules the sign-in builds on: one step of clock skew either side, a code
 * accepted only after the last step used, base32 as apps carry secrets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { generatedModule, moduleFolder } from "./generated.js";

type Algorithm = "SHA-1" | "SHA-256" | "SHA-512";
interface Settings {
  algorithm: Algorithm;
  digits: number;
  period: number;
}
interface Totp {
  hotp(key: Uint8Array, counter: number, settings?: Settings): Promise<string>;
  totp(key: Uint8Array, ms: number, settings?: Settings): Promise<string>;
  timeStep(ms: number, settings?: Settings): number;
  matchingStep(
    key: Uint8Array,
    code: string,
    options: { now: number; skew?: number; after?: number | null; settings?: Settings },
  ): Promise<number | null>;
  base32Encode(bytes: Uint8Array): string;
  base32Decode(text: string): Uint8Array;
  otpauthUri(input: { issuer: string; account: string; secret: string }): string;
  totpSettings: Settings;
}

let t: Totp;
beforeAll(async () => {
  t = await generatedModule<Totp>(moduleFolder(), "two-factor/totp.ts.hbs", "auth/totp.ts");
});

const ascii = (text: string) => new TextEncoder().encode(text);
// RFC 6238 appendix A: the seed of each hash is "12345678901234567890" repeated to its block length.
const seeds: Record<Algorithm, Uint8Array> = {
  "SHA-1": ascii("12345678901234567890"),
  "SHA-256": ascii("12345678901234567890123456789012"),
  "SHA-512": ascii("1234567890123456789012345678901234567890123456789012345678901234"),
};

// RFC 6238 appendix B: time (seconds), then the 8-digit code for SHA-1, SHA-256, SHA-512.
const rfc6238: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("RFC 6238 test vectors", () => {
  const algorithms: Algorithm[] = ["SHA-1", "SHA-256", "SHA-512"];
  for (const [seconds, ...codes] of rfc6238)
    for (const [i, algorithm] of algorithms.entries())
      it(`${algorithm} at ${seconds} s`, async () => {
        const settings = { algorithm, digits: 8, period: 30 };
        expect(await t.totp(seeds[algorithm], seconds * 1000, settings)).toBe(codes[i]);
      });
});

it("RFC 4226 appendix D: HOTP codes of counts 0 to 9", async () => {
  const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
  const codes = await Promise.all(expected.map((_, count) => t.hotp(seeds["SHA-1"], count)));
  expect(codes).toEqual(expected);
});

describe("matchingStep", () => {
  const key = seeds["SHA-1"];
  const now = 1_700_000_000_000;
  const step = Math.floor(now / 30_000);
  const codeAt = (s: number) => t.hotp(key, s);

  it("accepts the current step and one either side, nothing further", async () => {
    expect(await t.matchingStep(key, await codeAt(step), { now })).toBe(step);
    expect(await t.matchingStep(key, await codeAt(step - 1), { now })).toBe(step - 1);
    expect(await t.matchingStep(key, await codeAt(step + 1), { now })).toBe(step + 1);
    expect(await t.matchingStep(key, await codeAt(step - 2), { now })).toBeNull();
    expect(await t.matchingStep(key, await codeAt(step + 2), { now })).toBeNull();
  });

  it("refuses a step at or before the last one used (a replayed code)", async () => {
    const code = await codeAt(step);
    expect(await t.matchingStep(key, code, { now, after: step })).toBeNull();
    expect(await t.matchingStep(key, code, { now, after: step + 1 })).toBeNull();
    expect(await t.matchingStep(key, code, { now, after: step - 1 })).toBe(step);
    // The previous step's code, still within the skew, is refused once a later one was used.
    expect(await t.matchingStep(key, await codeAt(step - 1), { now, after: step })).toBeNull();
  });

  it("takes spaces people type, refuses anything but six digits", async () => {
    const code = await codeAt(step);
    expect(await t.matchingStep(key, `${code.slice(0, 3)} ${code.slice(3)}`, { now })).toBe(step);
    expect(await t.matchingStep(key, `${code}0`, { now })).toBeNull();
    expect(await t.matchingStep(key, code.slice(1), { now })).toBeNull();
    expect(await t.matchingStep(key, "abcdef", { now })).toBeNull();
    expect(await t.matchingStep(key, "", { now })).toBeNull();
  });
});

describe("base32 and the otpauth URI", () => {
  it("encodes as RFC 4648's test vectors (without padding) and decodes what people type", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [text, encoded] of vectors) {
      expect(t.base32Encode(ascii(text))).toBe(encoded);
      expect(new TextDecoder().decode(t.base32Decode(encoded))).toBe(text);
    }
    expect(new TextDecoder().decode(t.base32Decode("mzxw 6ytb oi=="))).toBe("foobar");
    expect(() => t.base32Decode("MZXW1")).toThrow(/not a base32/);
    const random = crypto.getRandomValues(new Uint8Array(20));
    expect(t.base32Decode(t.base32Encode(random))).toEqual(random);
  });

  it("writes the label and parameters apps read", () => {
    const uri = new URL(t.otpauthUri({ issuer: "My App", account: "ann+2fa@example.com", secret: "JBSWY3DPEHPK3PXP" }));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/My App:ann+2fa@example.com");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "JBSWY3DPEHPK3PXP",
      issuer: "My App",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    expect(uri.pathname).toContain("ann%2B2fa%40example.com");
  });
});
