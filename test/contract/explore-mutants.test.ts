// Faults no contract case and no broken fixture names, each a small change to
// the correct in-memory adapter: exploration alone must find every one, with a
// short sequence. The model is written from the spec, not from these faults.
import { describe, expect, it } from "vitest";
import createMemoryAdapter from "../../fixtures/adapters/memory.js";
import { explore } from "../../src/contract/explore/run.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

type Row = Record<string, any>;
const memory = () => createMemoryAdapter() as unknown as Record<string, (...args: any[]) => any>;

const mutants: Record<string, () => AnyAdapter> = {
  // Sign-out in one browser signs the user out everywhere.
  "deleteSession removes every session of the user": () => {
    const a = memory();
    const tokensOf = new Map<string, string[]>();
    const { createSession, deleteSession, getSessionAndUser } = a;
    a.createSession = (s: Row) => {
      tokensOf.set(String(s.userId), [...(tokensOf.get(String(s.userId)) ?? []), s.sessionToken]);
      return createSession!(s);
    };
    a.deleteSession = (token: string) => {
      const found = getSessionAndUser!(token);
      const result = deleteSession!(token);
      if (found) for (const t of tokensOf.get(String(found.user.id)) ?? []) deleteSession!(t);
      return result;
    };
    return a;
  },
  // A session carries the user as it was at sign-in (a denormalised copy).
  "getSessionAndUser returns the user as it was when the session was created": () => {
    const a = memory();
    const snapshot = new Map<string, Row>();
    const { createSession, getSessionAndUser, getUser } = a;
    a.createSession = (s: Row) => {
      snapshot.set(s.sessionToken, structuredClone(getUser!(s.userId)));
      return createSession!(s);
    };
    a.getSessionAndUser = (token: string) => {
      const found = getSessionAndUser!(token);
      return found ? { session: found.session, user: structuredClone(snapshot.get(token)) } : null;
    };
    return a;
  },
  // Emails compared without case: a case-insensitive collation.
  "getUserByEmail ignores case": () => {
    const a = memory();
    const ids: string[] = [];
    const { createUser, getUser } = a;
    a.createUser = (u: Row) => {
      const made = createUser!(u);
      ids.push(made.id);
      return made;
    };
    a.getUserByEmail = (email: string) => {
      for (const id of ids) {
        const now = getUser!(id);
        // A collation never matches a user stored without an email.
        if (now?.email && now.email.toLowerCase() === email.toLowerCase()) return now;
      }
      return null;
    };
    return a;
  },
  // The expiry is not stored: every session lasts 30 days whatever was asked.
  "createSession stores a fixed expiry": () => {
    const a = memory();
    const { createSession } = a;
    a.createSession = (s: Row) => {
      createSession!({ ...s, expires: new Date(Math.floor(Date.now() / 1000) * 1000 + 30 * 86_400_000) });
      return s;
    };
    return a;
  },
  // A counter update touches every credential of the user.
  "updateAuthenticatorCounter updates all of the user's authenticators": () => {
    const a = memory();
    const { updateAuthenticatorCounter, getAuthenticator, listAuthenticatorsByUserId } = a;
    a.updateAuthenticatorCounter = (id: string, n: number) => {
      const auth = getAuthenticator!(id);
      if (auth)
        for (const other of listAuthenticatorsByUserId!(auth.userId))
          updateAuthenticatorCounter!(other.credentialID, n);
      return updateAuthenticatorCounter!(id, n);
    };
    return a;
  },
  // A changed email is not written to the lookup index.
  "updateUser keeps finding the user by the old email": () => {
    const a = memory();
    const oldEmails = new Map<string, string>();
    const { updateUser, getUserByEmail, getUser } = a;
    a.updateUser = (u: Row) => {
      const before = getUser!(u.id);
      if (before && u.email !== undefined && u.email !== before.email) oldEmails.set(before.email, u.id);
      return updateUser!(u);
    };
    a.getUserByEmail = (email: string) =>
      getUserByEmail!(email) ?? (oldEmails.has(email) ? getUser!(oldEmails.get(email)!) : null);
    return a;
  },
  // Deleting a user leaves its passkeys behind.
  "deleteUser keeps the user's authenticators": () => {
    const a = memory();
    const { deleteUser, listAuthenticatorsByUserId, createAuthenticator } = a;
    a.deleteUser = (id: string) => {
      const kept = listAuthenticatorsByUserId!(id);
      const result = deleteUser!(id);
      for (const auth of kept) createAuthenticator!(auth);
      return result;
    };
    return a;
  },
  // A link is accepted for an email that differs from the stored one only in case.
  "useVerificationToken ignores the case of the email": () => {
    const a = memory();
    const stored: Row[] = [];
    const { createVerificationToken, useVerificationToken } = a;
    a.createVerificationToken = (t: Row) => {
      stored.push(t);
      return createVerificationToken!(t);
    };
    a.useVerificationToken = (key: Row) => {
      const match = stored.find(
        (t) => t.token === key.token && t.identifier.toLowerCase() === String(key.identifier).toLowerCase(),
      );
      return match ? useVerificationToken!({ identifier: match.identifier, token: match.token }) : null;
    };
    return a;
  },
};

/** Lookups that ignore case, as a case-insensitive collation does: the service never tells such keys apart. */
const tolerated: Record<string, RegExp> = {
  "getUserByEmail ignores case": /treats email addresses that differ only in case/,
  "useVerificationToken ignores the case of the email": /treats sign-in link tokens and their email addresses/,
};

describe("exploration finds faults nobody listed", () => {
  for (const [name, make] of Object.entries(mutants).filter(([n]) => !(n in tolerated))) {
    it(name, async () => {
      let found: Awaited<ReturnType<typeof explore>> | undefined;
      for (const seed of [1, 2, 3]) {
        found = await explore({ adapter: make(), seed, runs: 300, callTimeoutMs: 10_000, nonce: `m${seed}` });
        if (!found.ok) break;
      }
      expect(found!.ok, `not found in 3 × 300 sequences: ${name}`).toBe(false);
      expect(found!.failure!.message).not.toMatch(/unexpected error|holds a change a caller made/);
      expect(found!.failure!.steps.length, found!.failure!.steps.join("\n")).toBeLessThanOrEqual(7);
    }, 60_000);
  }
});

describe("exploration tolerates a store that compares keys as a case-insensitive collation", () => {
  for (const [name, warning] of Object.entries(tolerated)) {
    it(`${name}: a warning, and the run passes`, async () => {
      for (const seed of [1, 2, 3]) {
        const result = await explore({
          adapter: mutants[name]!(),
          seed,
          runs: 300,
          callTimeoutMs: 10_000, // none of these adapters hangs: a limit a loaded machine does not reach
          nonce: `c${seed}`,
        });
        expect(result.failure?.message).toBeUndefined();
        expect(result.warnings).toEqual([expect.stringMatching(warning)]);
      }
    }, 60_000);
  }
});
