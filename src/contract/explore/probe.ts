/**
 * The real side of a sequence: calls the adapter with a time limit, records
 * each step for the reproduction, and turns what comes back into either a
 * Divergence (the run fails) or a warning (the service would tolerate it).
 */
// Only ever our own errors here: the port turned what the adapter threw into a description.
import { describeThrown } from "../../lib/errors.js";
import { callWithin, type HungMethods, timedOut } from "../access/calls.js";
import { Ledger, type Leftovers, quietCalls } from "../access/ledger.js";
import type { AdapterPort, CallOptions } from "../access/port.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { describeValue } from "../spec/failure.js";
import type { Model } from "./model.js";
import { resolveArgs, type TraceCall, type TraceStep } from "./trace.js";

/** Where a method that hung in the exploration is said to have hung. */
const explorationName = "the exploration";

/**
 * Answers the service holds and hands on (to callbacks, to the app): each is
 * changed right after it is read, as a caller may, so a store that hands out
 * its own objects shows it on a later read (compare.ts: changedByCaller).
 */
export const handedOn: ReadonlySet<AdapterMethod> = new Set<AdapterMethod>([
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "useVerificationToken",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
]);
const changeAfter: CallOptions = { scribble: ["result"] };

/** A divergence between adapter and model: the sequence fails and is shrunk. */
export class Divergence extends Error {
  /** The lookups made together with `call` (a sweep), `call` among them: a failure may need the overlap. */
  together?: TraceCall[];

  constructor(
    message: string,
    readonly expected?: string,
    readonly received?: string,
    /** The call that showed it, when it is not the step's own (a sweep lookup). */
    public call?: TraceCall,
    /** It shows only because results were changed after they were read: the reproduction must change them too. */
    readonly callerChanges = false,
  ) {
    super(message);
    this.name = "Divergence";
  }
}

export interface ProbeOptions {
  callTimeoutMs: number;
  strict: boolean;
  /** Methods that never settled (in the cases or earlier in this exploration): not called again. */
  hung: HungMethods;
  /** Warnings of the whole exploration (deduplicated by text). */
  warnings: Set<string>;
  /** Methods the sequence may call. */
  usable: Set<AdapterMethod>;
}

export type Outcome = { threw: false; value: any } | { threw: true; error: unknown };

export class Probe {
  readonly trace: TraceStep[] = [];
  /**
   * The steps and, between them, the lookups whose results were changed
   * after they were read: a failure that shows such a change needs those
   * reads in its reproduction too, since one of them made the change.
   */
  readonly traceWithChangedReads: TraceStep[] = [];
  /** Adapter calls made, steps and sweeps alike. */
  calls = 0;
  /** What the run created, removed afterwards whatever the model believes. */
  readonly ledger = new Ledger();

  constructor(
    readonly port: AdapterPort,
    readonly options: ProbeOptions,
  ) {}

  can(method: AdapterMethod): boolean {
    return this.options.usable.has(method);
  }

  /** Starts one call; a throw is an outcome, a call that never settles a divergence. */
  private async invoke(call: TraceCall): Promise<Outcome> {
    const hungIn = this.options.hung.where(call.method);
    if (hungIn) {
      const when = hungIn === explorationName ? `within ${this.options.callTimeoutMs} ms` : `in ${hungIn}`;
      throw new Divergence(`${call.method} never settled ${when}; not called again`, "a result", this.noAnswer(), call);
    }
    this.calls++;
    const settled = await callWithin(
      this.port,
      this.options.hung,
      call.method,
      resolveArgs(call.args),
      this.options.callTimeoutMs,
      explorationName,
      handedOn.has(call.method) ? changeAfter : undefined,
    );
    if (settled === timedOut) {
      throw new Divergence(
        `${call.method} never settled within ${this.options.callTimeoutMs} ms; not called again`,
        "a result",
        this.noAnswer(),
        call,
      );
    }
    if (settled.threw) call.threw = true;
    return settled;
  }

  /** What a call that never settled received, with how long it was given (the printed program waits as long). */
  private noAnswer(): string {
    return `no answer within ${this.options.callTimeoutMs} ms`;
  }

  /** A step of the sequence: recorded for the reproduction. */
  async step(call: TraceCall): Promise<Outcome> {
    this.trace.push({ calls: [call] });
    this.traceWithChangedReads.push({ calls: [call] });
    return this.invoke(call);
  }

  /** Calls started together, as two browser tabs or two devices would. */
  async race(calls: TraceCall[]): Promise<Outcome[]> {
    this.trace.push({ calls });
    this.traceWithChangedReads.push({ calls });
    return Promise.all(calls.map((c) => this.invoke(c)));
  }

  /** Lookups started since `overlapping()` was last called without an argument (a sweep's batch). */
  private batch: TraceCall[] | undefined;

  /** Starts collecting the lookups made together (no argument), or ends it and returns them (the token it gave). */
  overlapping(started?: TraceCall[]): TraceCall[] {
    if (started === undefined) {
      this.batch = [];
      return this.batch;
    }
    this.batch = undefined;
    return started;
  }

  /** A lookup made to compare adapter and model; not part of the sequence unless it shows a divergence. */
  async look(call: TraceCall): Promise<Outcome> {
    this.batch?.push(call);
    if (handedOn.has(call.method)) this.traceWithChangedReads.push({ calls: [call] });
    return this.invoke(call);
  }

  /** The value of a call that must not throw. */
  valueOf(outcome: Outcome, call: TraceCall, consequence: string): any {
    if (!outcome.threw) return outcome.value;
    throw new Divergence(
      `${call.method} threw${consequence ? ` (${consequence})` : ""}`,
      "a result",
      `thrown: ${describeThrown(outcome.error)}`,
      call,
    );
  }

  fail(message: string, call: TraceCall | undefined, expected?: string, received?: unknown): never {
    throw new Divergence(message, expected, received === undefined ? undefined : describeValue(received), call);
  }

  /** A deviation the service tolerates; `--strict` makes it a failure. */
  warn(message: string, call?: TraceCall, expected?: string, received?: unknown): void {
    if (this.options.strict)
      throw new Divergence(
        `${message} (a failure under --strict)`,
        expected,
        received === undefined ? undefined : describeValue(received),
        call,
      );
    this.options.warnings.add(message);
  }

  /**
   * Removes what the sequence created, whatever the model believes (the adapter may have kept what it should
   * have deleted), then counts what is still there. Never throws: a record that will not go is a leftover.
   */
  async clear(model?: Model): Promise<Leftovers> {
    for (const user of model?.users ?? []) if (!user.live) this.ledger.gone("users", String(user.id));
    for (const t of model?.tokens ?? [])
      if (!t.live) this.ledger.gone("verification tokens", `${t.identifier}\u0000${t.token}`);
    const { hung, callTimeoutMs, usable } = this.options;
    const quiet = quietCalls(this.port, hung, callTimeoutMs, "the exploration's cleanup", (m) => usable.has(m));
    return this.ledger.clear(quiet, (m) => usable.has(m));
  }
}
