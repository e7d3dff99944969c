/**
 * Where a command's key values come from: fresh (generated, with the run's
 * salt so concurrent runs never collide), reused from a record the sequence
 * already made (several users sharing a provider, one token for two emails),
 * or a near-duplicate of one (another case, one character off). Sources are
 * generated up front; they are turned into values when the step runs, from
 * the model as it is then, so a shrunk sequence still makes sense.
 */
import { collationKey, collationSafe } from "../collation.js";
import type { KeyRules, Model } from "../model.js";
import {
  constantFrom,
  emailAddress,
  expirySeconds,
  type Gen,
  nat,
  type Variation,
  variation,
  vary,
} from "../values.js";

export type Mode = "fresh" | "reuse" | "variant";

export interface Source {
  mode: Mode;
  /** The generated value, used when fresh (or when nothing can be reused). */
  base: string;
  of: number;
  v: { kind: Variation; at: number };
}

export function source(base: Gen<string>, weights = { fresh: 5, reuse: 2, variant: 2 }): Gen<Source> {
  const modes: Mode[] = [
    ...Array<Mode>(weights.fresh).fill("fresh"),
    ...Array<Mode>(weights.reuse).fill("reuse"),
    ...Array<Mode>(weights.variant).fill("variant"),
  ];
  const mode = constantFrom(...modes);
  return (s) => ({ mode: mode(s), base: base(s), of: nat(s), v: variation(s) });
}

export const emailBase: Gen<string> = emailAddress;

/** A fresh email carries the salt in its domain: `local@<salt>.example.test`. */
export function saltEmail(m: Model, base: string): string {
  const at = base.lastIndexOf("@");
  return `${base.slice(0, at)}@${m.salt}.${base.slice(at + 1)}`;
}

/**
 * Resolves a source against the values the model knows. `fresh` makes a new
 * value from the base; `taken` says whether a value may not be used (then the
 * fresh value is bumped until it is free).
 */
export function resolve(
  src: Source,
  known: string[],
  fresh: (base: string) => string,
  taken: (value: string) => boolean,
  { salt, folds }: KeyRules,
): string {
  let value: string | undefined;
  const of = known.length > 0 ? known[src.of % known.length]! : undefined;
  if (src.mode === "reuse" && of !== undefined) value = of;
  if (src.mode === "variant" && of !== undefined) {
    const varied = vary(of, salt, src.v);
    // A store that folds this key takes a variant in case or accents for the same key: no near-duplicate.
    if (varied !== of && !(folds && collationKey(varied) === collationKey(of))) value = varied;
  }
  const base = folds ? collationSafe(src.base) : src.base;
  if (value === undefined || taken(value)) value = fresh(base);
  for (let i = 2; taken(value); i++) value = fresh(`${base}${i}`);
  return value;
}

/** Every email the sequence has seen: users' current and former emails, token identifiers. */
export function knownEmails(m: Model): string[] {
  const all = new Set<string>();
  for (const u of m.users) if (u.email !== null) all.add(u.email);
  for (const e of m.formerEmails) all.add(e);
  for (const t of m.tokens) all.add(t.identifier);
  return [...all];
}

export const whole = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

/** An expiry `seconds` from the model's now; negative for the past. */
export const expiry = (m: Model, seconds: number) => whole(m.now + seconds * 1000);

export { expirySeconds };
