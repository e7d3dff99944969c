// Faults that show only with data at real sizes: many records, long values,
// several records of one kind per user or address, characters a query
// language reads. Each is a small change to the correct in-memory adapter,
// and the default exploration budget (40 sequences) must find every one, for
// each of three seeds: a verdict a CI gate can rely on. The crowds and values
// that find them are written from how real stores hold data, not from these.
import { describe, expect, it } from "vitest";
import createMemoryAdapter from "../../fixtures/adapters/memory.js";
import { explore } from "../../src/contract/explore/run.js";
import { defaultExploreBudget } from "../../src/contract/run/exploration.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

type Row = Record<string, any>;
type Methods = Record<string, (...args: any[]) => any>;
const memory = () => createMemoryAdapter() as unknown as Methods;

/** Users in the order they were made, as a table scan without ORDER BY reads them. */
function withUserOrder(a: Methods): string[] {
  const ids: string[] = [];
  const { createUser, deleteUser } = a;
  a.createUser = (u: Row) => {
    const made = createUser!(u);
    ids.push(made.id);
    return made;
  };
  a.deleteUser = (id: string) => {
    ids.splice(ids.indexOf(id), 1);
    return deleteUser!(id);
  };
  return ids;
}

/** SQL LIKE without escaping: `_` is any one character, `%` any run of them. */
function likePattern(text: string): RegExp {
  const body = [...text]
    .map((c) => (c === "_" ? "." : c === "%" ? ".*" : c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`, "su");
}

const faults: Record<string, () => AnyAdapter> = {
  // A session cache that holds 64 sessions and evicts the oldest: fine until a few dozen users sign in.
  "sessions live in a cache of 64, the oldest evicted": () => {
    const a = memory();
    const order: string[] = [];
    const { createSession, deleteSession } = a;
    a.createSession = (s: Row) => {
      const made = createSession!(s);
      order.push(s.sessionToken);
      if (order.length > 64) deleteSession!(order.shift()!);
      return made;
    };
    return a;
  },
  // A lookup that reads the first page of users and filters in code.
  "getUserByEmail reads the first 50 users only": () => {
    const a = memory();
    const ids = withUserOrder(a);
    const { getUser } = a;
    a.getUserByEmail = (email: string) => {
      for (const id of ids.slice(0, 50)) {
        const user = getUser!(id);
        if (user?.email === email) return user;
      }
      return null;
    };
    return a;
  },
  // access_token and id_token in VARCHAR(1024) columns of a store that truncates instead of refusing.
  "OAuth tokens are cut to 1024 characters": () => {
    const a = memory();
    const { linkAccount } = a;
    const cut = (v: unknown) => (typeof v === "string" ? v.slice(0, 1024) : v);
    a.linkAccount = (account: Row) =>
      linkAccount!({
        ...account,
        access_token: cut(account.access_token),
        id_token: cut(account.id_token),
        refresh_token: cut(account.refresh_token),
      });
    return a;
  },
  // The address in a 191-character column (utf8mb4's old index limit) that truncates.
  "emails are cut to 191 characters": () => {
    const a = memory();
    const { createUser, getUserByEmail } = a;
    a.createUser = (u: Row) => createUser!({ ...u, email: u.email.slice(0, 191) });
    a.getUserByEmail = (email: string) => getUserByEmail!(email.slice(0, 191));
    return a;
  },
  // A lookup written with LIKE and the value pasted in unescaped.
  "getUserByEmail matches with LIKE, so _ and % are wildcards": () => {
    const a = memory();
    const ids = withUserOrder(a);
    const { getUser } = a;
    a.getUserByEmail = (email: string) => {
      const pattern = likePattern(email);
      for (const id of ids) {
        const user = getUser!(id);
        if (user && pattern.test(user.email)) return user;
      }
      return null;
    };
    return a;
  },
  // One pending link per address: asking twice silently kills the first link.
  "a new sign-in link replaces the pending ones of that address": () => {
    const a = memory();
    const pending = new Map<string, Row[]>();
    const { createVerificationToken, useVerificationToken } = a;
    a.createVerificationToken = (t: Row) => {
      for (const old of pending.get(t.identifier) ?? []) useVerificationToken!(old);
      pending.set(t.identifier, [{ identifier: t.identifier, token: t.token }]);
      return createVerificationToken!(t);
    };
    return a;
  },
  // One account per provider per user: a second account at that provider replaces the first.
  "linkAccount keeps one account per provider for each user": () => {
    const a = memory();
    const linked = new Map<string, Row>();
    const { linkAccount, unlinkAccount } = a;
    a.linkAccount = (account: Row) => {
      const key = `${account.userId}\u0000${account.provider}`;
      const before = linked.get(key);
      if (before) unlinkAccount!(before);
      linked.set(key, { provider: account.provider, providerAccountId: account.providerAccountId });
      return linkAccount!(account);
    };
    return a;
  },
};

describe("the default exploration finds faults that need real sizes", () => {
  it.each(Object.entries(faults))("%s", async (_name, make) => {
    for (const seed of [1, 2, 3]) {
      const result = await explore({
        adapter: make(),
        seed,
        runs: defaultExploreBudget.runs,
        callTimeoutMs: 1000,
        nonce: `real${seed}`,
      });
      expect(result.ok, `not found with seed ${seed}`).toBe(false);
      expect(result.failure!.message).not.toMatch(/unexpected error/);
    }
  });

  it("and the correct adapter passes the same runs", async () => {
    for (const seed of [1, 2, 3]) {
      const result = await explore({
        adapter: createMemoryAdapter() as AnyAdapter,
        seed,
        runs: defaultExploreBudget.runs,
        callTimeoutMs: 1000,
        nonce: `real${seed}`,
      });
      expect(result.failure?.message).toBeUndefined();
      expect(result.ok).toBe(true);
    }
  });
});
