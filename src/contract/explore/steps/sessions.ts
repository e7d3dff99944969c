import { adapterSessionSchema } from "../../../schemas/adapter-models.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { fieldProblem, sameId, typeProblem } from "../compare.js";
import { type Model, nth, type SessionRecord } from "../model.js";
import type { Probe } from "../probe.js";
import { lookSession, sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { type Gen, int, nat, opaqueToken, record, tuple } from "../values.js";
import { expiry, expirySeconds, resolve, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";

/** A fresh session token carries the salt, so concurrent runs never share one. */
export function sessionToken(m: Model, src: Source): string {
  return resolve(
    src,
    m.sessions.map((s) => s.sessionToken),
    (base) => `${base}${m.salt}`,
    (t) => m.sessions.some((s) => s.sessionToken === t),
    m.keys("sessionToken"),
  );
}

export function checkCreatedSession(p: Probe, call: TraceCall, row: unknown, session: SessionRecord): void {
  if (row == null)
    p.fail("createSession returned nothing; the service sets the cookie from it", call, session.label, row);
  const problem =
    typeProblem(adapterSessionSchema, row) ??
    fieldProblem(row as Record<string, unknown>, {
      sessionToken: session.sessionToken,
      userId: session.user.id,
      expires: session.expires,
    });
  if (problem) p.fail(`createSession result: ${problem}`, call, undefined, row);
}

export interface NewSession {
  pick: number;
  token: Source;
  expiresIn: number;
}

export const newSession: Gen<NewSession> = record({
  pick: nat,
  token: source(opaqueToken, { fresh: 6, reuse: 0, variant: 2 }),
  expiresIn: expirySeconds,
});

/** A sign-in with the database strategy. */
export class CreateSession extends Step {
  static readonly needs: AdapterMethod[] = ["createSession"];
  constructor(readonly s: NewSession) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0 && m.liveSessions().length < 10 + m.crowd.sessions;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.s.pick)!;
    const session: SessionRecord = {
      label: m.label("session"),
      sessionToken: sessionToken(m, this.s.token),
      user,
      expires: expiry(m, this.s.expiresIn),
      live: true,
    };
    const call: TraceCall = {
      method: "createSession",
      args: [{ sessionToken: session.sessionToken, userId: userRef(user), expires: session.expires }],
    };
    const row = p.valueOf(await p.step(call), call, "a sign-in would error");
    m.sessions.push(session);
    p.ledger.session(session.sessionToken);
    checkCreatedSession(p, call, row, session);
    await sweep(p, m, [user]);
  }
  toString() {
    return `createSession(${brief(this.s)})`;
  }
}

interface TokenPick {
  pick: number;
  token: Source;
}

const tokenPick: Gen<TokenPick> = record({
  pick: nat,
  token: source(opaqueToken, { fresh: 1, reuse: 5, variant: 2 }),
});

function pickToken(m: Model, t: TokenPick): string {
  return resolve(
    t.token,
    m.sessions.map((s) => s.sessionToken),
    (base) => `${base}${m.salt}`,
    () => false,
    m.keys("sessionToken"),
  );
}

/** Every request of a signed-in user: the session and its user in one call. */
export class GetSessionAndUser extends Step {
  static readonly needs: AdapterMethod[] = ["getSessionAndUser"];
  constructor(readonly t: TokenPick) {
    super();
  }
  async run(m: Model, p: Probe) {
    await lookSession(p, m, pickToken(m, this.t), true);
  }
  toString() {
    return `getSessionAndUser(${brief(this.t)})`;
  }
}

/** §3: a session used before it expires is extended. The service only extends sessions it just read. */
export class UpdateSession extends Step {
  static readonly needs: AdapterMethod[] = ["updateSession"];
  constructor(
    readonly pick: number,
    readonly extendBy: number,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveSessions().some((s) => !m.expired(s));
  }
  async run(m: Model, p: Probe) {
    const session = nth(
      m.liveSessions().filter((s) => !m.expired(s)),
      this.pick,
    )!;
    const expires = expiry(m, this.extendBy);
    const call: TraceCall = { method: "updateSession", args: [{ sessionToken: session.sessionToken, expires }] };
    const row = p.valueOf(await p.step(call), call, "every page of a signed-in user would error");
    session.expires = expires;
    if (row != null) {
      const problem =
        typeProblem(adapterSessionSchema, row) ??
        fieldProblem(row, { sessionToken: session.sessionToken, userId: session.user.id, expires });
      if (problem)
        p.warn(
          `updateSession returned a session that differs from the updated one (${problem.replace(/ is .*/, "")})`,
          call,
          session.label,
          row,
        );
    }
    await sweep(p, m, [session.user]);
  }
  toString() {
    return `updateSession(#${this.pick}, +${this.extendBy}s)`;
  }
}

/**
 * A sign-out, or the service cleaning up an expired session or a stale
 * cookie. It calls deleteSession outside any try, so a throw, even for a
 * token that names no session, breaks the sign-in or sign-out.
 */
export class DeleteSession extends Step {
  static readonly needs: AdapterMethod[] = ["deleteSession"];
  constructor(readonly t: TokenPick) {
    super();
  }
  async run(m: Model, p: Probe) {
    const token = pickToken(m, this.t);
    const session = m.session(token);
    const call: TraceCall = { method: "deleteSession", args: [token] };
    const row = p.valueOf(
      await p.step(call),
      call,
      session ? "sign-out would error" : "a sign-in with a stale session cookie would error",
    );
    if (session) session.live = false;
    checkDeletedSession(p, m, call, row, token, session);
    await sweep(
      p,
      m,
      m.sessions.filter((s) => s.sessionToken === token).map((s) => s.user),
    );
  }
  toString() {
    return `deleteSession(${brief(this.t)})`;
  }
}

export function checkDeletedSession(
  p: Probe,
  m: Model,
  call: TraceCall,
  row: any,
  token: string,
  session: SessionRecord | undefined,
): void {
  if (session) {
    if (row == null) {
      if (!m.expired(session))
        p.warn("deleteSession returned nothing; returning the deleted session is preferred", call, session.label, row);
      return;
    }
    const problem =
      typeProblem(adapterSessionSchema, row) ??
      fieldProblem(row, { sessionToken: token, userId: session.user.id, expires: session.expires });
    if (problem)
      p.warn(
        `deleteSession returned a session that differs from the deleted one (${problem.replace(/ is .*/, "")})`,
        call,
        session.label,
        row,
      );
    return;
  }
  if (row == null) return;
  const gone = m.sessions.find((s) => s.sessionToken === token);
  if (gone && sameId(row.userId, gone.user.id) && row.sessionToken === token)
    p.fail(
      `deleteSession found ${gone.label} again, after ${gone.user.live ? "it was deleted" : `its user ${gone.user.label} was deleted`} (a record found after it was deleted)`,
      call,
      "null or nothing",
      row,
    );
  p.warn("deleteSession returned a session for a token that names no session", call, "null or nothing", row);
}

export const sessionCommands = [
  { needs: CreateSession.needs, weight: 3, arbitrary: command(newSession, (s) => new CreateSession(s)) },
  { needs: GetSessionAndUser.needs, weight: 2, arbitrary: command(tokenPick, (t) => new GetSessionAndUser(t)) },
  {
    needs: UpdateSession.needs,
    weight: 2,
    arbitrary: command(tuple(nat, int(600, 400 * 24 * 3600)), ([n, s]) => new UpdateSession(n, s)),
  },
  { needs: DeleteSession.needs, weight: 2, arbitrary: command(tokenPick, (t) => new DeleteSession(t)) },
];
