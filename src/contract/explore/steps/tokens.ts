import { verificationTokenSchema } from "../../../schemas/adapter-models.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { expectNull, expectToken, fieldProblem, typeProblem } from "../compare.js";
import { type Model, nth, type TokenRecord } from "../model.js";
import type { Probe } from "../probe.js";
import type { TraceCall } from "../trace.js";
import { constant, constantFrom, type Gen, nat, record, verificationTokenBase } from "../values.js";
import { emailBase, expiry, expirySeconds, knownEmails, resolve, type Source, saltEmail, source } from "./sources.js";
import { brief, command, Step } from "./step.js";

export interface NewToken {
  identifier: Source;
  token: Source;
  expiresIn: number;
}

export const newToken: Gen<NewToken> = record({
  identifier: source(emailBase, { fresh: 3, reuse: 4, variant: 2 }),
  // Never one token for two emails: a token is the hash of a fresh random secret, and documented
  // schemas make it unique on its own. A near-miss (one character off) is fine.
  token: source(verificationTokenBase, { fresh: 5, reuse: 0, variant: 2 }),
  expiresIn: expirySeconds,
});

/** An email sign-in: the service stores the hashed token it mails as a link. */
export class CreateVerificationToken extends Step {
  static readonly needs: AdapterMethod[] = ["createVerificationToken"];
  constructor(readonly t: NewToken) {
    super();
  }
  override check(m: Model) {
    return m.liveTokens().length < 10 + m.crowd.tokens;
  }
  async run(m: Model, p: Probe) {
    const identifier = resolve(
      this.t.identifier,
      knownEmails(m),
      (b) => saltEmail(m, b),
      () => false,
      m.keys("verificationToken", "email"),
    );
    // Salted like every key, so two runs, even with the same seed, never make the same token.
    const token = resolve(
      this.t.token,
      [...new Set(m.tokens.map((t) => t.token))],
      (b) => `${b}${m.salt}`,
      (value) => m.tokens.some((t) => t.token === value),
      m.keys("verificationToken"),
    );
    const record: TokenRecord = {
      label: m.label("token"),
      identifier,
      token,
      expires: expiry(m, this.t.expiresIn),
      live: true,
    };
    const call: TraceCall = {
      method: "createVerificationToken",
      args: [{ identifier, token, expires: record.expires }],
    };
    const row = p.valueOf(await p.step(call), call, "an email sign-in would error");
    m.tokens.push(record);
    p.ledger.verificationToken({ identifier, token });
    if (row != null) {
      const problem =
        typeProblem(verificationTokenSchema, row) ?? fieldProblem(row, { identifier, token, expires: record.expires });
      if (problem)
        p.warn(
          `createVerificationToken returned a token that differs from the one stored (${problem.replace(/ is .*/, "")})`,
          call,
          record.label,
          row,
        );
    }
  }
  toString() {
    return `createVerificationToken(${brief(this.t)})`;
  }
}

interface UsePick {
  pick: number;
  /** The link as clicked, or a link with another email, a mistyped token, or an email differing in case. */
  twist: "none" | "other-identifier" | "token-variant" | "identifier-variant";
  v: Source;
}

const usePick: Gen<UsePick> = record({
  pick: nat,
  twist: constantFrom<UsePick["twist"]>(
    "none",
    "none",
    "none",
    "other-identifier",
    "token-variant",
    "identifier-variant",
  ),
  v: source(constant("x"), { fresh: 0, reuse: 0, variant: 1 }),
});

export function pickUse(m: Model, u: UsePick): { identifier: string; token: string } {
  const record = nth(m.tokens, u.pick)!;
  const variant = (value: string) =>
    resolve(
      { ...u.v, of: 0 },
      [value],
      (b) => `${value}${b}`,
      () => false,
      m.keys("verificationToken", "email"),
    );
  switch (u.twist) {
    case "other-identifier": {
      const others = knownEmails(m).filter((e) => e !== record.identifier);
      return { identifier: nth(others, u.pick) ?? variant(record.identifier), token: record.token };
    }
    case "token-variant":
      return { identifier: record.identifier, token: variant(record.token) };
    case "identifier-variant":
      return { identifier: variant(record.identifier), token: record.token };
    default:
      return { identifier: record.identifier, token: record.token };
  }
}

/** Checks one use of a link; returns whether the token was consumed. */
export function checkUse(
  p: Probe,
  m: Model,
  call: TraceCall,
  row: unknown,
  key: { identifier: string; token: string },
): boolean {
  const pending = m.token(key.identifier, key.token);
  if (pending) {
    if (row == null && m.expired(pending)) return false; // §3: an expired link signs nobody in either way
    expectToken(p, call, row, pending);
    return true;
  }
  const used = m.tokens.find((t) => t.identifier === key.identifier && t.token === key.token);
  expectNull(
    p,
    call,
    row,
    used
      ? `for ${used.label}, which was already used (a used sign-in link would sign in again)`
      : "for an email and token that were never stored together (a wrong sign-in link would be accepted)",
  );
  return false;
}

/** A click on a sign-in link: §3 single use, and the token and the email must both match. */
export class UseVerificationToken extends Step {
  static readonly needs: AdapterMethod[] = ["useVerificationToken"];
  constructor(readonly u: UsePick) {
    super();
  }
  override check(m: Model) {
    return m.tokens.length > 0;
  }
  async run(m: Model, p: Probe) {
    const key = pickUse(m, this.u);
    const call: TraceCall = { method: "useVerificationToken", args: [key] };
    const row = p.valueOf(await p.step(call), call, "an email sign-in would error");
    if (checkUse(p, m, call, row, key)) m.token(key.identifier, key.token)!.live = false;
  }
  toString() {
    return `useVerificationToken(${brief(this.u)})`;
  }
}

export const tokenCommands = [
  {
    needs: CreateVerificationToken.needs,
    weight: 3,
    arbitrary: command(newToken, (t) => new CreateVerificationToken(t)),
  },
  { needs: UseVerificationToken.needs, weight: 3, arbitrary: command(usePick, (u) => new UseVerificationToken(u)) },
];
