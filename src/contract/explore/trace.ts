/**
 * What a sequence did, kept cheaply while it runs and printed only when it
 * fails: each adapter call with its arguments, where an argument may refer to
 * a record an earlier call returned (`user1.id`), so the reproduction reads
 * like code a person would write.
 */
import type { AdapterMethod } from "../spec/adapter.js";

/** A value that came from an earlier result; printed as `code`, passed as `value`. */
export class Ref {
  constructor(
    readonly code: string,
    readonly value: unknown,
  ) {}
}

export interface TraceCall {
  method: AdapterMethod;
  args: unknown[];
  /** The variable the result is kept in, when a later call refers to it. */
  assign?: string;
  /** It threw in the run and the sequence went on (the contract allowed it): the reproduction must go on too. */
  threw?: boolean;
}

/** One step of a sequence: one call, or calls started together (a race). */
export interface TraceStep {
  calls: TraceCall[];
  /** Which of the calls showed the failure, when the last step is lookups made together. */
  shows?: number;
}

/**
 * The arguments as the adapter gets them: refs replaced by their values, and
 * every object and Date a fresh copy, so an adapter that keeps or changes
 * what it was given cannot reach into the model.
 */
export function resolveArgs(args: unknown[]): unknown[] {
  return args.map(resolveValue);
}

function resolveValue(value: unknown): unknown {
  if (value instanceof Ref) return value.value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveValue(v);
    return out;
  }
  return value;
}

/** A TypeScript literal for a value; `short` trims long strings for one-line step descriptions. */
export function literal(value: unknown, short = false): string {
  if (value instanceof Ref) return value.code;
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (value instanceof Date) return `new Date(${JSON.stringify(value.toISOString())})`;
  if (typeof value === "string") {
    const chars = [...value];
    if (short && chars.length > 32) return `${JSON.stringify(chars.slice(0, 24).join(""))}…(${chars.length} chars)`;
    return JSON.stringify(value);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, short)).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{ ${entries.map(([k, v]) => `${key(k)}: ${literal(v, short)}`).join(", ")} }`;
  }
  return String(value);
}

export function callCode(call: TraceCall, short = false): string {
  return `${call.method}(${call.args.map((a) => literal(a, short)).join(", ")})`;
}

/** One human line per step, e.g. `user1 = createUser({ email: "Ä@x.test", … })`. */
export function describeStep(step: TraceStep): string {
  const one = (call: TraceCall) => `${call.assign ? `${call.assign} = ` : ""}${callCode(call, true)}`;
  if (step.calls.length === 1) return one(step.calls[0]!);
  return `at the same time: ${step.calls.map(one).join(" and ")}`;
}
