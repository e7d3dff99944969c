/**
 * A crowd: the store as a live service holds it, made at the start of a
 * sequence or on its own. 60 to 90 users (hundreds with --explore-depth), each with
 * several sessions, several accounts (two at one provider now and then)
 * and several pending sign-in links for their address, all made at once as
 * a busy service makes them. Faults that need many records to show (a
 * capped cache, a lookup that reads only the first page, a small hash
 * table, a key that collides once there are enough) show in the sweep of
 * everything that follows, and in every step after it.
 */

import { callsAtOnce } from "../../access/calls.js";
import type { AccountRecord, Model, SessionRecord, TokenRecord, UserRecord } from "../model.js";
import type { Outcome, Probe } from "../probe.js";
import { userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { base64url, emailAddress, expirySeconds, int, oauthToken, providerBase, rng } from "../values.js";
import { expiry, resolve, type Source, saltEmail } from "./sources.js";
import { Step } from "./step.js";
import { checkUse } from "./tokens.js";
import { checkWrittenUser, newUser, recordUser, userInput } from "./users.js";

/** How many users a crowd holds at depth 1; --explore-depth multiplies it. */
export const crowdUsers = { min: 60, max: 90 };

/** Calls made together, as many at a time as the access layer allows (each chunk a step of the trace). */
async function raceInChunks(p: Probe, calls: TraceCall[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let at = 0; at < calls.length; at += callsAtOnce)
    outcomes.push(...(await p.race(calls.slice(at, at + callsAtOnce))));
  return outcomes;
}

export class Crowd extends Step {
  constructor(
    readonly seed: number,
    readonly depth: number,
  ) {
    super();
  }

  async run(m: Model, p: Probe): Promise<void> {
    const s = rng(this.seed + 1);
    const size = int(crowdUsers.min * this.depth, crowdUsers.max * this.depth)(s);
    // Fresh addresses, salted and distinct (under the store's collation too, when it folds them).
    const taken = new Set<string>();
    const inputs = Array.from({ length: size }, () => {
      const base: Source = { mode: "fresh", base: emailAddress(s), of: 0, v: { kind: "case", at: 0 } };
      const email = resolve(
        base,
        [],
        (b) => saltEmail(m, b),
        (e) => taken.has(e) || m.isEmailTaken(e),
        m.keys("email"),
      );
      taken.add(email);
      return { label: m.label("user"), input: userInput(m, newUser(s), email) };
    });
    const creates: TraceCall[] = inputs.map(({ label, input }) => ({
      method: "createUser",
      args: [input],
      assign: label,
    }));
    const created = await raceInChunks(p, creates);
    const users: UserRecord[] = [];
    created.forEach((outcome, i) => {
      const call = creates[i]!;
      const row = p.valueOf(outcome, call, "a first sign-in would error");
      if (row == null)
        p.fail("createUser returned nothing; the service signs in the user it returns", call, "the user", row);
      const { label, input } = inputs[i]!;
      const { email, emailVerified, name, image } = input;
      const { id, clash } = checkWrittenUser(p, m, call, row, { email, emailVerified, name, image });
      if (clash?.live) p.fail(`createUser returned the id of ${clash.label} for a new user`, call, "a new id", id);
      users.push(recordUser(m, p, label, id, input));
    });

    // What each user owns, made together; recorded in the model once the adapter has answered.
    const calls: TraceCall[] = [];
    const records: Array<() => void> = [];
    const providers = [providerBase(s), providerBase(s), providerBase(s)].map((base) => `${base}-${m.salt}`);
    for (const user of users) {
      for (let n = int(0, 3)(s); n > 0 && p.can("createSession"); n--) {
        const session: SessionRecord = {
          label: m.label("session"),
          sessionToken: `${base64url(16, 43)(s)}${m.salt}${calls.length}`,
          user,
          expires: expiry(m, expirySeconds(s)),
          live: true,
        };
        calls.push({
          method: "createSession",
          args: [{ sessionToken: session.sessionToken, userId: userRef(user), expires: session.expires }],
        });
        records.push(() => {
          m.sessions.push(session);
          p.ledger.session(session.sessionToken);
        });
      }
      // Several accounts, sometimes two at one provider (a work and a personal account).
      for (let n = int(0, 3)(s); n > 0 && p.can("linkAccount"); n--) {
        const provider = providers[int(0, providers.length - 1)(s)]!;
        const providerAccountId = `${int(1, 10 ** 9)(s)}${calls.length}`;
        const fields = {
          type: "oauth",
          provider,
          providerAccountId,
          access_token: oauthToken(s),
          id_token: oauthToken(s),
          token_type: "bearer",
        };
        const account: AccountRecord = {
          label: m.label("account"),
          user,
          provider,
          providerAccountId,
          fields,
          live: true,
        };
        calls.push({ method: "linkAccount", args: [{ userId: userRef(user), ...fields }] });
        records.push(() => {
          m.accounts.push(account);
          p.ledger.account({ provider, providerAccountId });
        });
      }
      // Several pending sign-in links for one address: the user asked twice.
      for (let n = int(0, 3)(s); n > 0 && p.can("createVerificationToken"); n--) {
        const token: TokenRecord = {
          label: m.label("token"),
          // A crowd's users always have an email.
          identifier: user.email as string,
          token: `${base64url(32, 64)(s)}${m.salt}${calls.length}`,
          expires: expiry(m, expirySeconds(s)),
          live: true,
        };
        calls.push({
          method: "createVerificationToken",
          args: [{ identifier: token.identifier, token: token.token, expires: token.expires }],
        });
        records.push(() => {
          m.tokens.push(token);
          p.ledger.verificationToken({ identifier: token.identifier, token: token.token });
        });
      }
    }
    const owned = await raceInChunks(p, calls);
    owned.forEach((outcome, i) => {
      records[i]!();
      p.valueOf(outcome, calls[i]!, "a sign-in would error");
    });
    // Some of them click the first of their links, as people do: the other links must stay usable.
    if (p.can("useVerificationToken")) {
      const firsts = users
        .map((user) => m.tokens.find((t) => t.live && t.identifier === user.email))
        .filter((t): t is TokenRecord => t !== undefined && int(0, 1)(s) === 1);
      const uses: TraceCall[] = firsts.map((t) => ({
        method: "useVerificationToken",
        args: [{ identifier: t.identifier, token: t.token }],
      }));
      const used = await raceInChunks(p, uses);
      used.forEach((outcome, i) => {
        const key = { identifier: firsts[i]!.identifier, token: firsts[i]!.token };
        const row = p.valueOf(outcome, uses[i]!, "an email sign-in would error");
        if (checkUse(p, m, uses[i]!, row, key)) firsts[i]!.live = false;
      });
    }
    m.crowd = {
      users: users.length,
      accounts: calls.filter((c) => c.method === "linkAccount").length,
      sessions: calls.filter((c) => c.method === "createSession").length,
      tokens: calls.filter((c) => c.method === "createVerificationToken").length,
    };
  }

  toString(): string {
    return `crowd(${this.seed}, depth ${this.depth})`;
  }
}
