/**
 * What a case works with: the adapter (only through its methods), fresh data,
 * checks that throw ContractFailure, and helpers that create records and
 * remember how to remove them afterwards.
 */
// Only ever our own errors here: the port turned what the adapter threw into a description.
import { describeThrown } from "../../lib/errors.js";
import {
  adapterAccountSchema,
  adapterAuthenticatorSchema,
  adapterSessionSchema,
  adapterUserSchema,
  verificationTokenSchema,
} from "../../schemas/adapter-models.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { ContractFailure, describeValue } from "../spec/failure.js";
import type { Scribble } from "./answers.js";
import { type AdapterCalls, AdapterGone, CallTimedOut, inFlight } from "./calls.js";
import { Checks } from "./checks.js";
import { DataFactory } from "./data.js";
import { Ledger } from "./ledger.js";
import type { CallOptions } from "./port.js";
import type { Random } from "./random.js";

type Row = Record<string, any>;

/** Lets real time pass until `at` (ms since the epoch); in a whole run, also until the other work is done. */
export type Later = (at: number) => Promise<void>;

const ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const ordinal = (index: number) => ordinals[index] ?? `number ${index + 1}`;

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const sleepUntil: Later = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

export class CaseContext extends Checks {
  readonly data: DataFactory;
  readonly warnings: string[] = [];
  /** Every record the case writes, removed after it. */
  readonly ledger = new Ledger();

  constructor(
    readonly calls: AdapterCalls,
    random: Random,
    unique: Random,
    private readonly waitUntil: Later = sleepUntil,
  ) {
    super();
    this.data = new DataFactory(random, unique);
  }

  /**
   * A wrong id, named by whose it is: two random ids say nothing, "the user
   * this case created second, where the first was expected" says what the
   * store mixed up. The ids stay in expected and received.
   */
  override sameId(actual: unknown, expected: unknown, what: string): void {
    try {
      super.sameId(actual, expected, what);
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error;
      const users = this.ledger.written("users");
      const wanted = users.indexOf(String(expected));
      if (wanted < 0 || actual == null) throw error;
      const got = users.indexOf(String(actual));
      const came =
        got < 0 ? "the id of no user this case created" : `the id of the user this case created ${ordinal(got)}`;
      throw new ContractFailure(`${what} is ${came}, where the user it created ${ordinal(wanted)} was expected`, {
        expected: error.expected,
        received: error.received,
      });
    }
  }

  has(method: AdapterMethod): boolean {
    return this.calls.has(method);
  }

  /**
   * Resumes once real time has reached `at`; in a verify-adapter run, not
   * before the other cases are done (the exploration runs meanwhile).
   */
  later(at: number): Promise<void> {
    return this.waitUntil(at);
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /**
   * The one way into the adapter: refuses a method that is missing or that
   * hung before, and reports a throw as a value for the caller to judge.
   */
  private async attempt(
    method: AdapterMethod,
    args: unknown[],
    options?: CallOptions,
  ): Promise<{ threw: false; value: any } | { threw: true; error: unknown }> {
    if (!this.has(method)) throw new ContractFailure(`${method} is not implemented`);
    const refusal = this.calls.refusal(method);
    if (refusal) throw new ContractFailure(refusal);
    try {
      return { threw: false, value: await this.calls.invoke(method, args, options) };
    } catch (error) {
      // Not the adapter's answer: the run is stopping, or the call never settled.
      if (error instanceof AdapterGone || error instanceof CallTimedOut) throw error;
      return { threw: true, error };
    }
  }

  /** Calls an adapter method the way the service does; a throw becomes a failure naming the call. */
  async call(method: AdapterMethod, ...args: unknown[]): Promise<any> {
    return this.callWith(undefined, method, args);
  }

  /**
   * Calls a method, then changes what it returned or what it was given
   * (`what`), where the adapter holds them (in its own process), as a caller
   * may: a store that hands out or keeps its own objects shows it on the
   * next read.
   */
  async callChanging(what: readonly Scribble[], method: AdapterMethod, ...args: unknown[]): Promise<any> {
    return this.callWith({ scribble: what }, method, args);
  }

  /**
   * Calls that do not depend on each other, made together (several at a
   * time, as a busy service does): the results in the items' order, and
   * the first failure in that order, whichever settled first, so the
   * verdict does not depend on timing. For reads after the writes they
   * read: writes stay one after another.
   */
  async together<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
    const settled = await inFlight(items, (item) =>
      each(item).then(
        (value) => ({ ok: true as const, value }),
        (reason: unknown) => ({ ok: false as const, reason }),
      ),
    );
    return settled.map((s) => {
      if (!s.ok) throw s.reason;
      return s.value;
    });
  }

  /**
   * The plain half of a results-are-copies case: a record written and read
   * back with no caller changing anything. A difference here is the store's
   * own (a number rounded, a token trimmed, a date shifted), so it is
   * reported as a wrong stored value, naming both calls and both values,
   * and the caller-change half (afterChange) can blame only a caller's change.
   */
  async readsBackAsWritten(calls: { write: string; read: string }, written: Row, reads: () => Promise<void>) {
    try {
      await reads();
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error;
      const sent = error.expected ?? describeValue(written);
      const received = error.received ?? "a different value";
      throw new ContractFailure(
        `${calls.write} was sent ${sent} and ${calls.read} returned ${received}, with no caller changing any result in between (${error.message}): the store keeps a value other than the one written`,
        { expected: sent, received },
      );
    }
  }

  /**
   * Runs the reads that follow a caller's change (callChanging). The case
   * has already read a record back unchanged (readsBackAsWritten), so a
   * failure here means the change reached the store, and says so after
   * what was read.
   */
  async afterChange(change: string, reads: () => Promise<void>): Promise<void> {
    try {
      await reads();
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error;
      const values =
        error.expected === undefined
          ? error.received === undefined
            ? ""
            : ` (read ${error.received})`
          : ` (written ${error.expected}, read ${error.received ?? "nothing"})`;
      throw new ContractFailure(
        `${error.message}${values} after ${lowerFirst(change)}, while a record written and read back without a change came back as written: the change reached the store, so the adapter hands out or keeps its own objects instead of copies`,
        { expected: error.expected, received: error.received },
      );
    }
  }

  private async callWith(options: CallOptions | undefined, method: AdapterMethod, args: unknown[]): Promise<any> {
    const outcome = await this.attempt(method, args, options);
    if (!outcome.threw) return outcome.value;
    throw new ContractFailure(`${method}(${args.map((a) => describeValue(a)).join(", ")}) threw`, {
      expected: "a result",
      received: describeThrown(outcome.error),
    });
  }

  /**
   * Calls a method at a point of a service path where a throw is what a
   * person sees: the failure says where the service calls it and what breaks.
   */
  async callOnPath(method: AdapterMethod, situation: { when: string; consequence: string }, ...args: unknown[]) {
    const outcome = await this.attempt(method, args);
    if (!outcome.threw) return outcome.value;
    throw new ContractFailure(`${method} threw ${situation.when}: ${situation.consequence}`, {
      expected: "no error",
      received: describeThrown(outcome.error),
    });
  }

  /**
   * Calls a method where a throw hurts no sign-in: in a way the service
   * never calls it (to look for records that should be gone, say), or where
   * the service catches the error. A throw is a warning, and `threw` tells
   * the case to draw no conclusion from it.
   */
  async callOffPath(
    method: AdapterMethod,
    situation: { when: string; consequence?: string },
    ...args: unknown[]
  ): Promise<{ threw: true } | { threw: false; value: any }> {
    const outcome = await this.attempt(method, args);
    if (outcome.threw) {
      const consequence = situation.consequence ?? "the service never calls it that way";
      this.warn(`tolerated: ${method} threw (${describeThrown(outcome.error)}) ${situation.when}; ${consequence}.`);
    }
    return outcome;
  }

  /**
   * Checks the result of a method whose return value the service ignores
   * (linkAccount, createVerificationToken, updateSession, deleteSession):
   * a result that breaks §2.9 is a warning, since no sign-in sees it.
   */
  ignoredResult(method: AdapterMethod, check: () => void): void {
    try {
      check();
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error;
      const received = error.received === undefined ? "" : ` (received ${error.received})`;
      this.warn(`tolerated: ${error.message}${received}; the service ignores what ${method} returns.`);
    }
  }

  /** §7.2: some failures must throw rather than return. */
  async callExpectingThrow(method: AdapterMethod, rule: string, ...args: unknown[]): Promise<void> {
    const outcome = await this.attempt(method, args);
    if (outcome.threw) return;
    throw new ContractFailure(`${method} did not throw: ${rule}`, {
      expected: "a thrown error",
      received: describeValue(outcome.value),
    });
  }

  async createUser(overrides: Row = {}): Promise<Row> {
    const input = this.data.user(overrides);
    const user = this.model(adapterUserSchema, await this.call("createUser", input), "createUser result");
    this.ledger.user(user.id);
    this.fields(user, { email: input.email, name: input.name, image: input.image }, "createUser result");
    return user;
  }

  /** Links an account; checks the result when the adapter returns one (§4.2: "nothing, or the account"). */
  async linkAccount(userId: unknown, overrides: Row = {}): Promise<Row> {
    return this.link(this.data.account(userId, overrides));
  }

  /** Links exactly the account given. */
  async link(input: Row): Promise<Row> {
    const userId = input.userId;
    const result = await this.call("linkAccount", input);
    this.ledger.account({ provider: input.provider, providerAccountId: input.providerAccountId });
    if (result != null) {
      this.ignoredResult("linkAccount", () => {
        this.model(adapterAccountSchema, result, "linkAccount result");
        this.fields(
          result,
          { userId, provider: input.provider, providerAccountId: input.providerAccountId },
          "linkAccount result",
        );
      });
    }
    return input;
  }

  async createSession(userId: unknown, overrides: Row = {}): Promise<Row> {
    const input = this.data.session(userId, overrides);
    const session = this.model(adapterSessionSchema, await this.call("createSession", input), "createSession result");
    this.ledger.session(input.sessionToken);
    this.fields(session, input, "createSession result");
    return session;
  }

  async createVerificationToken(overrides: Row = {}): Promise<Row> {
    const input = this.data.verificationToken(overrides);
    const result = await this.call("createVerificationToken", input);
    this.ledger.verificationToken({ identifier: input.identifier, token: input.token });
    if (result != null) {
      this.ignoredResult("createVerificationToken", () => {
        this.model(verificationTokenSchema, result, "createVerificationToken result");
        this.fields(result, input, "createVerificationToken result");
      });
    }
    return input;
  }

  /** Authenticators have no delete method; deleting their user removes them. */
  async createAuthenticator(userId: unknown, providerAccountId: string, overrides: Row = {}): Promise<Row> {
    const input = this.data.authenticator(userId, providerAccountId, overrides);
    this.ledger.authenticator(input.credentialID);
    const created = this.model(
      adapterAuthenticatorSchema,
      await this.call("createAuthenticator", input),
      "createAuthenticator result",
    );
    this.fields(created, input, "createAuthenticator result");
    return created;
  }

  /** A user with a linked account, as WebAuthn needs (§2.9 authenticator.providerAccountId). */
  async createUserWithAccount(accountOverrides: Row = {}): Promise<{ user: Row; account: Row }> {
    const user = await this.createUser();
    const account = await this.linkAccount(user.id, accountOverrides);
    return { user, account };
  }
}
