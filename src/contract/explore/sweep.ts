/**
 * After a step that writes, every lookup the model can answer: each user by
 * id and by email (current and former), each account key by user and by
 * account, each session with its user as it is now, each credential, and
 * each user's list of authenticators. Records that were deleted are looked
 * up too: found after deletion is a divergence. Verification tokens have no
 * lookup that leaves them in place, so only the use commands check them.
 */
import { adapterAuthenticatorSchema } from "../../schemas/adapter-models.js";
import { callsAtOnce, inFlight } from "../access/calls.js";
import { collationKey } from "./collation.js";
import {
  expectAccount,
  expectAuthenticator,
  expectNull,
  expectSessionAndUser,
  expectUser,
  sameId,
  typeProblem,
} from "./compare.js";
import type { AuthenticatorRecord, Model, UserRecord } from "./model.js";
import { Divergence, type Probe } from "./probe.js";
import { Ref, type TraceCall } from "./trace.js";

export const userRef = (u: UserRecord) => new Ref(`${u.label}.id`, u.id);

export async function lookUser(p: Probe, m: Model, user: UserRecord): Promise<void> {
  if (!p.can("getUser")) return;
  const call: TraceCall = { method: "getUser", args: [userRef(user)] };
  const found = p.valueOf(await p.look(call), call, "a sign-in would error");
  if (user.live) expectUser(p, call, found, user, m);
  else expectNull(p, call, found, `for ${user.label}, which was deleted (a record found after it was deleted)`);
}

export async function lookEmail(p: Probe, m: Model, email: string, step = false): Promise<void> {
  if (!p.can("getUserByEmail")) return;
  const call: TraceCall = { method: "getUserByEmail", args: [email] };
  const found = p.valueOf(await (step ? p.step(call) : p.look(call)), call, "an email sign-in would error");
  const owners = m.usersWithEmail(email);
  if (owners.length === 0) {
    const former = m.formerEmails.has(email) || m.users.some((u) => u.email === email);
    expectNull(
      p,
      call,
      found,
      former
        ? `for an email no user has any more (a record found after it was changed or deleted)`
        : "for an email no user has (another user would be signed in)",
    );
  } else {
    const match = owners.find((u) => found != null && sameId((found as { id?: unknown }).id, u.id)) ?? owners[0]!;
    expectUser(p, call, found, match, m);
  }
}

export async function lookAccountKey(
  p: Probe,
  m: Model,
  provider: string,
  providerAccountId: string,
  /** As a step of the sequence, with this one method; otherwise both, as lookups. */
  only?: "getUserByAccount" | "getAccount",
): Promise<void> {
  const step = only !== undefined;
  const account = m.account(provider, providerAccountId);
  const why = m.accounts.some((a) => a.provider === provider && a.providerAccountId === providerAccountId)
    ? "for an account that was unlinked or whose user was deleted (a record found after it was deleted)"
    : "for an account key no account has (another user's account would sign in)";
  if (p.can("getUserByAccount") && only !== "getAccount") {
    const call: TraceCall = { method: "getUserByAccount", args: [{ provider, providerAccountId }] };
    const found = p.valueOf(await (step ? p.step(call) : p.look(call)), call, "an OAuth sign-in would error");
    if (account) expectUser(p, call, found, account.user, m);
    else expectNull(p, call, found, why);
  }
  if (p.can("getAccount") && only !== "getUserByAccount") {
    const call: TraceCall = { method: "getAccount", args: [providerAccountId, provider] };
    const found = p.valueOf(await (step ? p.step(call) : p.look(call)), call, "a WebAuthn sign-in would error");
    if (account) expectAccount(p, call, found, account);
    else expectNull(p, call, found, why);
  }
}

export async function lookSession(p: Probe, m: Model, sessionToken: string, step = false): Promise<void> {
  if (!p.can("getSessionAndUser")) return;
  const call: TraceCall = { method: "getSessionAndUser", args: [sessionToken] };
  const found = p.valueOf(
    await (step ? p.step(call) : p.look(call)),
    call,
    "every page of a signed-in user would error",
  );
  const session = m.session(sessionToken);
  if (session && !session.user.live) throw new Error("model: a live session of a deleted user");
  if (!session) {
    const was = m.sessions.some((s) => s.sessionToken === sessionToken);
    expectNull(
      p,
      call,
      found,
      was
        ? "for a session that was deleted (a signed-out user would stay signed in)"
        : "for a session token no session has",
    );
  } else if (m.expired(session) && found == null) {
    // §3: an expired session may already be gone; the service treats both alike.
  } else expectSessionAndUser(p, call, found, session, m);
}

export async function lookCredential(p: Probe, m: Model, credentialID: string, step = false): Promise<void> {
  if (!p.can("getAuthenticator")) return;
  const call: TraceCall = { method: "getAuthenticator", args: [credentialID] };
  const found = p.valueOf(await (step ? p.step(call) : p.look(call)), call, "a passkey sign-in would error");
  const auth = m.authenticator(credentialID);
  if (auth) expectAuthenticator(p, call, found, auth);
  else
    expectNull(
      p,
      call,
      found,
      m.authenticators.some((a) => a.fields.credentialID === credentialID)
        ? "for a credential whose user was deleted (a record found after it was deleted)"
        : "for a credential ID no authenticator has",
    );
}

export async function lookAuthenticatorList(p: Probe, m: Model, userId: unknown, user?: UserRecord): Promise<void> {
  if (!p.can("listAuthenticatorsByUserId")) return;
  const call: TraceCall = { method: "listAuthenticatorsByUserId", args: [user ? userRef(user) : userId] };
  const found = p.valueOf(await p.look(call), call, "passkey sign-in would error");
  if (!Array.isArray(found)) p.fail("listAuthenticatorsByUserId did not return an array", call, "an array", found);
  const expected: AuthenticatorRecord[] = user ? m.authenticatorsOf(user) : [];
  for (const row of found) {
    const problem = typeProblem(adapterAuthenticatorSchema, row);
    if (problem) p.fail(`listAuthenticatorsByUserId result has the wrong type: ${problem}`, call, undefined, row);
    const auth = expected.find((a) => a.fields.credentialID === row.credentialID);
    if (!auth) {
      const owner = m.authenticators.find((a) => a.fields.credentialID === row.credentialID);
      p.fail(
        owner
          ? `listAuthenticatorsByUserId(${user?.label ?? "an unknown user"}) returned ${owner.label} of ${owner.user.label}${owner.live ? "" : ", which was deleted"}`
          : `listAuthenticatorsByUserId(${user?.label ?? "an unknown user"}) returned a credential nobody created`,
        call,
        expected.map((a) => a.label).join(", ") || "[]",
        row,
      );
    }
    expectAuthenticator(p, call, row, auth);
  }
  if (found.length !== expected.length) {
    const missing = expected.filter(
      (a) => !found.some((r: { credentialID?: unknown }) => r.credentialID === a.fields.credentialID),
    );
    p.fail(
      missing.length > 0
        ? `listAuthenticatorsByUserId(${user?.label}) is missing ${missing.map((a) => a.label).join(", ")} (a record not found after it was written)`
        : `listAuthenticatorsByUserId(${user?.label}) returned a credential twice`,
      call,
      `${expected.length} authenticators`,
      found,
    );
  }
}

/**
 * Every lookup the model can answer about `focus` (the users a step wrote,
 * with everything they own and every account key sharing an id with theirs),
 * or about everything when no focus is given. Steps sweep their focus; the
 * sequence ends with a full sweep, so damage a step did to records it did
 * not name (an over-delete, a leak into another user) is found by the end
 * of the sequence at the latest, and shrinking keeps the sequence minimal.
 */
export async function sweep(p: Probe, m: Model, focus?: UserRecord[]): Promise<void> {
  const mine = focus ? new Set(focus) : undefined;
  const users = mine ? m.users.filter((u) => mine.has(u)) : m.users;
  const emails = new Set<string>(m.formerEmails);
  const looks: Array<() => Promise<void>> = [];
  for (const user of users) {
    looks.push(() => lookUser(p, m, user));
    if (user.email !== null) emails.add(user.email);
    looks.push(() => lookAuthenticatorList(p, m, user.id, user));
  }
  for (const email of emails) looks.push(() => lookEmail(p, m, email));
  // The last sweep also asks for each address with a pattern character in place of its first one:
  // a store that pastes the value into LIKE, a regular expression or a glob finds the user.
  if (!mine) {
    // A store that folds emails would rightly match a pattern that folds to another address: not asked.
    const folded = m.folding.has("email") ? new Set([...emails].map(collationKey)) : undefined;
    for (const [i, email] of [...emails].entries()) {
      const pattern = `${"_%"[i % 2]}${[...email].slice(1).join("")}`;
      if (emails.has(pattern) || folded?.has(collationKey(pattern))) continue;
      looks.push(() => lookEmail(p, m, pattern));
    }
  }
  const ids = mine ? new Set(m.accounts.filter((a) => mine.has(a.user)).map((a) => a.providerAccountId)) : undefined;
  const keys = new Set<string>();
  for (const a of m.accounts) {
    if (ids && !ids.has(a.providerAccountId)) continue;
    const key = `${a.provider}\u0000${a.providerAccountId}`;
    if (keys.has(key)) continue;
    keys.add(key);
    looks.push(() => lookAccountKey(p, m, a.provider, a.providerAccountId));
  }
  const tokens = new Set(m.sessions.filter((s) => !mine || mine.has(s.user)).map((s) => s.sessionToken));
  for (const token of tokens) looks.push(() => lookSession(p, m, token));
  const credentials = new Set(
    m.authenticators.filter((a) => !mine || mine.has(a.user)).map((a) => a.fields.credentialID),
  );
  for (const id of credentials) looks.push(() => lookCredential(p, m, id));
  // Lookups change nothing, so they go out together, as a busy service's reads do (and an adapter in
  // another process answers several in one exchange); the first problem in this order is the one reported.
  const started = p.overlapping();
  const settled = await inFlight(looks, (look) =>
    look().then(
      () => undefined,
      (reason: unknown) => ({ reason }),
    ),
  );
  const batch = p.overlapping(started);
  const failed = settled.findIndex((s) => s !== undefined);
  if (failed < 0) return;
  const { reason } = settled[failed]!;
  // A lookup that fails only beside the others it overlapped (asked again alone, it passes) is
  // reproduced with them, made together; one that fails alone is reproduced alone.
  if (reason instanceof Divergence && reason.call) {
    const at = batch.indexOf(reason.call);
    const passesAlone =
      at >= 0 &&
      (await looks[failed]!().then(
        () => true,
        () => false,
      ));
    if (passesAlone) reason.together = batch.slice(Math.max(0, at - callsAtOnce + 1), at + callsAtOnce);
  }
  throw reason;
}
