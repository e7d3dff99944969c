/**
 * Every call the suite makes into the adapter goes through here, so that a
 * method that never settles is found once, named in the report, and not
 * called again: one hang costs one timeout, not one per case.
 */
import { type AdapterMethod, type AnyAdapter, hasMethod } from "./adapter.js";

export interface CallInFlight {
  method: AdapterMethod;
  caseId: string;
}

/**
 * Calls started and not yet settled, across the whole process. The worker
 * reads it when the process ends unexpectedly, to name the call that ended it.
 */
export const callsInFlight = new Set<CallInFlight>();

/** Methods that did not settle within a case's time limit, and where. */
export class HungMethods {
  private readonly hung = new Map<AdapterMethod, string>();

  mark(methods: Iterable<AdapterMethod>, caseId: string): void {
    for (const method of methods) if (!this.hung.has(method)) this.hung.set(method, caseId);
  }

  /** The case in which `method` hung, if it did. */
  where(method: AdapterMethod): string | undefined {
    return this.hung.get(method);
  }

  entries(): Array<{ method: AdapterMethod; caseId: string }> {
    return [...this.hung].map(([method, caseId]) => ({ method, caseId }));
  }
}

/** One case's (or one exploration's) view of the adapter. */
export class AdapterCalls {
  private readonly pending = new Set<CallInFlight>();

  constructor(
    readonly adapter: AnyAdapter,
    readonly hung: HungMethods,
    readonly caseId: string,
  ) {}

  has(method: AdapterMethod): boolean {
    return hasMethod(this.adapter, method);
  }

  /** Why `method` must not be called again, when it hung before. */
  refusal(method: AdapterMethod): string | undefined {
    const where = this.hung.where(method);
    return where === undefined ? undefined : `${method} never settled in ${where}; not called again`;
  }

  /** Calls the method as it is; whatever it throws is thrown. */
  async invoke(method: AdapterMethod, args: unknown[]): Promise<unknown> {
    const call: CallInFlight = { method, caseId: this.caseId };
    this.pending.add(call);
    callsInFlight.add(call);
    try {
      return await this.adapter[method]!.apply(this.adapter, args);
    } finally {
      this.pending.delete(call);
      callsInFlight.delete(call);
    }
  }

  /** After a time limit: every method still pending is marked as hung. */
  markPendingAsHung(): AdapterMethod[] {
    const methods = [...new Set([...this.pending].map((c) => c.method))];
    this.hung.mark(methods, this.caseId);
    for (const call of this.pending) callsInFlight.delete(call);
    this.pending.clear();
    return methods;
  }
}
