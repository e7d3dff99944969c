/**
 * The model: what a correct store holds after the calls made so far (§2.9,
 * §2.10, §3, §4.2, §7), written to be obviously right rather than fast. It
 * answers every lookup a command or a sweep makes. It never talks to the
 * adapter; commands update it after the adapter answered.
 *
 * Records are named by labels (user1, session2…) so a reproduction can refer
 * to them; ids the adapter chose are kept as it returned them and compared
 * as strings (SERIAL keys come back as numbers).
 */
/** The keys a store may compare folded (case, accents): their rules live in collation.ts. */
export type KeyKind = "email" | "accountKey" | "sessionToken" | "verificationToken" | "credentialID";

export interface UserRecord {
  label: string;
  /** The id as the adapter returned it; passed back unchanged, as the service does. */
  id: unknown;
  /** null for a user created without one, as @auth/core creates them when a provider gives no email. */
  email: string | null;
  emailVerified: Date | null;
  name: string | null;
  image: string | null;
  live: boolean;
}

export interface AccountRecord {
  label: string;
  user: UserRecord;
  provider: string;
  providerAccountId: string;
  /** Every field written, userId excepted. */
  fields: Record<string, unknown>;
  live: boolean;
}

export interface SessionRecord {
  label: string;
  sessionToken: string;
  user: UserRecord;
  expires: Date;
  live: boolean;
}

export interface TokenRecord {
  label: string;
  identifier: string;
  token: string;
  expires: Date;
  live: boolean;
}

export interface AuthenticatorRecord {
  label: string;
  user: UserRecord;
  fields: Record<string, unknown> & { credentialID: string; counter: number };
  /** A race left the counter at one of these; the next read settles it. */
  counterChoices?: number[];
  live: boolean;
}

export interface KeyRules {
  salt: string;
  folds: boolean;
}

const accountKey = (provider: string, providerAccountId: string) => `${provider}\u0000${providerAccountId}`;
const tokenKey = (identifier: string, token: string) => `${identifier}\u0000${token}`;

export class Model {
  readonly users: UserRecord[] = [];
  readonly accounts: AccountRecord[] = [];
  readonly sessions: SessionRecord[] = [];
  readonly tokens: TokenRecord[] = [];
  readonly authenticators: AuthenticatorRecord[] = [];
  /** Emails users had before an update: a lookup by one must not find the user any more. */
  readonly formerEmails = new Set<string>();
  /** Providers used so far, so several users share them. */
  readonly providers: string[] = [];
  private counts: Record<string, number> = {};
  /** What a crowd (steps/crowd.ts) added: the limits on a sequence's own records count beyond it. */
  crowd = { users: 0, accounts: 0, sessions: 0, tokens: 0 };

  /** `now` in whole seconds: every date of the run is relative to it. */
  constructor(
    readonly now: number,
    readonly salt: string,
    /** Keys the store compares as a case-insensitive collation does (collation.ts). */
    readonly folding: ReadonlySet<KeyKind> = new Set(),
  ) {}

  /** How values of a kind of key are made: salted, and collation-safe when the store folds any of `kinds`. */
  keys(...kinds: KeyKind[]): KeyRules {
    return { salt: this.salt, folds: kinds.some((kind) => this.folding.has(kind)) };
  }

  label(kind: string): string {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    return `${kind}${this.counts[kind]}`;
  }

  liveUsers(): UserRecord[] {
    return this.users.filter((u) => u.live);
  }
  liveAccounts(): AccountRecord[] {
    return this.accounts.filter((a) => a.live);
  }
  liveSessions(): SessionRecord[] {
    return this.sessions.filter((s) => s.live);
  }
  liveTokens(): TokenRecord[] {
    return this.tokens.filter((t) => t.live);
  }
  liveAuthenticators(): AuthenticatorRecord[] {
    return this.authenticators.filter((a) => a.live);
  }

  /** Users a lookup by this exact email may return (several only after a tolerated race). */
  usersWithEmail(email: string): UserRecord[] {
    return this.users.filter((u) => u.live && u.email === email);
  }

  account(provider: string, providerAccountId: string): AccountRecord | undefined {
    const key = accountKey(provider, providerAccountId);
    return this.accounts.find((a) => a.live && accountKey(a.provider, a.providerAccountId) === key);
  }

  accountsOf(user: UserRecord): AccountRecord[] {
    return this.accounts.filter((a) => a.live && a.user === user);
  }

  session(sessionToken: string): SessionRecord | undefined {
    return this.sessions.find((s) => s.live && s.sessionToken === sessionToken);
  }

  token(identifier: string, token: string): TokenRecord | undefined {
    const key = tokenKey(identifier, token);
    return this.tokens.find((t) => t.live && tokenKey(t.identifier, t.token) === key);
  }

  authenticator(credentialID: string): AuthenticatorRecord | undefined {
    return this.authenticators.find((a) => a.live && a.fields.credentialID === credentialID);
  }

  authenticatorsOf(user: UserRecord): AuthenticatorRecord[] {
    return this.authenticators.filter((a) => a.live && a.user === user);
  }

  /** §3: a session or token past its expiry may already be gone (stores with a TTL drop it). */
  expired(record: { expires: Date }): boolean {
    return record.expires.getTime() <= this.now;
  }

  /** §2.10: a user owns its accounts, sessions and authenticators; deleting it removes them. */
  deleteUser(user: UserRecord): void {
    user.live = false;
    for (const a of this.accountsOf(user)) a.live = false;
    for (const s of this.sessions) if (s.user === user) s.live = false;
    for (const a of this.authenticatorsOf(user)) a.live = false;
  }

  /** Every key value this run has used: a fresh value must be none of them. */
  isEmailTaken(email: string): boolean {
    return this.users.some((u) => u.live && u.email === email);
  }
}

/** Picks the n-th element, wrapping, so shrunk sequences still pick something. */
export function nth<T>(items: T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}
