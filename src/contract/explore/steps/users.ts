import { randomUUID } from "node:crypto";
import type { AdapterMethod } from "../../spec/adapter.js";
import { sameId, typeProblem, userFields, userProblem, userSchemaFor } from "../compare.js";
import { type Model, nth, type UserRecord } from "../model.js";
import type { Probe } from "../probe.js";
import { lookEmail, lookUser, sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import { displayName, type Gen, imageUrl, int, nat, option, partial, record, tuple } from "../values.js";
import { emailBase, expiry, knownEmails, resolve, type Source, saltEmail, source } from "./sources.js";
import { brief, command, Step } from "./step.js";

const verifiedAt = option(int(1, 3 * 365 * 24 * 3600), 2);

/** The email for a new or changed user: never one a live user has (the service looks it up first). */
export function userEmail(m: Model, src: Source): string {
  return resolve(
    src,
    knownEmails(m),
    (base) => saltEmail(m, base),
    (e) => m.isEmailTaken(e),
    m.keys("email"),
  );
}

/** Checks a user the adapter just wrote and returned (createUser, updateUser results are used by the service). */
export function checkWrittenUser(p: Probe, m: Model, call: TraceCall, row: unknown, expected: Record<string, unknown>) {
  const problem = typeProblem(userSchemaFor({ email: (expected.email as string | undefined) ?? null }), row);
  if (problem) p.fail(`${call.method} result has the wrong type: ${problem}`, call, undefined, row);
  const fields = userProblem(row as Record<string, unknown>, expected);
  if (fields) p.fail(`${call.method} result: ${fields} (not what was written)`, call, undefined, row);
  const id = (row as { id: unknown }).id;
  return { id, clash: m.users.find((u) => sameId(u.id, id) && expected.id === undefined) };
}

export interface NewUser {
  email: Source;
  name: string | null;
  image: string | null;
  verifiedSecondsAgo: number | null;
}

export const newUser: Gen<NewUser> = record({
  email: source(emailBase),
  name: displayName,
  image: imageUrl,
  verifiedSecondsAgo: verifiedAt,
});

export function userInput(m: Model, u: NewUser, email: string) {
  return {
    id: randomUUID(),
    email,
    emailVerified: u.verifiedSecondsAgo === null ? null : expiry(m, -u.verifiedSecondsAgo),
    name: u.name,
    image: u.image,
  };
}

export function recordUser(
  m: Model,
  p: Probe,
  label: string,
  id: unknown,
  input: Omit<ReturnType<typeof userInput>, "email"> & { email: string | null },
) {
  const user: UserRecord = {
    label,
    id,
    email: input.email,
    emailVerified: input.emailVerified,
    name: input.name,
    image: input.image,
    live: true,
  };
  m.users.push(user);
  p.ledger.user(id);
  return user;
}

/** A first sign-in: the service creates the user. */
export class CreateUser extends Step {
  static readonly needs: AdapterMethod[] = ["createUser"];
  constructor(readonly u: NewUser) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length < 6 + m.crowd.users;
  }
  async run(m: Model, p: Probe) {
    const input = userInput(m, this.u, userEmail(m, this.u.email));
    const label = m.label("user");
    const call: TraceCall = { method: "createUser", args: [input], assign: label };
    const row = p.valueOf(await p.step(call), call, "a first sign-in would error");
    if (row == null)
      p.fail("createUser returned nothing; the service signs in the user it returns", call, "the user", row);
    const { email, emailVerified, name, image } = input;
    const { id, clash } = checkWrittenUser(p, m, call, row, { email, emailVerified, name, image });
    if (clash?.live) p.fail(`createUser returned the id of ${clash.label} for a new user`, call, "a new id", id);
    const created = recordUser(m, p, label, id, input);
    await sweep(p, m, [created]);
  }
  toString() {
    return `createUser(${brief(this.u)})`;
  }
}

/** getUser of a user the sequence made, live or deleted. */
export class GetUser extends Step {
  static readonly needs: AdapterMethod[] = ["getUser"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.users.length > 0;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.users, this.pick)!;
    p.trace.push({ calls: [{ method: "getUser", args: [userRef(user)] }] });
    await lookUser(p, m, user);
  }
  toString() {
    return `getUser(#${this.pick})`;
  }
}

/** getUserByEmail of a current, former, near-duplicate or fresh email. */
export class GetUserByEmail extends Step {
  static readonly needs: AdapterMethod[] = ["getUserByEmail"];
  constructor(readonly email: Source) {
    super();
  }
  async run(m: Model, p: Probe) {
    const known = knownEmails(m);
    const email = resolve(
      this.email,
      known,
      (base) => saltEmail(m, base),
      () => false,
      m.keys("email"),
    );
    await lookEmail(p, m, email, true);
  }
  toString() {
    return `getUserByEmail(${brief(this.email)})`;
  }
}

export interface UserChange {
  email?: Source;
  name?: string | null;
  image?: string | null;
  verifiedSecondsAgo?: number | null;
}

/** A partial update: the email sign-in sets emailVerified; profile changes set the rest. */
export class UpdateUser extends Step {
  static readonly needs: AdapterMethod[] = ["updateUser"];
  constructor(
    readonly pick: number,
    readonly change: UserChange,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.pick)!;
    const patch: Record<string, unknown> = {};
    if (this.change.email) patch.email = userEmail(m, this.change.email);
    if (this.change.name !== undefined) patch.name = this.change.name;
    if (this.change.image !== undefined) patch.image = this.change.image;
    if (this.change.verifiedSecondsAgo !== undefined)
      patch.emailVerified = this.change.verifiedSecondsAgo === null ? null : expiry(m, -this.change.verifiedSecondsAgo);
    const call: TraceCall = { method: "updateUser", args: [{ id: userRef(user), ...patch }] };
    const row = p.valueOf(await p.step(call), call, "an email sign-in would error");
    const before = user.email;
    Object.assign(user, patch);
    if (before !== null && user.email !== before) m.formerEmails.add(before);
    if (row == null)
      p.fail("updateUser returned nothing; the service signs in the user it returns", call, user.label, row);
    checkWrittenUser(p, m, call, row, userFields(user));
    await sweep(p, m, [user]);
  }
  toString() {
    return `updateUser(#${this.pick}, ${brief(this.change)})`;
  }
}

export const userChange: Gen<UserChange> = partial(
  {
    email: source(emailBase, { fresh: 3, reuse: 0, variant: 2 }),
    name: displayName,
    image: imageUrl,
    verifiedSecondsAgo: verifiedAt,
  },
  true,
);

export class DeleteUser extends Step {
  static readonly needs: AdapterMethod[] = ["deleteUser"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.pick)!;
    const call: TraceCall = { method: "deleteUser", args: [userRef(user)] };
    const row = p.valueOf(await p.step(call), call, "");
    m.deleteUser(user);
    if (row != null) {
      const problem =
        typeProblem(userSchemaFor(user), row) ??
        (sameId((row as { id?: unknown }).id, user.id) ? undefined : "it is not the deleted user");
      if (problem)
        p.warn(
          `deleteUser returned something other than nothing or the deleted user (${problem})`,
          call,
          user.label,
          row,
        );
    }
    await sweep(p, m, [user]);
  }
  toString() {
    return `deleteUser(#${this.pick})`;
  }
}

export const userCommands = [
  { needs: CreateUser.needs, weight: 4, arbitrary: command(newUser, (u) => new CreateUser(u)) },
  { needs: GetUser.needs, weight: 1, arbitrary: command(nat, (n) => new GetUser(n)) },
  {
    needs: GetUserByEmail.needs,
    weight: 1,
    arbitrary: command(source(emailBase, { fresh: 1, reuse: 3, variant: 3 }), (s) => new GetUserByEmail(s)),
  },
  {
    needs: UpdateUser.needs,
    weight: 2,
    arbitrary: command(tuple(nat, userChange), ([n, c]) => new UpdateUser(n, c)),
  },
  { needs: DeleteUser.needs, weight: 1, arbitrary: command(nat, (n) => new DeleteUser(n)) },
];
