/**
 * Calls a service makes at the same time, and the outcomes the model allows
 * for each: a link clicked in two tabs signs in exactly once; a new user
 * signing in from two tabs ends with one user or two, never with an error in
 * both; two sign-outs of one session both succeed; two devices signing in
 * get two sessions; two counter updates leave one of the two counters.
 */
import { describeThrown } from "../../../lib/errors.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { sameId } from "../compare.js";
import { type Model, nth, type SessionRecord, type UserRecord } from "../model.js";
import type { Outcome, Probe } from "../probe.js";
import { sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { counter, int, nat, opaqueToken, tuple } from "../values.js";
import { checkCreatedSession, checkDeletedSession, sessionToken } from "./sessions.js";
import { expiry, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";
import { checkUse } from "./tokens.js";
import { checkWrittenUser, type NewUser, newUser, recordUser, userEmail, userInput } from "./users.js";

const thrown = (o: Outcome) => (o.threw ? `thrown: ${describeThrown(o.error)}` : "");

/** Two tabs open the same sign-in link at once. */
export class UseLinkTwice extends Step {
  static readonly needs: AdapterMethod[] = ["useVerificationToken"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.liveTokens().length > 0;
  }
  async run(m: Model, p: Probe) {
    const record = nth(m.liveTokens(), this.pick)!;
    const key = { identifier: record.identifier, token: record.token };
    const calls: TraceCall[] = [0, 1].map(() => ({ method: "useVerificationToken", args: [key] }));
    const outcomes = await p.race(calls);
    const values = outcomes.filter((o) => !o.threw).map((o) => (o as { value: unknown }).value);
    const winners = values.filter((v) => v != null);
    if (winners.length === 2)
      p.fail(
        `useVerificationToken returned ${record.label} to both of two simultaneous uses (one sign-in link signed in twice)`,
        calls[1],
        "the token once, null once",
        winners[1],
      );
    if (winners.length === 1) {
      const call = calls[outcomes.findIndex((o) => !o.threw && o.value != null)]!;
      checkUse(p, m, call, winners[0], key);
      record.live = false;
      const loser = outcomes.find((o) => o.threw);
      if (loser)
        p.warn(
          "useVerificationToken threw for the second of two simultaneous uses of one link (that tab shows an error instead of an expired link)",
          calls[1],
          "null",
          thrown(loser),
        );
      return;
    }
    if (m.expired(record)) return;
    const error = outcomes.find((o) => o.threw);
    p.fail(
      `neither of two simultaneous uses of ${record.label} got the token (a valid sign-in link would be refused)`,
      calls[0],
      "the token once",
      error ? thrown(error) : null,
    );
  }
  toString() {
    return `useVerificationToken twice at once(#${this.pick})`;
  }
}

/** A new user signs in from two tabs at once: two createUser calls with the same email. */
export class CreateUserTwice extends Step {
  static readonly needs: AdapterMethod[] = ["createUser"];
  constructor(readonly u: NewUser) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length < 5 + m.crowd.users;
  }
  async run(m: Model, p: Probe) {
    const email = userEmail(m, this.u.email);
    const inputs = [userInput(m, this.u, email), userInput(m, this.u, email)];
    const labels = [m.label("user"), m.label("user")];
    const calls: TraceCall[] = inputs.map((input, i) => ({ method: "createUser", args: [input], assign: labels[i] }));
    const outcomes = await p.race(calls);
    const made: unknown[] = [];
    const focus: UserRecord[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.threw) continue;
      const { email: e, emailVerified, name, image } = inputs[i]!;
      const { id } = checkWrittenUser(p, m, calls[i]!, outcome.value, { email: e, emailVerified, name, image });
      if (made.some((other) => sameId(other, id)))
        p.fail("two simultaneous createUser calls returned the same id", calls[i], "two ids", id);
      made.push(id);
      focus.push(recordUser(m, p, labels[i]!, id, inputs[i]!));
    }
    if (made.length === 0)
      p.fail(
        "both of two simultaneous createUser calls for one new user threw (the sign-in fails in both tabs)",
        calls[0],
        "one user created",
        thrown(outcomes[0]!),
      );
    await sweep(p, m, focus);
  }
  toString() {
    return `createUser twice at once(${brief(this.u)})`;
  }
}

/** Sign-out in two tabs at once. */
export class SignOutTwice extends Step {
  static readonly needs: AdapterMethod[] = ["deleteSession"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.liveSessions().length > 0;
  }
  async run(m: Model, p: Probe) {
    const session = nth(m.liveSessions(), this.pick)!;
    const calls: TraceCall[] = [0, 1].map(() => ({ method: "deleteSession", args: [session.sessionToken] }));
    const outcomes = await p.race(calls);
    for (const [i, o] of outcomes.entries()) p.valueOf(o, calls[i]!, "sign-out would error in one tab");
    session.live = false;
    await sweep(p, m, [session.user]);
  }
  toString() {
    return `deleteSession twice at once(#${this.pick})`;
  }
}

/** One user signs in on two devices at once. */
export class TwoDevices extends Step {
  static readonly needs: AdapterMethod[] = ["createSession"];
  constructor(
    readonly pick: number,
    readonly tokens: [Source, Source],
    readonly expiresIn: number,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0 && m.liveSessions().length < 9 + m.crowd.sessions;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.pick)!;
    const sessions: SessionRecord[] = [];
    for (const src of this.tokens) {
      const s: SessionRecord = {
        label: m.label("session"),
        sessionToken: sessionToken(m, src),
        user,
        expires: expiry(m, this.expiresIn),
        live: true,
      };
      m.sessions.push(s); // reserve the token before choosing the second
      sessions.push(s);
      p.ledger.session(s.sessionToken);
    }
    const calls: TraceCall[] = sessions.map((s) => ({
      method: "createSession",
      args: [{ sessionToken: s.sessionToken, userId: userRef(user), expires: s.expires }],
    }));
    const outcomes = await p.race(calls);
    for (const [i, o] of outcomes.entries())
      checkCreatedSession(p, calls[i]!, p.valueOf(o, calls[i]!, "a sign-in on one device would error"), sessions[i]!);
    await sweep(p, m, [user]);
  }
  toString() {
    return `createSession twice at once(#${this.pick})`;
  }
}

/** Two passkey sign-ins with one credential at once. */
export class CounterRace extends Step {
  static readonly needs: AdapterMethod[] = ["updateAuthenticatorCounter"];
  constructor(
    readonly pick: number,
    readonly counters: [number, number],
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveAuthenticators().length > 0;
  }
  async run(m: Model, p: Probe) {
    const auth = nth(m.liveAuthenticators(), this.pick)!;
    const calls: TraceCall[] = this.counters.map((n) => ({
      method: "updateAuthenticatorCounter",
      args: [auth.fields.credentialID, n],
    }));
    const outcomes = await p.race(calls);
    for (const [i, o] of outcomes.entries()) p.valueOf(o, calls[i]!, "a passkey sign-in would error");
    auth.counterChoices = [...this.counters];
    await sweep(p, m, [auth.user]);
  }
  toString() {
    return `updateAuthenticatorCounter twice at once(#${this.pick}, ${this.counters.join(", ")})`;
  }
}

export const raceCommands = [
  { needs: UseLinkTwice.needs, weight: 1, arbitrary: command(nat, (n) => new UseLinkTwice(n)) },
  { needs: CreateUserTwice.needs, weight: 1, arbitrary: command(newUser, (u) => new CreateUserTwice(u)) },
  { needs: SignOutTwice.needs, weight: 1, arbitrary: command(nat, (n) => new SignOutTwice(n)) },
  {
    needs: TwoDevices.needs,
    weight: 1,
    arbitrary: command(
      tuple(nat, source(opaqueToken), source(opaqueToken), int(600, 400 * 24 * 3600)),
      ([n, a, b, s]) => new TwoDevices(n, [a, b], s),
    ),
  },
  {
    needs: CounterRace.needs,
    weight: 1,
    arbitrary: command(tuple(nat, counter, counter), ([n, a, b]) => new CounterRace(n, [a, b])),
  },
];

export { checkDeletedSession };
