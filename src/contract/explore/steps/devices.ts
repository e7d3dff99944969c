/**
 * Lifecycles of what a person signs in with: a passkey added while signed in,
 * removed with its user and registered again by the person signing up anew;
 * several devices signing in at once and out one by one while others are
 * signed in. Part of the lifecycle steps (lifecycles.ts).
 */
import { adapterAuthenticatorSchema } from "../../../schemas/adapter-models.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { authenticatorFields, fieldProblem, typeProblem } from "../compare.js";
import type { AuthenticatorRecord, Model, SessionRecord } from "../model.js";
import { nth } from "../model.js";
import type { Probe } from "../probe.js";
import { sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { type Gen, int, nat, opaqueToken, record, tuple } from "../values.js";
import { provider } from "./accounts.js";
import { credentialId, type NewAuthenticator, newAuthenticator } from "./authenticators.js";
import { deleteUser, link, signUp } from "./lifecycles.js";
import { checkCreatedSession } from "./sessions.js";
import { expiry, resolve, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";
import { type NewUser, newUser, userEmail } from "./users.js";

/**
 * A signed-in user adds a passkey, as @auth/core registers one: a webauthn account keyed by the credential
 * ID, then the credential. Registrations this way make the passkeys PasskeyAgain starts from.
 */
export class AddPasskey extends Step {
  static readonly needs: AdapterMethod[] = ["linkAccount", "createAuthenticator"];
  constructor(
    readonly pick: number,
    readonly a: NewAuthenticator,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0 && m.liveAuthenticators().length < 8;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.pick)!;
    const credentialID = credentialId(m, this.a.credentialID);
    const fields = { type: "webauthn", provider: passkeyProvider(m, credentialID), providerAccountId: credentialID };
    await link(m, p, user, fields, "a passkey registration would error");
    const auth: AuthenticatorRecord = {
      label: m.label("authenticator"),
      user,
      fields: {
        credentialID,
        credentialPublicKey: this.a.publicKey,
        counter: this.a.counter,
        credentialDeviceType: this.a.deviceType,
        credentialBackedUp: this.a.backedUp,
        providerAccountId: credentialID,
        transports: this.a.transports,
      },
      live: true,
    };
    await createAuthenticator(m, p, auth, "a passkey registration would error");
    await sweep(p, m, [user]);
  }
  toString() {
    return `add a passkey(#${this.pick}, ${brief(this.a)})`;
  }
}

/** The passkey provider's id, at which no live account has this key (the service never links a key twice). */
function passkeyProvider(m: Model, providerAccountId: string): string {
  const base = provider(m, { mode: "fresh", base: "passkey", of: 0, v: { kind: "case", at: 0 } });
  let value = base;
  for (let i = 2; m.account(value, providerAccountId); i++) value = `${base}-${i}`;
  if (!m.providers.includes(value)) m.providers.push(value);
  return value;
}

async function createAuthenticator(m: Model, p: Probe, auth: AuthenticatorRecord, consequence: string) {
  const call: TraceCall = { method: "createAuthenticator", args: [{ ...auth.fields, userId: userRef(auth.user) }] };
  const row = p.valueOf(await p.step(call), call, consequence);
  m.authenticators.push(auth);
  p.ledger.authenticator(auth.fields.credentialID);
  if (row == null)
    p.fail("createAuthenticator returned nothing; it must return the authenticator", call, auth.label, row);
  const problem = typeProblem(adapterAuthenticatorSchema, row) ?? fieldProblem(row, authenticatorFields(auth));
  if (problem) p.fail(`createAuthenticator result: ${problem}`, call, undefined, row);
}

/**
 * A passkey goes with its user (no method removes one alone); the person signs up anew and registers the
 * same credential again. It starts from a passkey the sequence registered, so a shrunk sequence that
 * needs only that registration drops this step.
 */
export class PasskeyAgain extends Step {
  static readonly needs: AdapterMethod[] = ["deleteUser", "createUser", "linkAccount", "createAuthenticator"];
  constructor(
    readonly pick: number,
    readonly u: NewUser,
  ) {
    super();
  }
  /** Passkeys whose account is still their user's: the person comes back with both. */
  private passkeys(m: Model) {
    return m.liveAuthenticators().flatMap((auth) => {
      const account = m
        .accountsOf(auth.user)
        .find((a) => a.providerAccountId === auth.fields.providerAccountId && a.fields.type !== "email");
      return account ? [{ auth, account }] : [];
    });
  }
  override check(m: Model) {
    return this.passkeys(m).length > 0;
  }
  async run(m: Model, p: Probe) {
    const { auth: before, account } = nth(this.passkeys(m), this.pick)!;
    const owner = before.user;
    await deleteUser(m, p, owner);
    const back = (await signUp(m, p, this.u, userEmail(m, this.u.email), "a first sign-in would error")).record();
    await link(m, p, back, account.fields, "a passkey sign-up would error");
    const again: AuthenticatorRecord = {
      label: m.label("authenticator"),
      user: back,
      fields: { ...before.fields },
      live: true,
    };
    await createAuthenticator(
      m,
      p,
      again,
      `for the credential of ${before.label}, removed with its user: a passkey once removed could not be registered again`,
    );
    await sweep(p, m, [owner, back]);
  }
  toString() {
    return `delete a passkey's user and register it again(#${this.pick}, ${brief(this.u)})`;
  }
}

interface Devices {
  pick: number;
  /** Sessions of the one person, each signed in later than the one before. */
  devices: number;
  /** Sessions of other people, signed in at the same time. */
  others: number;
  /** How many of the person's devices sign out, the newest first, then the oldest left. */
  signOuts: number;
  tokens: Source[];
}

const devices: Gen<Devices> = record({
  pick: nat,
  devices: int(2, 4),
  others: int(0, 3),
  signOuts: int(1, 3),
  tokens: tuple(...Array.from({ length: 8 }, () => source(opaqueToken, { fresh: 1, reuse: 0, variant: 0 }))),
});

/** One person signs in on several devices while others sign in, then signs out of them one by one. */
export class ManyDevices extends Step {
  static readonly needs: AdapterMethod[] = ["createSession", "deleteSession"];
  constructor(readonly d: Devices) {
    super();
  }
  /** People signed in somewhere already: the step adds their other devices. */
  private signedIn(m: Model) {
    return [...new Set(m.liveSessions().map((s) => s.user))];
  }
  override check(m: Model) {
    return this.signedIn(m).length > 0 && m.liveSessions().length < 10 + m.crowd.sessions;
  }
  async run(m: Model, p: Probe) {
    const person = nth(this.signedIn(m), this.d.pick)!;
    const others = m.liveUsers().filter((u) => u !== person);
    const owners = [
      ...Array.from({ length: this.d.devices }, () => person),
      ...Array.from({ length: others.length > 0 ? this.d.others : 0 }, (_, i) => nth(others, this.d.pick + i)!),
    ];
    // A later sign-in expires later: the service sets maxAge from the time of sign-in.
    const sessions: SessionRecord[] = [];
    for (const [i, user] of owners.entries()) {
      const token = resolve(
        this.d.tokens[i]!,
        [],
        (base) => `${base}${m.salt}`,
        (t) => m.sessions.some((s) => s.sessionToken === t) || sessions.some((s) => s.sessionToken === t),
        m.keys("sessionToken"),
      );
      const expires = expiry(m, 30 * 24 * 3600 + (i % this.d.devices) * 3600);
      sessions.push({ label: m.label("session"), sessionToken: token, user, expires, live: true });
    }
    const calls: TraceCall[] = sessions.map((s) => ({
      method: "createSession",
      args: [{ sessionToken: s.sessionToken, userId: userRef(s.user), expires: s.expires }],
    }));
    const outcomes = await p.race(calls);
    for (const [i, outcome] of outcomes.entries()) {
      const row = p.valueOf(outcome, calls[i]!, "a sign-in on another device would error");
      m.sessions.push(sessions[i]!);
      p.ledger.session(sessions[i]!.sessionToken);
      checkCreatedSession(p, calls[i]!, row, sessions[i]!);
    }
    const focus = [...new Set(owners)];
    await sweep(p, m, focus);
    const mine = sessions.slice(0, this.d.devices);
    const order = [...mine].reverse();
    for (const session of order.slice(0, Math.min(this.d.signOuts, mine.length - 1))) {
      const call: TraceCall = { method: "deleteSession", args: [session.sessionToken] };
      p.valueOf(await p.step(call), call, "sign-out would error");
      session.live = false;
      await sweep(p, m, focus);
    }
  }
  toString() {
    return `sign in on several devices and out again(${brief(this.d)})`;
  }
}

export const deviceCommands = [
  {
    needs: PasskeyAgain.needs,
    weight: 2,
    arbitrary: command(tuple(nat, newUser), ([n, u]) => new PasskeyAgain(n, u)),
  },
  {
    needs: AddPasskey.needs,
    weight: 2,
    arbitrary: command(tuple(nat, newAuthenticator), ([n, a]) => new AddPasskey(n, a)),
  },
  { needs: ManyDevices.needs, weight: 2, arbitrary: command(devices, (d) => new ManyDevices(d)) },
];
