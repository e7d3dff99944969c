// The lifecycles of a running service (steps/lifecycles.ts, steps/devices.ts) are walked by the
// default exploration on every seed, as seen by the adapter: a spy around the
// correct in-memory adapter records what each call did to the store's own
// records, and counts each lifecycle when it happens.
import { describe, expect, it } from "vitest";
import createMemoryAdapter from "../../fixtures/adapters/memory.js";
import { allCases } from "../../src/contract/cases/index.js";
import { explore } from "../../src/contract/explore/run.js";
import { defaultExploreBudget } from "../../src/contract/run/exploration.js";
import { type CaseResult, runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

type Row = Record<string, any>;
const lifecycles = [
  "signs up again with a deleted user's email",
  "links a deleted user's provider account again",
  "two users without an email at once",
  "signs up with an email another user gave up",
  "links an unlinked provider account to another user",
  "registers a deleted user's passkey again",
  "signs out of one of three or more devices while another person is signed in",
] as const;
type Lifecycle = (typeof lifecycles)[number];

function spied(counts: Map<Lifecycle, number>): AnyAdapter {
  const a = createMemoryAdapter() as unknown as Record<string, (...args: any[]) => any>;
  const seen = (what: Lifecycle) => counts.set(what, (counts.get(what) ?? 0) + 1);
  const key = (k: Row) => `${k.provider}\u0000${k.providerAccountId}`;
  const deletedEmails = new Set<string>();
  const formerEmails = new Set<string>();
  const deletedKeys = new Set<string>();
  const unlinkedFrom = new Map<string, string>(); // account key -> user it was unlinked from
  const deletedCredentials = new Set<string>();
  const live = new Map<string, Row>(); // user id -> user
  const owner = new Map<string, string>(); // account key -> user id
  const sessionsOf = new Map<string, Set<string>>(); // user id -> live session tokens
  const { createUser, updateUser, deleteUser, linkAccount, unlinkAccount, createSession, deleteSession } = a;
  const { createAuthenticator, getSessionAndUser, listAuthenticatorsByUserId } = a;
  a.createUser = (u: Row) => {
    if (u.email && deletedEmails.has(u.email)) seen("signs up again with a deleted user's email");
    if (u.email && formerEmails.has(u.email)) seen("signs up with an email another user gave up");
    const made = createUser!(u);
    // A copy: the exploration changes returned objects where the adapter holds them, as a caller may.
    live.set(made.id, structuredClone(made));
    if (!u.email && [...live.values()].filter((x) => !x.email).length >= 2) seen("two users without an email at once");
    return made;
  };
  a.updateUser = (u: Row) => {
    const before = live.get(u.id);
    if (before?.email && u.email !== undefined && u.email !== before.email) formerEmails.add(before.email);
    const updated = updateUser!(u);
    live.set(updated.id, structuredClone(updated));
    return updated;
  };
  a.deleteUser = (id: string) => {
    const user = live.get(id);
    if (user?.email) deletedEmails.add(user.email);
    for (const [k, uid] of owner) if (uid === id) deletedKeys.add(k);
    for (const auth of listAuthenticatorsByUserId!(id)) deletedCredentials.add(auth.credentialID);
    live.delete(id);
    sessionsOf.delete(id);
    return deleteUser!(id);
  };
  a.linkAccount = (acc: Row) => {
    const k = key(acc);
    if (deletedKeys.has(k)) seen("links a deleted user's provider account again");
    const from = unlinkedFrom.get(k);
    if (from !== undefined && from !== String(acc.userId)) seen("links an unlinked provider account to another user");
    owner.set(k, String(acc.userId));
    return linkAccount!(acc);
  };
  a.unlinkAccount = (k: Row) => {
    const uid = owner.get(key(k));
    if (uid !== undefined) unlinkedFrom.set(key(k), uid);
    return unlinkAccount!(k);
  };
  a.createAuthenticator = (auth: Row) => {
    if (deletedCredentials.has(auth.credentialID)) seen("registers a deleted user's passkey again");
    return createAuthenticator!(auth);
  };
  a.createSession = (s: Row) => {
    const tokens = sessionsOf.get(String(s.userId)) ?? new Set<string>();
    tokens.add(s.sessionToken);
    sessionsOf.set(String(s.userId), tokens);
    return createSession!(s);
  };
  a.deleteSession = (token: string) => {
    const found = getSessionAndUser!(token);
    if (found) {
      const uid = String(found.user.id);
      const alive = (t: string) => getSessionAndUser!(t) !== null;
      const mine = [...(sessionsOf.get(uid) ?? [])].filter(alive).length;
      const othersIn = [...sessionsOf].some(([id, tokens]) => id !== uid && [...tokens].some(alive));
      if (mine >= 3 && othersIn) seen("signs out of one of three or more devices while another person is signed in");
    }
    return deleteSession!(token);
  };
  return a as unknown as AnyAdapter;
}

describe("the default exploration walks every lifecycle on every seed", () => {
  for (const seed of [1, 7, 23]) {
    it(`seed ${seed}`, async () => {
      const counts = new Map<Lifecycle, number>();
      const result = await explore({
        adapter: spied(counts),
        seed,
        runs: defaultExploreBudget.runs,
        callTimeoutMs: 2000,
        nonce: `lifecycles-${seed}`,
      });
      expect(result.failure?.message).toBeUndefined();
      for (const lifecycle of lifecycles) expect(counts.get(lifecycle) ?? 0, lifecycle).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe("a store that refuses every user without an email", () => {
  // The adapter interface types email as a string: refusing them all is tolerated (a warning), unlike
  // taking the first and refusing the second (fixtures/adapters/broken/one-user-without-email.ts).
  const refusing = () => {
    const a = createMemoryAdapter() as unknown as Record<string, (...args: any[]) => any>;
    const { createUser } = a;
    a.createUser = (u: Row) => {
      if (!u.email) throw new Error('null value in column "email" violates not-null constraint');
      return createUser!(u);
    };
    return a as unknown as AnyAdapter;
  };

  it("is a warning in the cases", async () => {
    const results: CaseResult[] = [];
    await runContract({
      adapter: refusing(),
      cases: allCases.filter((c) => c.id === "lifecycle.users-without-email.several-at-once"),
      seed: 1,
      timeoutMs: 60_000,
      concurrency: 1,
      require: [],
      onEvent: (e) => e.type === "case:end" && results.push(e.result),
    });
    expect(results.map((r) => r.status)).toEqual(["passed"]);
    expect(results[0]!.warnings).toEqual([expect.stringMatching(/^tolerated: createUser threw .* without an email/)]);
  });

  it("is a warning in the exploration, and the run passes", async () => {
    const result = await explore({ adapter: refusing(), seed: 1, runs: 40, callTimeoutMs: 2000, nonce: "refusing" });
    expect(result.failure?.message).toBeUndefined();
    expect(result.warnings).toEqual([expect.stringMatching(/^createUser threw for a user without an email/)]);
  });
});
