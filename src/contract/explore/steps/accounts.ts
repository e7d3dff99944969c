import { adapterAccountSchema } from "../../../schemas/adapter-models.js";
import type { AdapterMethod } from "../../spec/adapter.js";
import { accountFields, fieldProblem, typeProblem } from "../compare.js";
import { type AccountRecord, type Model, nth } from "../model.js";
import type { Probe } from "../probe.js";
import { lookAccountKey, sweep, userRef } from "../sweep.js";
import type { TraceCall } from "../trace.js";
import {
  constantFrom,
  type Gen,
  int,
  keyText,
  nat,
  oauthToken,
  oneof,
  opaqueToken,
  partial,
  providerAccountIdBase,
  providerBase,
  record,
  tuple,
} from "../values.js";
import { resolve, type Source, source } from "./sources.js";
import { brief, command, Step } from "./step.js";

const accountTypes = ["oauth", "oidc", "email", "webauthn"] as const;

const tokenFields: Gen<Record<string, string | number>> = partial({
  access_token: oauthToken,
  refresh_token: oauthToken,
  id_token: oauthToken,
  scope: oneof([1, constantFrom("openid email profile", "read:user user:email", "email")], [1, keyText(40)]),
  expires_at: int(0, 400 * 24 * 3600),
  token_type: constantFrom("bearer", "dpop", "mac"),
  session_state: opaqueToken,
});

export interface NewAccount {
  type: (typeof accountTypes)[number];
  provider: Source;
  providerAccountId: Source;
  tokens: Record<string, string | number>;
}

export const newAccount: Gen<NewAccount> = record({
  type: constantFrom(...accountTypes),
  provider: source(providerBase, { fresh: 2, reuse: 5, variant: 1 }),
  providerAccountId: source(providerAccountIdBase, { fresh: 4, reuse: 3, variant: 2 }),
  tokens: tokenFields,
});

/** A fresh provider id carries the salt, so accounts of concurrent runs never share a key. */
export function provider(m: Model, src: Source): string {
  const value = resolve(
    src,
    m.providers,
    (base) => `${base}-${m.salt}`,
    () => false,
    m.keys("accountKey"),
  );
  if (!m.providers.includes(value)) m.providers.push(value);
  return value;
}

/** Links an account to a user, as the service does on an OAuth, email or passkey sign-in. */
export class LinkAccount extends Step {
  static readonly needs: AdapterMethod[] = ["linkAccount"];
  constructor(
    readonly pick: number,
    readonly a: NewAccount,
  ) {
    super();
  }
  override check(m: Model) {
    return m.liveUsers().length > 0 && m.liveAccounts().length < 10 + m.crowd.accounts;
  }
  async run(m: Model, p: Probe) {
    const user = nth(m.liveUsers(), this.pick)!;
    let prov = provider(m, this.a.provider);
    const known = [...new Set(m.accounts.map((a) => a.providerAccountId))];
    // §2.9: an email account's providerAccountId is the user's email; a user without one signs in with a provider.
    const type = this.a.type === "email" && user.email === null ? "oauth" : this.a.type;
    const providerAccountId =
      type === "email" && user.email !== null
        ? user.email
        : resolve(
            this.a.providerAccountId,
            known,
            (base) => base,
            () => false,
            m.keys("accountKey"),
          );
    if (m.account(prov, providerAccountId)) {
      // The service never links a key twice: the same id at another provider instead, as real ids collide across providers.
      prov = m.providers.find((x) => !m.account(x, providerAccountId)) ?? `${prov}-${m.providers.length}`;
      if (!m.providers.includes(prov)) m.providers.push(prov);
    }
    const fields: Record<string, unknown> = {
      type,
      provider: prov,
      providerAccountId,
      ...(type === "oauth" || type === "oidc" ? this.a.tokens : {}),
    };
    if (typeof fields.expires_at === "number") fields.expires_at += Math.floor(m.now / 1000);
    const account: AccountRecord = {
      label: m.label("account"),
      user,
      provider: prov,
      providerAccountId,
      fields,
      live: true,
    };
    const call: TraceCall = { method: "linkAccount", args: [{ userId: userRef(user), ...fields }] };
    const row = p.valueOf(await p.step(call), call, "a sign-in with a new provider would error");
    m.accounts.push(account);
    p.ledger.account({ provider: prov, providerAccountId });
    if (row != null) {
      // The service ignores linkAccount's result: a wrong one is a warning.
      const problem = typeProblem(adapterAccountSchema, row) ?? fieldProblem(row, accountFields(account));
      if (problem)
        p.warn(
          `linkAccount returned an account that differs from the one linked (${problem.replace(/ is .*/, "")})`,
          call,
          account.label,
          row,
        );
    }
    await sweep(p, m, [user]);
  }
  toString() {
    return `linkAccount(#${this.pick}, ${brief(this.a)})`;
  }
}

export class UnlinkAccount extends Step {
  static readonly needs: AdapterMethod[] = ["unlinkAccount"];
  constructor(readonly pick: number) {
    super();
  }
  override check(m: Model) {
    return m.liveAccounts().length > 0;
  }
  async run(m: Model, p: Probe) {
    const account = nth(m.liveAccounts(), this.pick)!;
    const key = { provider: account.provider, providerAccountId: account.providerAccountId };
    const call: TraceCall = { method: "unlinkAccount", args: [key] };
    const row = p.valueOf(await p.step(call), call, "");
    account.live = false;
    if (row != null) {
      const problem = typeProblem(adapterAccountSchema, row) ?? fieldProblem(row, accountFields(account));
      if (problem)
        p.warn(
          `unlinkAccount returned something other than nothing or the unlinked account (${problem.replace(/ is .*/, "")})`,
          call,
          account.label,
          row,
        );
    }
    await sweep(p, m, [account.user]);
  }
  toString() {
    return `unlinkAccount(#${this.pick})`;
  }
}

interface KeyPick {
  pick: number;
  /** Swap in another provider, or vary the providerAccountId: a key that must not match. */
  twist: "none" | "other-provider" | "variant";
  v: Source;
}

const keyPick: Gen<KeyPick> = record({
  pick: nat,
  twist: constantFrom<KeyPick["twist"]>("none", "none", "other-provider", "variant"),
  v: source(providerAccountIdBase, { fresh: 0, reuse: 0, variant: 1 }),
});

function pickKey(m: Model, k: KeyPick): { provider: string; providerAccountId: string } {
  const account = nth(m.accounts, k.pick)!;
  if (k.twist === "other-provider") {
    const others = m.providers.filter((x) => x !== account.provider);
    if (others.length > 0) return { provider: nth(others, k.pick)!, providerAccountId: account.providerAccountId };
  }
  if (k.twist === "variant")
    return {
      provider: account.provider,
      providerAccountId: resolve(
        { ...k.v, mode: "variant", of: 0 },
        [account.providerAccountId],
        (b) => b,
        () => false,
        m.keys("accountKey"),
      ),
    };
  return { provider: account.provider, providerAccountId: account.providerAccountId };
}

/** getUserByAccount (an OAuth sign-in) or getAccount, for a linked, unlinked or near-miss key. */
export class LookUpAccount extends Step {
  constructor(
    readonly method: "getUserByAccount" | "getAccount",
    readonly k: KeyPick,
  ) {
    super();
  }
  override check(m: Model) {
    return m.accounts.length > 0;
  }
  async run(m: Model, p: Probe) {
    const { provider: prov, providerAccountId } = pickKey(m, this.k);
    await lookAccountKey(p, m, prov, providerAccountId, this.method);
  }
  toString() {
    return `${this.method}(${brief(this.k)})`;
  }
}

export const accountCommands = [
  {
    needs: LinkAccount.needs,
    weight: 4,
    arbitrary: command(tuple(nat, newAccount), ([n, a]) => new LinkAccount(n, a)),
  },
  { needs: UnlinkAccount.needs, weight: 2, arbitrary: command(nat, (n) => new UnlinkAccount(n)) },
  {
    needs: ["getUserByAccount"] as AdapterMethod[],
    weight: 2,
    arbitrary: command(keyPick, (k) => new LookUpAccount("getUserByAccount", k)),
  },
  {
    needs: ["getAccount"] as AdapterMethod[],
    weight: 2,
    arbitrary: command(keyPick, (k) => new LookUpAccount("getAccount", k)),
  },
];
