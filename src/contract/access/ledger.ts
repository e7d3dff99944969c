/**
 * Every record a run writes, in one ledger: a case's, an exploration
 * sequence's, the collation probe's. The suite writes to the user's
 * database, so it removes what it wrote and then looks for it again: a
 * record it can still find is reported with a count, never silently left.
 */
import type { AdapterMethod } from "../spec/adapter.js";
import { callWithin, type HungMethods, inFlight, timedOut } from "./calls.js";
import type { AdapterPort } from "./port.js";

export const recordKinds = ["users", "accounts", "sessions", "verification tokens", "authenticators"] as const;
export type RecordKind = (typeof recordKinds)[number];
/** Records a run created and could not remove, by kind (kinds with none are absent). */
export type Leftovers = Partial<Record<RecordKind, number>>;

export function addLeftovers(into: Leftovers, more: Leftovers): Leftovers {
  for (const kind of recordKinds) if (more[kind]) into[kind] = (into[kind] ?? 0) + more[kind];
  return into;
}

export function describeLeftovers(leftovers: Leftovers): string | undefined {
  const parts = recordKinds.filter((k) => leftovers[k]).map((k) => `${leftovers[k]} ${k}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

type AccountKey = { provider: string; providerAccountId: string };
type TokenKey = { identifier: string; token: string };

interface Entry {
  kind: RecordKind;
  /** Matches `gone` calls: the kind's key as text. */
  id: string;
  /** How to remove it; authenticators have no delete method and go with their user. */
  remove?: { method: AdapterMethod; args: unknown[] };
  /** Looks for it (found when the result is not null); none for tokens, whose only lookup uses them up. */
  find?: (has: (m: AdapterMethod) => boolean) => { method: AdapterMethod; args: unknown[] } | undefined;
  gone: boolean;
}

/** One call that never throws and never waits longer than its limit: not ok when it threw, hung or could not be made. */
export type QuietCall = (method: AdapterMethod, args: unknown[]) => Promise<{ ok: boolean; value?: unknown }>;

export function quietCalls(
  port: AdapterPort,
  hung: HungMethods,
  limitMs: number,
  where: string,
  usable: (method: AdapterMethod) => boolean = (method) => port.methods.has(method),
): QuietCall {
  return async (method, args) => {
    if (!usable(method) || hung.where(method) !== undefined || hung.stopped) return { ok: false };
    try {
      const settled = await callWithin(port, hung, method, args, limitMs, where);
      return settled === timedOut || settled.threw ? { ok: false } : { ok: true, value: settled.value };
    } catch {
      // The adapter can answer no more; the run says so elsewhere.
      return { ok: false };
    }
  };
}

export class Ledger {
  private readonly entries: Entry[] = [];

  user(id: unknown): void {
    this.entries.push({
      kind: "users",
      id: String(id),
      remove: { method: "deleteUser", args: [id] },
      find: () => ({ method: "getUser", args: [id] }),
      gone: false,
    });
  }

  account(key: AccountKey): void {
    const { provider, providerAccountId } = key;
    this.entries.push({
      kind: "accounts",
      id: `${provider}\u0000${providerAccountId}`,
      remove: { method: "unlinkAccount", args: [{ provider, providerAccountId }] },
      // getAccount sees an account row whose user is gone; getUserByAccount usually joins the user.
      find: (has) =>
        has("getAccount")
          ? { method: "getAccount", args: [providerAccountId, provider] }
          : { method: "getUserByAccount", args: [{ provider, providerAccountId }] },
      gone: false,
    });
  }

  session(sessionToken: string): void {
    this.entries.push({
      kind: "sessions",
      id: sessionToken,
      remove: { method: "deleteSession", args: [sessionToken] },
      find: () => ({ method: "getSessionAndUser", args: [sessionToken] }),
      gone: false,
    });
  }

  /** Using a token is the only way to remove it; one that cannot be used up is a leftover. */
  verificationToken(key: TokenKey): void {
    const { identifier, token } = key;
    this.entries.push({
      kind: "verification tokens",
      id: `${identifier}\u0000${token}`,
      remove: { method: "useVerificationToken", args: [{ identifier, token }] },
      gone: false,
    });
  }

  authenticator(credentialID: string): void {
    this.entries.push({
      kind: "authenticators",
      id: credentialID,
      find: () => ({ method: "getAuthenticator", args: [credentialID] }),
      gone: false,
    });
  }

  /** The keys of the records of one kind, in the order the case wrote them. */
  written(kind: RecordKind): string[] {
    return this.entries.filter((e) => e.kind === kind).map((e) => e.id);
  }

  /** The run removed these itself (a deleted user, a used token): not removed again. */
  gone(kind: RecordKind, id: string): void {
    for (const entry of this.entries) if (entry.kind === kind && entry.id === id) entry.gone = true;
  }

  /**
   * Removes every record, then looks for each again. Sign-in links are used up and users deleted (what
   * failed is tried once more on its own: concurrent deletes may lose a deadlock a lone one would not);
   * a user's sessions, accounts and passkeys go with it (§2.10). Those still found afterwards (an adapter
   * without deleteUser, or whose deleteUser does not take them along) are removed one by one, and
   * looked for once more.
   */
  async clear(call: QuietCall, has: (method: AdapterMethod) => boolean): Promise<Leftovers> {
    const removed = new Map<Entry, boolean>();
    const remove = async (entries: Entry[]) => {
      const once = (e: Entry) => call(e.remove!.method, e.remove!.args).then((r) => r.ok);
      const done = await inFlight(entries, once);
      for (const [i, entry] of entries.entries()) removed.set(entry, done[i]! || (await once(entry)));
    };
    const finder = (e: Entry) => {
      const find = e.find?.(has);
      return find !== undefined && has(find.method) ? find : undefined;
    };
    // A lookup that throws proves nothing.
    const stillThere = async (entries: Entry[]) => {
      const found = await inFlight(entries, async (e) => {
        const { method, args } = finder(e)!;
        const result = await call(method, args);
        return result.ok && result.value != null;
      });
      return entries.filter((_, i) => found[i]);
    };
    const owned = (e: Entry) => e.kind === "sessions" || e.kind === "accounts";
    // Owned records no lookup could find are removed up front, as nothing would show they stayed.
    await remove(this.entries.filter((e) => !e.gone && e.remove && (!owned(e) || !finder(e))));
    const probed = this.entries.filter((e) => finder(e));
    let left = await stillThere(probed);
    const strays = left.filter((e) => owned(e) && !e.gone);
    if (strays.length > 0) {
      await remove(strays);
      const again = new Set(await stillThere(strays));
      left = left.filter((e) => !strays.includes(e) || again.has(e));
    }
    const leftovers: Leftovers = {};
    const count = (kind: RecordKind) => {
      leftovers[kind] = (leftovers[kind] ?? 0) + 1;
    };
    for (const entry of left) count(entry.kind);
    // What no lookup can find: left when it could not be removed.
    const looked = new Set(probed);
    for (const entry of this.entries)
      if (!looked.has(entry) && entry.remove && !entry.gone && removed.get(entry) !== true) count(entry.kind);
    return leftovers;
  }
}
