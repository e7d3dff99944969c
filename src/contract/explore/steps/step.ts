import fc from "fast-check";
import type { Model } from "../model.js";
import type { Probe } from "../probe.js";
import { type Gen, rng } from "../values.js";

/**
 * One command of a sequence. Each class names the methods it calls in a
 * static `needs` (a command whose methods are absent or excluded is never
 * generated); `check` says whether the service would make this call in the
 * model's current state, and depends on that state only.
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

/**
 * A command whose values are made from its seed only when it runs. A
 * sequence draws more commands than run (check() skips those that make no
 * sense yet), and making values cost more than the whole step; check() is
 * answered by a template of the same kind, since it reads only the model.
 */
class Deferred extends Step {
  private made: Step | undefined;
  constructor(
    private readonly seed: number,
    private readonly template: Step,
    private readonly build: (seed: number) => Step,
  ) {
    super();
  }
  private command(): Step {
    this.made ??= this.build(this.seed);
    return this.made;
  }
  override check(m: Model): boolean {
    return this.template.check(m);
  }
  run(m: Model, p: Probe): Promise<void> {
    return this.command().run(m, p);
  }
  toString(): string {
    return this.command().toString();
  }
}

/** A command arbitrary: fast-check draws one integer (and shrinks it); seed 0 makes the simplest values. */
export function command<T>(gen: Gen<T>, make: (value: T) => Step): fc.Arbitrary<Step> {
  const build = (seed: number) => make(gen(rng(seed)));
  const template = build(0);
  return fc.nat().map((seed) => new Deferred(seed, template, build));
}
