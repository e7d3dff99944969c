/**
 * Removes what a sequence created, whatever the model believes (the adapter
 * may have kept what it should have deleted), then counts what is still
 * there. Never throws: a record that will not go is a leftover, not a crash.
 */

import { callWithin, type HungMethods, inFlight, timedOut } from "../access/calls.js";
import type { AdapterMethod, AnyAdapter } from "../spec/adapter.js";
import type { Model } from "./model.js";
import type { Probe } from "./probe.js";

export interface Leftovers {
  users: number;
  accounts: number;
  sessions: number;
  verificationTokens: number;
  authenticators: number;
}

export const noLeftovers = (): Leftovers => ({
  users: 0,
  accounts: 0,
  sessions: 0,
  verificationTokens: 0,
  authenticators: 0,
});

/** One call that never throws and never waits longer than the limit; not ok when it failed. */
async function quietly(
  adapter: AnyAdapter,
  usable: Set<AdapterMethod>,
  hung: HungMethods,
  timeoutMs: number,
  method: AdapterMethod,
  ...args: unknown[]
): Promise<{ ok: boolean; value?: unknown }> {
  if (!usable.has(method) || hung.where(method) || hung.stopped) return { ok: false };
  const settled = await callWithin(adapter, hung, method, args, timeoutMs, "the exploration's cleanup");
  return settled === timedOut || settled.threw ? { ok: false } : { ok: true, value: settled.value };
}

/**
 * Calls `each` for every item, several at a time (with a crowd there are
 * hundreds, and a few exchanges with the worker beat hundreds); what failed is tried once
 * more on its own, since concurrent deletes may lose a deadlock that a lone
 * one would not.
 */
async function together<T>(
  items: T[],
  each: (item: T) => Promise<{ ok: boolean; value?: unknown }>,
): Promise<Array<{ ok: boolean; value?: unknown }>> {
  const results = await inFlight(items, each);
  for (let i = 0; i < items.length; i++) if (!results[i]!.ok) results[i] = await each(items[i]!);
  return results;
}

const found = (result: { ok: boolean; value?: unknown }) => result.ok && result.value != null;

export async function cleanUp(
  p: Probe,
  m: Model,
  usable: Set<AdapterMethod>,
  hung: HungMethods,
  timeoutMs: number,
  into: Leftovers,
): Promise<void> {
  const call = (method: AdapterMethod, ...args: unknown[]) =>
    quietly(p.adapter, usable, hung, timeoutMs, method, ...args);
  const { users, accounts, sessions, tokens } = p.created;
  const usedTokens = new Set(m.tokens.filter((t) => !t.live).map((t) => `${t.identifier}\u0000${t.token}`));
  const unused = tokens.filter((t) => !usedTokens.has(`${t.identifier}\u0000${t.token}`));
  // A token that cannot be used up (the method threw or never settled) stays behind; null means it was gone already.
  if (!usable.has("useVerificationToken")) into.verificationTokens += unused.length;
  else
    for (const used of await together(unused, (t) => call("useVerificationToken", t)))
      if (!used.ok) into.verificationTokens++;
  await together(sessions, (token) => call("deleteSession", token));
  await together(accounts, (key) => call("unlinkAccount", key));
  const deletedBefore = new Set(m.users.filter((u) => !u.live).map((u) => u.id));
  // A user the sequence deleted is not deleted again (some adapters throw for a missing row).
  const deleted = await together(users, async (id) => (deletedBefore.has(id) ? { ok: true } : call("deleteUser", id)));
  if (usable.has("getUser")) {
    // Still there when a lookup finds it; a lookup that throws proves nothing.
    const left = await inFlight(users, (id) => call("getUser", id));
    into.users += left.filter(found).length;
  } else into.users += deleted.filter((d) => !d.ok).length;
  const sessionsLeft = await inFlight(sessions, (token) => call("getSessionAndUser", token));
  const accountsLeft = await inFlight(accounts, (key) =>
    usable.has("getAccount") ? call("getAccount", key.providerAccountId, key.provider) : call("getUserByAccount", key),
  );
  const authenticatorsLeft = await inFlight(m.authenticators, (auth) =>
    call("getAuthenticator", auth.fields.credentialID),
  );
  into.sessions += sessionsLeft.filter(found).length;
  into.accounts += accountsLeft.filter(found).length;
  into.authenticators += authenticatorsLeft.filter(found).length;
}

export function describeLeftovers(l: Leftovers): string | undefined {
  const parts = Object.entries(l)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${what.replace(/([A-Z])/g, " $1").toLowerCase()}`);
  return parts.length > 0 ? `exploration left records it created and could not remove: ${parts.join(", ")}` : undefined;
}
