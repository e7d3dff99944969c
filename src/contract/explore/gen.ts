/**
 * Small value generators over a seeded source. A command costs fast-check
 * one integer (its seed), which fast-check still shrinks; the command makes
 * its values from it when it runs. Seed 0 draws the simplest value of every
 * kind (first choice, shortest length, "a"), so a shrunk reproduction reads
 * plainly. Drawing values through nested fast-check arbitraries cost more
 * than running the step they were for.
 */

import { mulberry32 } from "../access/random.js";

/** A seeded source: `next()` in [0, 1); `simple` draws the first choice and the shortest value. */
export interface Rng {
  next(): number;
  simple: boolean;
}
export type Gen<T> = (s: Rng) => T;

/** A source over the contract's one generator (random.ts), seeded per command. */
export function rng(seed: number): Rng {
  return { simple: seed === 0, next: mulberry32(seed) };
}

export const int =
  (min: number, max: number): Gen<number> =>
  (s) =>
    s.simple ? min : min + Math.floor(s.next() * (max - min + 1));

export const constant =
  <T>(value: T): Gen<T> =>
  () =>
    value;

export const constantFrom =
  <T>(...values: T[]): Gen<T> =>
  (s) =>
    s.simple ? values[0]! : values[Math.floor(s.next() * values.length)]!;

export const boolean: Gen<boolean> = (s) => !s.simple && s.next() < 0.5;

export const nat: Gen<number> = (s) => (s.simple ? 0 : Math.floor(s.next() * 0x7fffffff));

/** Weighted choice; the first alternative when simple. */
export function oneof<T>(...alternatives: Array<[weight: number, gen: Gen<T>]>): Gen<T> {
  const total = alternatives.reduce((sum, [w]) => sum + w, 0);
  return (s) => {
    if (s.simple) return alternatives[0]![1](s);
    let pick = s.next() * total;
    for (const [weight, gen] of alternatives) {
      if (pick < weight) return gen(s);
      pick -= weight;
    }
    return alternatives[alternatives.length - 1]![1](s);
  };
}

export const map =
  <T, U>(gen: Gen<T>, f: (value: T) => U): Gen<U> =>
  (s) =>
    f(gen(s));

export function record<T extends Record<string, unknown>>(gens: { [K in keyof T]: Gen<T[K]> }): Gen<T> {
  const keys = Object.keys(gens) as Array<keyof T>;
  return (s) => {
    const out = {} as T;
    for (const key of keys) out[key] = gens[key](s);
    return out;
  };
}

export function tuple<T extends unknown[]>(...gens: { [K in keyof T]: Gen<T[K]> }): Gen<T> {
  return (s) => gens.map((g) => g(s)) as T;
}

/** null now and then (never when simple). */
export const option =
  <T>(gen: Gen<T>, freq = 2): Gen<T | null> =>
  (s) =>
    !s.simple && s.next() < 1 / freq ? null : gen(s);

/** Each key present or not (never all absent when `atLeastOne`). */
export function partial<T extends Record<string, unknown>>(
  gens: { [K in keyof T]: Gen<T[K]> },
  atLeastOne = false,
): Gen<Partial<T>> {
  const keys = Object.keys(gens) as Array<keyof T>;
  return (s) => {
    const out: Partial<T> = {};
    for (const key of keys) if (!s.simple && s.next() < 0.5) out[key] = gens[key](s);
    if (atLeastOne && keys.length > 0 && Object.keys(out).length === 0) {
      const key = keys[s.simple ? 0 : Math.floor(s.next() * keys.length)]!;
      out[key] = gens[key](s);
    }
    return out;
  };
}
