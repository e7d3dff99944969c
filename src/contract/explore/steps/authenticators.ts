import { adapterAuthenticatorSchema } from "../../../schemas/adapter-models.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { authenticatorFields, expectAuthenticator, fieldProblem, typeProblem } from "../compare.js";
import { type AuthenticatorRecord, type Model, nth } from "../model.js";
import type { Probe } from "../probe.js";
import { lookAuthenticatorList, lookCredential, sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import {
  boolean,
  constant,
  constantFrom,
  counter,
  credentialIdBase,
  type Gen,
  nat,
  oneof,
  publicKey,
  record,
  tuple,
} from "../values.js";
import { resolve, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";

export interface NewAuthenticator {
  pick: number;
  credentialID: Source;
  /** Register a credential ID that a live authenticator already has: §7.2, it must throw. */
  duplicate: boolean;
  /** Which one, most often another user's: uniqueness holds across owners, not only within one. */
  duplicatePick: number;
  publicKey: string;
  counter: number;
  deviceType: string;
  backedUp: boolean;
  transports: string | null;
}

export const newAuthenticator: Gen<NewAuthenticator> = record({
  pick: nat,
  credentialID: source(credentialIdBase, { fresh: 5, reuse: 0, variant: 2 }),
  duplicate: oneof([3, constant(false)], [1, constant(true)]),
  duplicatePick: nat,
  publicKey,
  counter,
  deviceType: constantFrom("singleDevice", "multiDevice"),
  backedUp: boolean,
  transports: constantFrom(null, "internal", "internal,hybrid", "usb,nfc,ble"),
});

/** A fresh credential ID: the salt's bytes, then the generated ones, in standard base64 as @auth/core stores it. */
const saltedCredential = (m: Model) => (base: string) =>
  Buffer.concat([Buffer.from(m.salt), Buffer.from(base, "base64")]).toString("base64");

export function credentialId(m: Model, src: Source): string {
  return resolve(
    src,
    m.authenticators.map((a) => a.fields.credentialID),
    saltedCredential(m),
    (id) => m.authenticator(id) !== undefined,
    m.keys("credentialID"),
  );
}

/** A passkey registration: the user and its webauthn account exist, then the credential is stored. */
export class CreateAuthenticator extends Step {
  static readonly needs: AdapterMethod[] = ["createAuthenticator"];
  constructor(readonly a: NewAuthenticator) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().some((u) => m.accountsOf(u).length > 0) && m.liveAuthenticators().length < 8;
  }
  async run(m: Model, p: Probe) {
    const owners = m.liveUsers().filter((u) => m.accountsOf(u).length > 0);
    const user = nth(owners, this.a.pick)!;
    const accounts = m.accountsOf(user);
    const account = accounts.find((a) => a.fields.type === "webauthn") ?? nth(accounts, this.a.pick)!;
    const existing = m.liveAuthenticators();
    const others = existing.filter((a) => a.user !== user);
    const duplicateOf = this.a.duplicate
      ? nth(others.length > 0 && this.a.duplicatePick % 4 !== 0 ? others : existing, this.a.duplicatePick)
      : undefined;
    const fields = {
      credentialID: duplicateOf ? duplicateOf.fields.credentialID : credentialId(m, this.a.credentialID),
      credentialPublicKey: this.a.publicKey,
      counter: this.a.counter,
      credentialDeviceType: this.a.deviceType,
      credentialBackedUp: this.a.backedUp,
      providerAccountId: account.providerAccountId,
      transports: this.a.transports,
    };
    const call: TraceCall = { method: "createAuthenticator", args: [{ ...fields, userId: userRef(user) }] };
    const outcome = await p.step(call);
    if (duplicateOf) {
      if (!outcome.threw)
        p.fail(
          `createAuthenticator accepted the credential ID of ${duplicateOf.label} again; it must throw when it cannot store a credential`,
          call,
          "a thrown error",
          outcome.value,
        );
      await sweep(p, m, [duplicateOf.user, user]);
      return;
    }
    const row = p.valueOf(outcome, call, "a passkey registration would error");
    const auth: AuthenticatorRecord = { label: m.label("authenticator"), user, fields, live: true };
    m.authenticators.push(auth);
    p.ledger.authenticator(fields.credentialID);
    if (row == null)
      p.fail("createAuthenticator returned nothing; it must return the authenticator", call, auth.label, row);
    const problem = typeProblem(adapterAuthenticatorSchema, row) ?? fieldProblem(row, authenticatorFields(auth));
    if (problem) p.fail(`createAuthenticator result: ${problem}`, call, undefined, row);
    await sweep(p, m, [user]);
  }
  toString() {
    return `createAuthenticator(${brief(this.a)})`;
  }
}

interface CredentialPick {
  pick: number;
  id: Source;
}

const credentialPick: Gen<CredentialPick> = record({
  pick: nat,
  id: source(credentialIdBase, { fresh: 1, reuse: 5, variant: 2 }),
});

const pickCredential = (m: Model, c: CredentialPick) =>
  resolve(
    c.id,
    m.authenticators.map((a) => a.fields.credentialID),
    saltedCredential(m),
    () => false,
    m.keys("credentialID"),
  );

/** A passkey sign-in looks the credential up. */
export class GetAuthenticator extends Step {
  static readonly needs: AdapterMethod[] = ["getAuthenticator"];
  constructor(readonly c: CredentialPick) {
    super();
  }
  async run(m: Model, p: Probe) {
    await lookCredential(p, m, pickCredential(m, this.c), true);
  }
  toString() {
    return `getAuthenticator(${brief(this.c)})`;
  }
}

export class ListAuthenticators extends Step {
  static readonly needs: AdapterMethod[] = ["listAuthenticatorsByUserId"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.users.length > 0;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.users, this.pick)!;
    p.trace.push({ calls: [{ method: "listAuthenticatorsByUserId", args: [userRef(user)] }] });
    await lookAuthenticatorList(p, m, user.id, user);
  }
  toString() {
    return `listAuthenticatorsByUserId(#${this.pick})`;
  }
}

/** After a passkey sign-in the service stores the new signature counter; §7.2: throws for an unknown credential. */
export class UpdateCounter extends Step {
  static readonly needs: AdapterMethod[] = ["updateAuthenticatorCounter"];
  constructor(
    readonly c: CredentialPick,
    readonly counter: number,
  ) {
    super();
  }
  async run(m: Model, p: Probe) {
    const credentialID = pickCredential(m, this.c);
    const auth = m.authenticator(credentialID);
    const call: TraceCall = { method: "updateAuthenticatorCounter", args: [credentialID, this.counter] };
    const outcome = await p.step(call);
    if (!auth) {
      if (!outcome.threw)
        p.fail(
          "updateAuthenticatorCounter did not throw for a credential ID no authenticator has; it must throw on failure",
          call,
          "a thrown error",
          outcome.value,
        );
      await sweep(p, m, []);
      return;
    }
    const row = p.valueOf(outcome, call, "a passkey sign-in would error");
    auth.fields.counter = this.counter;
    auth.counterChoices = undefined;
    expectAuthenticator(p, call, row, auth);
    await sweep(p, m, [auth.user]);
  }
  toString() {
    return `updateAuthenticatorCounter(${brief(this.c)}, ${this.counter})`;
  }
}

export const authenticatorCommands = [
  {
    needs: CreateAuthenticator.needs,
    weight: 3,
    arbitrary: command(newAuthenticator, (a) => new CreateAuthenticator(a)),
  },
  { needs: GetAuthenticator.needs, weight: 2, arbitrary: command(credentialPick, (c) => new GetAuthenticator(c)) },
  { needs: ListAuthenticators.needs, weight: 1, arbitrary: command(nat, (n) => new ListAuthenticators(n)) },
  {
    needs: UpdateCounter.needs,
    weight: 2,
    arbitrary: command(tuple(credentialPick, counter), ([c, n]) => new UpdateCounter(c, n)),
  },
];
