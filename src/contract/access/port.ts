/**
 * The adapter as the run reaches it: a set of methods and one `call`. Each
 * call answers with a copy of what the service would read (answers.ts) or
 * fails with a description of what the adapter threw, found without running
 * the thrown value's code; nothing the adapter returns or throws ever
 * reaches the run itself. The same holds whether the adapter lives in this
 * process (create-auth/vitest, the library API) or in the verify worker
 * (isolation/supervisor.ts), so both reach the same verdict.
 */
import { DescribedThrow } from "../../lib/errors.js";
import { type AdapterMethod, type AnyAdapter, presentMethods } from "../spec/adapter.js";
import { describeThrownValue } from "../spec/thrown.js";
import { answerCopy, type Scribble, scribbleAfter, type UnreadableResult } from "./answers.js";

export interface CallOptions {
  /** After the answer is copied, change these of the adapter's own objects, as a caller may (the aliasing checks). */
  scribble?: readonly Scribble[];
}

const isPort = Symbol("adapter port");

export interface AdapterPort {
  readonly [isPort]: true;
  /** The methods the adapter has (§4.2: all optional). */
  readonly methods: ReadonlySet<AdapterMethod>;
  /** The answer's copy; rejects with a DescribedThrow for a throw, AdapterGone when it can answer no more. */
  call(method: AdapterMethod, args: unknown[], options?: CallOptions): Promise<unknown>;
}

/** A throw, as it is described to the suite: never the adapter's own value. */
export function adapterThrow(thrown: unknown): DescribedThrow {
  return new DescribedThrow(describeThrownValue(thrown));
}

/** An adapter object in this process. Arguments go to it as copies, as they would across a process boundary. */
class LocalPort implements AdapterPort {
  readonly [isPort] = true as const;
  readonly methods: ReadonlySet<AdapterMethod>;

  constructor(private readonly adapter: AnyAdapter) {
    this.methods = new Set(presentMethods(adapter));
  }

  async call(method: AdapterMethod, args: unknown[], options?: CallOptions): Promise<unknown> {
    const given = structuredClone(args);
    let result: unknown;
    try {
      result = await this.adapter[method]!.apply(this.adapter, given);
    } catch (error) {
      throw adapterThrow(error);
    }
    let copy: unknown;
    try {
      copy = answerCopy(method, result);
    } catch (error) {
      // answerCopy throws only its own UnreadableResult.
      throw new DescribedThrow((error as UnreadableResult).description);
    }
    scribbleAfter(options?.scribble, result, given);
    return copy;
  }
}

/** A port made elsewhere (the supervisor's): marked so `toPort` passes it through. */
export function definePort(methods: ReadonlySet<AdapterMethod>, call: AdapterPort["call"]): AdapterPort {
  return { [isPort]: true, methods, call };
}

export function toPort(adapter: AnyAdapter | AdapterPort): AdapterPort {
  return isPort in adapter ? (adapter as AdapterPort) : new LocalPort(adapter as AnyAdapter);
}
