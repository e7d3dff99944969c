/**
 * Cases where real time passes (§3). Every other record a run writes
 * expires ten minutes ahead or later and the run ends in a second, so a
 * store that drops records before their `expires` would never show: a
 * store-side expiry (a TTL) in the wrong unit, or one not moved when the
 * service extends a session. These write records with lifetimes of a second
 * or less and of ten minutes, extend some, and read them back about a second
 * after the write, once the first lifetimes have passed however a store
 * rounds them, and well before the last. They start before the
 * other cases and finish after them (`waits`), the exploration running
 * beside them, so the time they need passes while the rest of the run works.
 */
import { sessionAndUserSchema, verificationTokenSchema } from "../../schemas/adapter-models.js";
import type { CaseContext } from "../access/context.js";
import { defineCases } from "../spec/case.js";
import { ContractFailure, describeValue } from "../spec/failure.js";

/**
 * The first lifetime of a session whose expiry is relative to its write: a
 * whole second, so a store-side lifetime of the remaining seconds, rounded
 * either way, is at most a second too (rounded down it is none, which Redis
 * refuses at once) and has run out a second after the write returned.
 */
const firstLifetimeMs = 1000;
/**
 * A second session's first expiry is the first whole second at least this
 * long after the write, by try: a store that keeps expiries as whole seconds
 * (an EXPIREAT rounded up, a DATETIME rounded to the nearest second) drops it
 * at that very second, not up to a second later. Short, so the read need not
 * wait past the other session's second; a try that did not land in time, or
 * that a store refused (one that rounds the remaining seconds to the nearest
 * has none left to give under half a second), is made again further ahead.
 */
const alignedLeadMs = [300, 700, 1100];
/** How long before a first expiry its extension must have returned (a store's clock may run a little ahead of ours). */
const landedBeforeMs = 100;
/** How long after the last first expiry the read comes: a store drops a record once its expiry has passed. */
const settleMs = 5;
/** The lifetime a record must outlive the read by: long next to the run, short enough that a TTL 1000 times too short is gone. */
const longLifetimeMs = 10 * 60 * 1000;
/** How long a record's lifetime must still run at the read for the read to prove anything. */
const marginMs = 60_000;

/**
 * The other explanation of a record gone early: these cases read while the
 * other cases and the exploration run, so a call of theirs that removes more
 * than its own records (a delete whose filter is ignored) takes these too.
 */
const removedMeanwhile =
  "a call made meanwhile (by another case or the exploration) removed records other than its own, such as a delete that ignores part of its filter";

/** How long ago the record was written, in the message's words. */
const afterWrite = (written: number) => `${((Date.now() - written) / 1000).toFixed(1)} s after`;

const wholeSecondsFrom = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000);

/**
 * Waits until real time has reached `at` (the timer is checked against the
 * clock: a process descheduled or a timer that fires early waits on); false
 * when the run went on so long the long lifetime is nearly over.
 */
async function readTime(t: CaseContext, at: number, expires: Date): Promise<boolean> {
  do await t.later(at);
  while (Date.now() < at);
  if (Date.now() < expires.getTime() - marginMs) return true;
  t.notes.add(
    "the run took so long that the records written to outlive it (ten minutes) were near their expiry: the checks that records live until their expiry could not be made",
  );
  return false;
}

/** A session written with a first expiry and extended at once; `returned` is when createSession answered. */
async function extendedSession(t: CaseContext, userId: string, first: Date, extended: Date) {
  const input = t.data.session(userId, { expires: first });
  await t.call("createSession", input);
  const returned = Date.now();
  t.ledger.session(input.sessionToken);
  await t.call("updateSession", { sessionToken: input.sessionToken, expires: extended });
  return { input, returned };
}

export const lifetimeCases = defineCases([
  {
    id: "session.lifetime.extension-outlives-first-expiry",
    title: "a session extended before its first expiry is still there once that expiry has passed (real time passes)",
    section: "§3, §4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "updateSession", "getSessionAndUser"],
    waits: true,
    async run(t) {
      const user = await t.createUser();
      // The extensions must land before the first expiries; a store that slow is given three tries.
      for (const [attempt, lead] of alignedLeadMs.entries()) {
        const written = Date.now();
        const extended = wholeSecondsFrom(written + longLifetimeMs);
        // One first expiry on a whole second (store-side expiries kept as whole seconds), one a whole
        // second after its write (store-side lifetimes counted from the write): each fault drops one.
        const alignedExpiry = wholeSecondsFrom(written + lead);
        let aligned: Awaited<ReturnType<typeof extendedSession>>;
        try {
          aligned = await extendedSession(t, user.id, alignedExpiry, extended);
        } catch (error) {
          if (error instanceof ContractFailure && attempt < alignedLeadMs.length - 1) continue;
          throw error;
        }
        const relativeExpiry = new Date(Date.now() + firstLifetimeMs);
        const relative = await extendedSession(t, user.id, relativeExpiry, extended);
        const firstExpiry = Math.min(relativeExpiry.getTime(), alignedExpiry.getTime());
        if (Date.now() > firstExpiry - landedBeforeMs) continue;
        const readAt = Math.max(relative.returned + firstLifetimeMs, alignedExpiry.getTime()) + settleMs;
        if (!(await readTime(t, readAt, extended))) return;
        // Another user, written just before the read: a store that answers with the wrong user (the
        // latest, say) shows it here with a user of this case's own, the same alone as in a whole run,
        // where other cases' users are written while this one waits.
        await t.createUser();
        for (const { input } of [aligned, relative]) {
          const found = await t.call("getSessionAndUser", input.sessionToken);
          if (found == null)
            throw new ContractFailure(
              `getSessionAndUser(${describeValue(input.sessionToken)}) returned null ${afterWrite(written)} createSession was sent expires ${describeValue(input.expires)} and updateSession expires ${describeValue(extended)}, so the user is signed out although the service extended the session; possible cause: the store kept the first expiry, or ${removedMeanwhile}`,
              { expected: `the session, expiring ${extended.toISOString()}`, received: "null" },
            );
          const read = t.model(sessionAndUserSchema, found, "getSessionAndUser result");
          t.sameDate(read.session.expires, extended, "expires of the extended session");
          t.sameId(read.user.id, user.id, "the extended session's user");
        }
        return;
      }
      t.notes.add(
        "writing and extending two sessions took the store until their first expiry was near, three times: the check that an extension outlives the first expiry could not be made",
      );
    },
  },
  {
    id: "session.lifetime.kept-until-expiry",
    title: "a session is still there after real time has passed, long before it expires",
    section: "§3, §4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "getSessionAndUser"],
    waits: true,
    async run(t) {
      const user = await t.createUser();
      const written = Date.now();
      const session = await t.createSession(user.id, { expires: wholeSecondsFrom(written + longLifetimeMs) });
      if (!(await readTime(t, written + firstLifetimeMs, session.expires))) return;
      const found = await t.call("getSessionAndUser", session.sessionToken);
      if (found == null)
        throw new ContractFailure(
          `getSessionAndUser(${describeValue(session.sessionToken)}) returned null ${afterWrite(written)} createSession was sent expires ${describeValue(session.expires)}, minutes ahead, so the user is signed out; possible cause: a store-side lifetime in the wrong unit, or ${removedMeanwhile}`,
          { expected: `the session, expiring ${session.expires.toISOString()}`, received: "null" },
        );
      const read = t.model(sessionAndUserSchema, found, "getSessionAndUser result");
      t.sameDate(read.session.expires, session.expires, "expires of the session");
    },
  },
  {
    id: "verification-token.lifetime.kept-until-expiry",
    title: "a sign-in link still works after real time has passed, long before it expires",
    section: "§3, §4.2",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    waits: true,
    async run(t) {
      const written = Date.now();
      const token = await t.createVerificationToken({ expires: wholeSecondsFrom(written + longLifetimeMs) });
      if (!(await readTime(t, written + firstLifetimeMs, token.expires))) return;
      const used = await t.call("useVerificationToken", { identifier: token.identifier, token: token.token });
      if (used == null)
        throw new ContractFailure(
          `useVerificationToken(${describeValue({ identifier: token.identifier, token: token.token })}) returned null ${afterWrite(written)} createVerificationToken was sent expires ${describeValue(token.expires)}, minutes ahead, so a valid link is refused; possible cause: a store-side lifetime in the wrong unit, or ${removedMeanwhile}`,
          { expected: `the token, expiring ${token.expires.toISOString()}`, received: "null" },
        );
      t.fields(
        t.model(verificationTokenSchema, used, "useVerificationToken result"),
        token,
        "useVerificationToken result",
      );
    },
  },
]);
