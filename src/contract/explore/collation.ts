/**
 * Stores that compare keys the way a collation does. MySQL's and MariaDB's
 * default collations (utf8mb4_general_ci and its kin) compare text without
 * case and accents and, in the older ones, take every character outside the
 * Basic Multilingual Plane for one; PostgreSQL's citext ignores case. Such a
 * store finds "Ana@x.test" for "ana@x.test", and refuses the second of the
 * two as a duplicate. The service never tells such keys apart: it lowercases
 * the addresses of email sign-in, makes tokens in one case, and addresses
 * that differ only in case reach one mailbox. So it is tolerated (a warning),
 * and for a key the store folds, exploration uses values no collation folds
 * into one another and keeps out near-duplicates that differ only that way.
 *
 * Which keys fold is found once per exploration, by writing one record of
 * each kind and looking it up by a variant in case, in accents and in an
 * astral character.
 */
import { randomUUID } from "node:crypto";
import { addLeftovers, type Leftovers } from "../access/ledger.js";
import type { AdapterMethod } from "../spec/adapter.js";
import type { KeyKind } from "./model.js";
import type { Probe } from "./probe.js";

export type { KeyKind };

const described: Record<KeyKind, string> = {
  email: "email addresses",
  accountKey: "provider account ids",
  sessionToken: "session tokens",
  verificationToken: "sign-in link tokens and their email addresses",
  credentialID: "passkey credential IDs",
};

/** What a case- and accent-insensitive collation compares: two keys with one such form are one key to it. */
export function collationKey(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u{10000}-\u{10FFFF}]/gu, "\uFFFD");
}

const safeAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * `value` as printable ASCII without capitals, one character for one, so its
 * length stays: distinct such values are distinct under any collation.
 */
export function collationSafe(value: string): string {
  let out = "";
  for (const c of value) {
    const code = c.codePointAt(0)!;
    if (code >= 0x41 && code <= 0x5a) out += c.toLowerCase();
    else if (code >= 0x20 && code <= 0x7e) out += c;
    else out += safeAlphabet[code % safeAlphabet.length];
  }
  return out;
}

/** The warning for a key kind the store folds. */
export function foldingWarning(kind: KeyKind): string {
  return `tolerated: the store treats ${described[kind]} that differ only in case or accents as one (a case-insensitive collation, such as MySQL's and MariaDB's default, or citext); the service never tells such keys apart. Exploration kept such near-duplicates out.`;
}

/** A key with a capital, an accent and an astral character, and its variants in each. */
function probeKeys(salt: string, tag: string) {
  const key = `K${tag}\u00e9${salt}\u{1d49c}`;
  return {
    key,
    variants: [`k${tag}\u00e9${salt}\u{1d49c}`, `K${tag}e${salt}\u{1d49c}`, `K${tag}\u00e9${salt}\u{1d49d}`],
  };
}

/** Runs `find` on each variant; true when one finds the record. A throw counts as "not found". */
async function anyFinds(variants: string[], find: (variant: string) => Promise<unknown>): Promise<boolean> {
  for (const variant of variants) {
    try {
      if ((await find(variant)) != null) return true;
    } catch {
      // A store that refuses the variant does not fold it.
    }
  }
  return false;
}

/** Which key kinds the store folds. Everything written is removed, as after a sequence. */
export async function foldingKeys(p: Probe, salt: string, leftovers: Leftovers): Promise<Set<KeyKind>> {
  const { usable } = p.options;
  const folds = new Set<KeyKind>();
  const can = (...methods: AdapterMethod[]) => methods.every((m) => usable.has(m));
  const call = async (method: AdapterMethod, ...args: unknown[]) => {
    const outcome = await p.look({ method, args });
    if (outcome.threw) throw outcome.error;
    return outcome.value;
  };
  const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600_000);
  try {
    if (!can("createUser")) return folds;
    const email = probeKeys(salt, "mail");
    const user = await call("createUser", {
      id: randomUUID(),
      email: `${email.key}@example.test`,
      emailVerified: null,
      name: null,
      image: null,
    });
    p.ledger.user(user.id);
    if (can("getUserByEmail") && (await anyFinds(email.variants, (v) => call("getUserByEmail", `${v}@example.test`))))
      folds.add("email");

    if (can("linkAccount", "getUserByAccount")) {
      const id = probeKeys(salt, "acct");
      const provider = `fold-${salt}`;
      await call("linkAccount", { userId: user.id, type: "oauth", provider, providerAccountId: id.key });
      p.ledger.account({ provider, providerAccountId: id.key });
      if (await anyFinds(id.variants, (v) => call("getUserByAccount", { provider, providerAccountId: v })))
        folds.add("accountKey");
    }
    if (can("createSession", "getSessionAndUser")) {
      const token = probeKeys(salt, "sess");
      await call("createSession", { sessionToken: token.key, userId: user.id, expires });
      p.ledger.session(token.key);
      if (await anyFinds(token.variants, (v) => call("getSessionAndUser", v))) folds.add("sessionToken");
    }
    if (can("createVerificationToken", "useVerificationToken")) {
      // A found variant uses the token up: each variant gets a token of its own.
      const token = probeKeys(salt, "link");
      const identifier = `${email.key}@example.test`;
      const tries = [
        ...token.variants.map((v) => ({ token: token.key, look: { identifier, token: v } })),
        ...email.variants.map((v, i) => ({
          token: `${token.key}${i}`,
          look: { identifier: `${v}@example.test`, token: `${token.key}${i}` },
        })),
      ];
      for (const { token: value, look } of tries) {
        await call("createVerificationToken", { identifier, token: value, expires });
        p.ledger.verificationToken({ identifier, token: value });
        if (await anyFinds([look.token], () => call("useVerificationToken", look))) {
          folds.add("verificationToken");
          break;
        }
      }
    }
    if (can("createAuthenticator", "getAuthenticator")) {
      const id = probeKeys(salt, "cred");
      p.ledger.authenticator(id.key);
      await call("createAuthenticator", {
        credentialID: id.key,
        userId: user.id,
        providerAccountId: id.key,
        credentialPublicKey: "AQID",
        counter: 0,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      });
      if (await anyFinds(id.variants, (v) => call("getAuthenticator", v))) folds.add("credentialID");
    }
  } catch {
    // A store that refuses the probe records (a column too narrow for the astral character, say) folds nothing found so far.
  } finally {
    addLeftovers(leftovers, await p.clear());
  }
  return folds;
}
