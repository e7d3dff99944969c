/**
 * What a case created, how to remove it, and how to look for it afterwards.
 * The suite writes to the user's database, so it removes its own records and
 * then checks: a record it can still find is reported, never silently left.
 */
import type { AdapterMethod } from "../spec/adapter.js";
import type { AdapterCalls } from "./calls.js";

export const recordKinds = ["users", "accounts", "sessions", "verification tokens", "authenticators"] as const;
export type RecordKind = (typeof recordKinds)[number];
export type Leftovers = Partial<Record<RecordKind, number>>;

interface Call {
  method: AdapterMethod;
  args: unknown[];
}

interface StoredRecord {
  kind: RecordKind;
  /** How to remove it; authenticators have no delete method and go with their user. */
  remove?: Call;
  /** Finds it if it is still there (a non-null result). */
  probe?: Call;
}

export class Cleanup {
  private readonly records: StoredRecord[] = [];

  constructor(private readonly calls: AdapterCalls) {}

  user(id: unknown): void {
    this.records.push({
      kind: "users",
      remove: { method: "deleteUser", args: [id] },
      probe: { method: "getUser", args: [id] },
    });
  }

  account(key: { provider: string; providerAccountId: string }): void {
    this.records.push({
      kind: "accounts",
      remove: { method: "unlinkAccount", args: [key] },
      // getAccount sees an account row whose user is gone; getUserByAccount usually joins the user.
      probe: this.calls.has("getAccount")
        ? { method: "getAccount", args: [key.providerAccountId, key.provider] }
        : { method: "getUserByAccount", args: [key] },
    });
  }

  session(sessionToken: string): void {
    this.records.push({
      kind: "sessions",
      remove: { method: "deleteSession", args: [sessionToken] },
      probe: { method: "getSessionAndUser", args: [sessionToken] },
    });
  }

  verificationToken(key: { identifier: string; token: string }): void {
    // Using a token is the only way to remove it, and the only way to look for it.
    const use = { method: "useVerificationToken", args: [key] } as const;
    this.records.push({ kind: "verification tokens", remove: { ...use, args: [key] }, probe: { ...use, args: [key] } });
  }

  authenticator(credentialID: string): void {
    this.records.push({ kind: "authenticators", probe: { method: "getAuthenticator", args: [credentialID] } });
  }

  private usable(call: Call | undefined): call is Call {
    return call !== undefined && this.calls.has(call.method) && this.calls.refusal(call.method) === undefined;
  }

  /** Removes every record, newest first (a record already gone is fine), then counts what is left. */
  async run(): Promise<Leftovers> {
    const records = [...this.records].reverse();
    for (const { remove } of records) {
      if (!this.usable(remove)) continue;
      try {
        await this.calls.invoke(remove.method, remove.args);
      } catch {
        // Already removed by the case, or by a cascade.
      }
    }
    const leftovers: Leftovers = {};
    for (const { kind, probe } of records) {
      if (!this.usable(probe)) continue;
      const found = await this.calls.invoke(probe.method, probe.args).catch(() => null);
      if (found != null) leftovers[kind] = (leftovers[kind] ?? 0) + 1;
    }
    return leftovers;
  }
}
