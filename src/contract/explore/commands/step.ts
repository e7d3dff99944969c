import type fc from "fast-check";
import type { Model } from "../model.js";
import type { Probe } from "../probe.js";

/**
 * One command of a sequence. Each class names the methods it calls in a
 * static `needs` (a command whose methods are absent or excluded is never
 * generated); `check` says
 * whether the service would make this call in the model's current state.
 */
export abstract class Step implements fc.AsyncCommand<Model, Probe> {
  check(_m: Model): boolean {
    return true;
  }
  abstract run(m: Model, p: Probe): Promise<void>;
  abstract toString(): string;
}

/** Whether a value is a JSON-like description for toString (short, for fast-check's report). */
export const brief = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? "undefined";
