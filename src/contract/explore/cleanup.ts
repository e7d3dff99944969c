/**
 * Removes what a sequence created, whatever the model believes (the adapter
 * may have kept what it should have deleted), then counts what is still
 * there. Never throws: a record that will not go is a leftover, not a crash.
 */
import type { AdapterMethod, AnyAdapter } from "../adapter.js";
import { callWithin, type HungMethods, timedOut } from "../calls.js";
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
  for (const t of tokens) {
    if (usedTokens.has(`${t.identifier}\u0000${t.token}`)) continue;
    // A token that cannot be used up (the method threw or never settled) stays behind; null means it was gone already.
    if (!usable.has("useVerificationToken") || !(await call("useVerificationToken", t)).ok) into.verificationTokens++;
  }
  for (const token of sessions) await call("deleteSession", token);
  for (const key of accounts) await call("unlinkAccount", key);
  const deletedBefore = new Set(m.users.filter((u) => !u.live).map((u) => u.id));
  for (const id of users) {
    // A user the sequence deleted is not deleted again (some adapters throw for a missing row).
    const deleted = deletedBefore.has(id) ? { ok: true } : await call("deleteUser", id);
    if (usable.has("getUser")) {
      // Still there when a lookup finds it; a lookup that throws proves nothing.
      const found = await call("getUser", id);
      if (found.ok && found.value != null) into.users++;
    } else if (!deleted.ok) into.users++;
  }
  for (const token of sessions) {
    const found = await call("getSessionAndUser", token);
    if (found.ok && found.value != null) into.sessions++;
  }
  for (const key of accounts) {
    const found = usable.has("getAccount")
      ? await call("getAccount", key.providerAccountId, key.provider)
      : await call("getUserByAccount", key);
    if (found.ok && found.value != null) into.accounts++;
  }
  for (const auth of m.authenticators) {
    const found = await call("getAuthenticator", auth.fields.credentialID);
    if (found.ok && found.value != null) into.authenticators++;
  }
}

export function describeLeftovers(l: Leftovers): string | undefined {
  const parts = Object.entries(l)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} ${what.replace(/([A-Z])/g, " $1").toLowerCase()}`);
  return parts.length > 0 ? `exploration left records it created and could not remove: ${parts.join(", ")}` : undefined;
}
