/**
 * Fresh, unique input records for one case. Every value that an adapter may
 * index (ids, emails, tokens, provider account ids, credential ids) comes
 * from `unique`, which the runner seeds with a per-run nonce: two runs at the
 * same time, even with the same --seed, never share a record. Everything
 * else comes from `random`, which the seed alone fixes.
 */
import { createHash } from "node:crypto";
import { base64url, hex, type Random, randomBytes, uuid } from "./random.js";

const day = 24 * 60 * 60 * 1000;

/**
 * Whole seconds only: several databases drop or round sub-second precision,
 * and the suite compares dates to the second.
 */
function wholeSeconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

export class DataFactory {
  constructor(
    private readonly random: Random,
    private readonly unique: Random,
    private readonly now = Date.now(),
  ) {}

  /** A uuid-shaped key that no record has: for "unknown" lookups. */
  unknownId(): string {
    return uuid(this.unique);
  }

  email(): string {
    return `user-${hex(this.unique, 8)}@example.test`;
  }

  provider(): string {
    return `provider-${hex(this.unique, 4)}`;
  }

  /** A date `days` from now (negative for the past), in whole seconds. */
  date(days: number): Date {
    return wholeSeconds(this.now + days * day);
  }

  user(overrides: Record<string, unknown> = {}) {
    return {
      id: uuid(this.unique),
      email: this.email(),
      emailVerified: null as Date | null,
      name: `Test User ${hex(this.random, 3)}`,
      image: `https://images.example.test/${hex(this.random, 6)}.png`,
      ...overrides,
    };
  }

  /** An account with no token fields, as email and WebAuthn sign-ins link (§2.9: providerAccountId is the email for email accounts). */
  bareAccount(userId: unknown, overrides: Record<string, unknown> = {}) {
    return { userId, type: "email", provider: this.provider(), providerAccountId: this.email(), ...overrides };
  }

  /** An OAuth account with every token field of §2.9 and §2.10 filled in. */
  account(userId: unknown, overrides: Record<string, unknown> = {}) {
    return {
      userId,
      type: "oauth",
      provider: this.provider(),
      // Never digits only: a store that keeps numeric-looking ids as numbers would then fail a case on one
      // nonce in ten thousand, a verdict the seed does not fix. Numeric ids have their case
      // (account.values.provider-account-ids).
      providerAccountId: `id-${hex(this.unique, 10)}`,
      access_token: `at-${base64url(this.random, 24)}`,
      refresh_token: `rt-${base64url(this.random, 24)}`,
      id_token: `it-${base64url(this.random, 24)}`,
      scope: "openid email profile",
      expires_at: Math.floor(this.now / 1000) + 3600,
      token_type: "bearer",
      session_state: `state-${hex(this.random, 6)}`,
      ...overrides,
    };
  }

  session(userId: unknown, overrides: Record<string, unknown> = {}) {
    return { sessionToken: uuid(this.unique), userId, expires: this.date(30), ...overrides };
  }

  /** §2.9 / §5.4: the stored token is a hash of what the link carries. */
  verificationToken(overrides: Record<string, unknown> = {}) {
    const secretToken = hex(this.unique, 32);
    return {
      identifier: this.email(),
      token: createHash("sha256").update(`${secretToken}test-secret`).digest("hex"),
      expires: this.date(1),
      ...overrides,
    };
  }

  authenticator(userId: unknown, providerAccountId: string, overrides: Record<string, unknown> = {}) {
    return {
      credentialID: this.credentialID(32),
      credentialPublicKey: this.publicKey(77),
      counter: Math.floor(this.random() * 100),
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      providerAccountId,
      userId,
      transports: "internal,hybrid",
      ...overrides,
    };
  }

  /** Hex unique to this run and case: keeps fixed edge values apart from every other run's. */
  tag(bytes = 4): string {
    return hex(this.unique, bytes);
  }

  /**
   * A credential ID as @auth/core stores it: the raw ID's bytes in standard
   * base64 (`+`, `/`, `=` padding). It starts with bytes whose encoding is
   * `+/+/`, so every one holds both characters a URL or a path reads.
   */
  credentialID(byteLength: number): string {
    const bytes = [0xfb, 0xff, 0xbf, ...randomBytes(this.unique, byteLength - 3)];
    return Buffer.from(bytes).toString("base64");
  }

  /** A COSE public key of `byteLength` bytes (77 for P-256, 272 for RSA-2048), base64 as @auth/core stores it. */
  publicKey(byteLength: number): string {
    return Buffer.from(randomBytes(this.random, byteLength)).toString("base64");
  }
}
