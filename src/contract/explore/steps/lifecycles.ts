/**
 * The lives records have in a running service, each one command so that a
 * default run walks every one of them on every seed: a person deletes their
 * account and comes back with the same email and provider account; people
 * whose provider gives no email sign up; an email is changed and a newcomer
 * takes the old one; a provider account moves to another user (and in
 * devices.ts: a passkey removed with its user is registered again; one
 * person's devices sign in and out while others are signed in). Each call
 * must succeed where the service makes it (a unique rule that still counts a
 * removed row fails here), and the sweep compares everything afterwards.
 */
import type { AdapterMethod } from "../../spec/adapter.js";
import { sameId } from "../compare.js";
import type { AccountRecord, Model, UserRecord } from "../model.js";
import { nth } from "../model.js";
import type { Probe } from "../probe.js";
import { sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { nat, tuple } from "../values.js";
import { emailBase, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";
import { checkWrittenUser, type NewUser, newUser, recordUser, userEmail, userInput } from "./users.js";

/** Fewer users than the other commands allow, so a lifecycle always has room. */
const roomForUsers = (m: Model) => m.liveUsers().length < 7 + m.crowd.users;

export async function deleteUser(m: Model, p: Probe, user: UserRecord): Promise<void> {
  const call: TraceCall = { method: "deleteUser", args: [userRef(user)] };
  p.valueOf(await p.step(call), call, "deleting an account would error");
  m.deleteUser(user);
  await sweep(p, m, [user]);
}

/** A sign-up: createUser must store the user; `email` null is a user without one (sent as @auth/core does, absent). */
export async function signUp(m: Model, p: Probe, u: NewUser, email: string | null, consequence: string) {
  const input = { ...userInput(m, u, email ?? ""), email: email ?? undefined };
  const label = m.label("user");
  const call: TraceCall = { method: "createUser", args: [input], assign: label };
  const outcome = await p.step(call);
  return {
    call,
    outcome,
    label,
    input,
    email,
    record: () => created(m, p, call, outcome, label, input, email, consequence),
  };
}

export function created(
  m: Model,
  p: Probe,
  call: TraceCall,
  outcome: Awaited<ReturnType<Probe["step"]>>,
  label: string,
  input: ReturnType<typeof userInput> | Record<string, unknown>,
  email: string | null,
  consequence: string,
): UserRecord {
  const row = p.valueOf(outcome, call, consequence);
  if (row == null)
    p.fail("createUser returned nothing; the service signs in the user it returns", call, "the user", row);
  const { emailVerified, name, image } = input as ReturnType<typeof userInput>;
  const { id, clash } = checkWrittenUser(p, m, call, row, { email, emailVerified, name, image });
  if (clash?.live) p.fail(`createUser returned the id of ${clash.label} for a new user`, call, "a new id", id);
  return recordUser(m, p, label, id, { ...(input as ReturnType<typeof userInput>), email });
}

/** Links exactly these fields to `user`; the service ignores the result (the plain link step warns on it). */
export async function link(m: Model, p: Probe, user: UserRecord, fields: Record<string, unknown>, consequence: string) {
  const call: TraceCall = { method: "linkAccount", args: [{ userId: userRef(user), ...fields }] };
  p.valueOf(await p.step(call), call, consequence);
  const account: AccountRecord = {
    label: m.label("account"),
    user,
    provider: fields.provider as string,
    providerAccountId: fields.providerAccountId as string,
    fields,
    live: true,
  };
  m.accounts.push(account);
  p.ledger.account({ provider: account.provider, providerAccountId: account.providerAccountId });
  return account;
}

/** A person deletes their account, then signs up again with the same email and the same provider account. */
export class ComeBack extends Step {
  static readonly needs: AdapterMethod[] = ["deleteUser", "createUser"];
  constructor(
    readonly pick: number,
    readonly u: NewUser,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0;
  }
  async run(m: Model, p: Probe) {
    // Someone with a provider account when there is one: they come back with it.
    const linked = m.liveUsers().filter((u) => m.accountsOf(u).some((a) => a.fields.type !== "email"));
    const gone = nth(linked.length > 0 ? linked : m.liveUsers(), this.pick)!;
    const accounts = m.accountsOf(gone);
    await deleteUser(m, p, gone);
    // After a tolerated race another user may hold the same email: then a fresh one.
    const email = gone.email === null || !m.isEmailTaken(gone.email) ? gone.email : userEmail(m, this.u.email);
    const back = (
      await signUp(
        m,
        p,
        this.u,
        email,
        "a person who deleted their account could not sign up again with the same email",
      )
    ).record();
    // An email account's providerAccountId is the email: it comes back only with it.
    const again = accounts.find((a) => a.fields.type !== "email" || a.providerAccountId === email);
    if (again && p.can("linkAccount"))
      await link(
        m,
        p,
        back,
        again.fields,
        "a person who deleted their account could not sign in again with the same provider",
      );
    await sweep(p, m, [gone, back]);
  }
  toString() {
    return `delete a user and sign up again(#${this.pick}, ${brief(this.u)})`;
  }
}

/** Two people whose provider gives no email sign up (@auth/core creates them with no email). */
export class UsersWithoutEmail extends Step {
  static readonly needs: AdapterMethod[] = ["createUser"];
  constructor(readonly people: [NewUser, NewUser]) {
    super();
  }
  override check(m: Model) {
    return roomForUsers(m);
  }
  async run(m: Model, p: Probe) {
    const made: UserRecord[] = [];
    for (const u of this.people) {
      const others = m.liveUsers().filter((x) => x.email === null);
      const attempt = await signUp(m, p, u, null, "");
      if (attempt.outcome.threw && others.length === 0) {
        // §2.9 types email as a string: a store may refuse users without one.
        p.warn(
          "createUser threw for a user without an email: the adapter interface types email as a string, but @auth/core creates such users when a provider gives no email, and those people cannot sign up",
          attempt.call,
        );
        return;
      }
      const consequence = `with ${others.map((x) => x.label).join(", ")} already stored without one: only one person whose provider gives no email could sign up`;
      made.push(created(m, p, attempt.call, attempt.outcome, attempt.label, attempt.input, null, consequence));
    }
    const [a, b] = made;
    if (a && b && sameId(a.id, b.id))
      p.fail("createUser returned one id for two users without an email", undefined, "two ids", b.id);
    await sweep(p, m, made);
  }
  toString() {
    return `two users without an email(${brief(this.people.map((u) => u.name))})`;
  }
}

/**
 * An email changes and a newcomer signs up with the old one; when the first person later deletes their
 * account (a step of its own), the newcomer must keep the address.
 */
export class OldEmailTaken extends Step {
  static readonly needs: AdapterMethod[] = ["updateUser", "createUser"];
  constructor(
    readonly pick: number,
    readonly change: Source,
    readonly u: NewUser,
  ) {
    super();
  }
  override check(m: Model) {
    return roomForUsers(m) && m.liveUsers().some((u) => u.email !== null);
  }
  async run(m: Model, p: Probe) {
    const first = nth(
      m.liveUsers().filter((u) => u.email !== null),
      this.pick,
    )!;
    const old = first.email as string;
    const changed = userEmail(m, this.change);
    const call: TraceCall = { method: "updateUser", args: [{ id: userRef(first), email: changed }] };
    const row = p.valueOf(await p.step(call), call, "changing an email would error");
    first.email = changed;
    m.formerEmails.add(old);
    if (row == null)
      p.fail("updateUser returned nothing; the service signs in the user it returns", call, first.label, row);
    checkWrittenUser(p, m, call, row, { id: first.id, email: changed });
    await sweep(p, m, [first]);
    const email = m.isEmailTaken(old) ? userEmail(m, this.u.email) : old;
    const newcomer = (
      await signUp(m, p, this.u, email, "a newcomer could not sign up with an email another user gave up")
    ).record();
    await sweep(p, m, [first, newcomer]);
  }
  toString() {
    return `change an email and sign up with the old one(#${this.pick}, ${brief(this.change)})`;
  }
}

/** A provider account is unlinked from its user and linked to another one. */
export class MoveAccount extends Step {
  static readonly needs: AdapterMethod[] = ["unlinkAccount", "linkAccount"];
  constructor(
    readonly pick: number,
    readonly to: number,
  ) {
    super();
  }
  /** Email accounts carry their user's email as the key: they do not move. */
  private movable(m: Model) {
    return m.liveAccounts().filter((a) => a.fields.type !== "email");
  }
  override check(m: Model) {
    return m.liveUsers().length >= 2 && this.movable(m).length > 0;
  }
  async run(m: Model, p: Probe) {
    const account = nth(this.movable(m), this.pick)!;
    const owner = account.user;
    const target = nth(
      m.liveUsers().filter((u) => u !== owner),
      this.to,
    )!;
    const key = { provider: account.provider, providerAccountId: account.providerAccountId };
    const call: TraceCall = { method: "unlinkAccount", args: [key] };
    p.valueOf(await p.step(call), call, "");
    account.live = false;
    await sweep(p, m, [owner]);
    await link(m, p, target, account.fields, "a provider account once unlinked could not be linked to anyone again");
    await sweep(p, m, [owner, target]);
  }
  toString() {
    return `unlink an account and link it to another user(#${this.pick}, #${this.to})`;
  }
}

const changeEmail = source(emailBase, { fresh: 1, reuse: 0, variant: 0 });

export const lifecycleCommands = [
  {
    needs: ComeBack.needs,
    weight: 2,
    arbitrary: command(tuple(nat, newUser), ([n, u]) => new ComeBack(n, u)),
  },
  {
    needs: UsersWithoutEmail.needs,
    weight: 1,
    arbitrary: command(tuple(newUser, newUser), (people) => new UsersWithoutEmail(people)),
  },
  {
    needs: OldEmailTaken.needs,
    weight: 2,
    arbitrary: command(tuple(nat, changeEmail, newUser), ([n, c, u]) => new OldEmailTaken(n, c, u)),
  },
  { needs: MoveAccount.needs, weight: 2, arbitrary: command(tuple(nat, nat), ([n, to]) => new MoveAccount(n, to)) },
];
