import { describe, expect, it } from "vitest";
import { createMemoryAdapter } from "../../fixtures/adapters/memory.js";
import { allCases } from "../../src/contract/cases/index.js";
import { type RunEvent, runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import type { ContractCase } from "../../src/contract/spec/case.js";
import { slowed } from "../support/slowed-adapter.js";

async function run(
  adapter: AnyAdapter,
  options: {
    cases?: ContractCase[];
    seed?: number;
    nonce?: string;
    timeoutMs?: number;
    concurrency?: number;
    require?: ("users" | "sessions" | "email" | "webauthn")[];
  } = {},
) {
  const events: RunEvent[] = [];
  const summary = await runContract({
    adapter,
    cases: options.cases ?? allCases,
    seed: options.seed ?? 1,
    nonce: options.nonce,
    timeoutMs: options.timeoutMs ?? 2000,
    concurrency: options.concurrency ?? 1,
    require: options.require ?? [],
    onEvent: (e) => events.push(e),
  });
  const results = events.flatMap((e) => (e.type === "case:end" ? [e.result] : []));
  return { summary, events, results, byId: new Map(results.map((r) => [r.case.id, r])) };
}

const memory = () => createMemoryAdapter() as AnyAdapter;
const only = (...ids: string[]) => allCases.filter((c) => ids.includes(c.id));

describe("the contract runner", () => {
  it("case ids are unique and each names its spec section", () => {
    const ids = allCases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of allCases) expect(c.section).toMatch(/^§\d/);
  });

  it("passes every case on the correct in-memory adapter", async () => {
    const { summary, results } = await run(memory());
    expect(results.filter((r) => r.status !== "passed").map((r) => r.case.id)).toEqual([]);
    expect(summary).toMatchObject({ ok: true, failed: 0, skipped: 0, passed: allCases.length, warnings: 0 });
  });

  it("emits run:start, a start and an end per case, then run:end", async () => {
    const { events } = await run(memory(), { cases: only("user.get.by-id", "session.get.unknown-token-is-null") });
    expect(events.map((e) => e.type)).toEqual([
      "run:start",
      "case:start",
      "case:end",
      "case:start",
      "case:end",
      "run:end",
    ]);
  });

  it("fails a case whose method never settles, and goes on with the others", async () => {
    const adapter = { ...memory(), getUserByEmail: () => new Promise(() => {}) };
    const { byId, summary } = await run(adapter, {
      cases: only("user.get-by-email.unknown-is-null", "user.get.unknown-id-is-null"),
      // Long enough that the case that answers passes on a loaded machine too.
      timeoutMs: 1000,
    });
    expect(byId.get("user.get-by-email.unknown-is-null")).toMatchObject({
      status: "failed",
      failure: { message: expect.stringMatching(/^getUserByEmail never settled within 1000 ms/) },
    });
    expect(byId.get("user.get.unknown-id-is-null")?.status).toBe("passed");
    expect(summary.ok).toBe(false);
  });

  it("reports a thrown non-Error value cleanly", async () => {
    const adapter = {
      ...memory(),
      getUser: () => {
        throw { code: "E_DB" };
      },
    };
    const { byId } = await run(adapter, { cases: only("user.get.unknown-id-is-null") });
    expect(byId.get("user.get.unknown-id-is-null")?.failure).toMatchObject({
      message: expect.stringMatching(/^getUser\(".*"\) threw$/),
      received: 'thrown object {"code":"E_DB"}',
    });
  });

  it("skips cases whose methods are absent, and reports the missing capability", async () => {
    const { getAccount, createAuthenticator, ...rest } = memory();
    const { results, summary, events } = await run(rest);
    const skipped = results.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped)
      expect(r.case.needs.some((m) => m === "getAccount" || m === "createAuthenticator")).toBe(true);
    expect(summary.ok).toBe(true);
    const start = events[0] as Extract<RunEvent, { type: "run:start" }>;
    expect(start.capabilities.find((c) => c.name === "webauthn")).toMatchObject({
      supported: false,
      missing: ["getAccount", "createAuthenticator"],
    });
  });

  it("--require turns a missing capability into a failure", async () => {
    const { createVerificationToken, ...rest } = memory();
    const lenient = await run(rest, { cases: only("user.get.by-id") });
    expect(lenient.summary.ok).toBe(true);
    const strict = await run(rest, { cases: only("user.get.by-id"), require: ["email"] });
    expect(strict.summary.ok).toBe(false);
    expect(strict.summary.unmetRequirements.map((c) => [c.name, c.missing])).toEqual([
      ["email", ["createVerificationToken"]],
    ]);
  });

  it("a preferred-but-optional behaviour is a warning, not a failure", async () => {
    const adapter = { ...memory(), deleteSession: () => undefined };
    const { byId, summary } = await run(adapter, { cases: only("session.delete.returns-deleted-session") });
    expect(byId.get("session.delete.returns-deleted-session")).toMatchObject({
      status: "passed",
      warnings: [expect.stringMatching(/the spec prefers the deleted session/)],
    });
    expect(summary).toMatchObject({ ok: true, warnings: 1 });
  });

  it("the seed fixes the data's shape; the per-run nonce keeps two runs' values apart", async () => {
    const emails = async (seed: number, nonce: string) => {
      const seen: string[] = [];
      const adapter = memory();
      const createUser = adapter.createUser!;
      adapter.createUser = (user: { email: string }) => {
        seen.push(user.email);
        return createUser(user);
      };
      await run(adapter, { seed, nonce, cases: only("user.get-by-email.finds-user") });
      return seen;
    };
    expect(await emails(42, "a")).toEqual(await emails(42, "a"));
    expect(await emails(42, "a")).not.toEqual(await emails(43, "a"));
    const [first, second] = [await emails(42, "a"), await emails(42, "b")];
    expect(first).toHaveLength(second.length);
    for (const [i, email] of first.entries()) {
      expect(email).not.toBe(second[i]);
      expect(email.replace(/[0-9a-f]{16}/, "")).toBe(second[i]!.replace(/[0-9a-f]{16}/, ""));
    }
  });

  it("a case produces the same data alone, in order, or in parallel", async () => {
    const tokens = async (cases: ContractCase[], concurrency: number) => {
      const seen = new Map<string, string[]>();
      let current = "";
      const adapter = memory();
      const createSession = adapter.createSession!;
      adapter.createSession = (s: { sessionToken: string }) => {
        seen.set(current, [...(seen.get(current) ?? []), s.sessionToken]);
        return createSession(s);
      };
      await runContract({
        adapter,
        cases,
        seed: 5,
        nonce: "fixed",
        timeoutMs: 2000,
        concurrency,
        require: [],
        onEvent: (e) => {
          if (e.type === "case:start") current = e.case.id;
        },
      });
      return seen.get("session.get.own-user-among-many");
    };
    const alone = await tokens(only("session.get.own-user-among-many"), 1);
    expect(alone).toHaveLength(3);
    expect(await tokens([...allCases].reverse(), 1)).toEqual(alone);
  });

  it("runs independent cases in parallel with --concurrency", async () => {
    let inFlight = 0;
    let peak = 0;
    const adapter = memory();
    const getUser = adapter.getUser!;
    adapter.getUser = async (id: string) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return getUser(id);
    };
    const cases = allCases.filter((c) => c.needs.includes("getUser"));
    const { summary } = await run(adapter, { cases, concurrency: 4 });
    expect(summary.ok).toBe(true);
    expect(peak).toBeGreaterThan(1);
  });
});

describe("data safety", () => {
  it("never touches a record it did not create, and removes what it created", async () => {
    const adapter = memory();
    const foreign = (await adapter.createUser!({
      id: "x",
      email: "owner@company.test",
      emailVerified: null,
      name: "Real Customer",
    })) as { id: string; email: string };
    const foreignSession = await adapter.createSession!({
      sessionToken: "real-session",
      userId: foreign.id,
      expires: new Date(Date.now() + 86_400_000),
    });
    const keysSeen = new Set<string>();
    const created = { users: [] as string[], sessions: [] as string[] };
    const spy = new Proxy(adapter as AnyAdapter, {
      get(target, prop: string) {
        const fn = (target as Record<string, unknown>)[prop];
        if (typeof fn !== "function") return fn;
        return async (...args: unknown[]) => {
          JSON.stringify(args, (_k, v) => {
            if (typeof v === "string") keysSeen.add(v);
            return v;
          });
          const result = await (fn as (...a: unknown[]) => unknown)(...args);
          if (prop === "createUser") created.users.push((result as { id: string }).id);
          if (prop === "createSession") created.sessions.push((result as { sessionToken: string }).sessionToken);
          return result;
        };
      },
    });
    const { summary } = await run(spy, { concurrency: 3 });
    expect(summary.ok).toBe(true);
    for (const key of [foreign.id, foreign.email, "real-session"]) expect(keysSeen.has(key)).toBe(false);
    expect(await adapter.getUser!(foreign.id)).toEqual(foreign);
    expect(await adapter.getSessionAndUser!("real-session")).toEqual({ session: foreignSession, user: foreign });
    expect(created.users.length).toBeGreaterThan(40);
    for (const id of created.users) expect(await adapter.getUser!(id)).toBeNull();
    for (const token of created.sessions) expect(await adapter.getSessionAndUser!(token)).toBeNull();
  });

  it("two runs in a row with the same seed both pass", async () => {
    const adapter = memory();
    expect((await run(adapter, { seed: 9 })).summary.ok).toBe(true);
    expect((await run(adapter, { seed: 9 })).summary.ok).toBe(true);
  });

  describe("the failure policy", () => {
    const deletedSessionCase = only("user.delete.removes-sessions-and-accounts");

    it("a throw where the service never calls the method that way is a warning, and --strict fails it", async () => {
      // As @auth/kysely-adapter and @auth/prisma-adapter do for a session that is gone.
      const base = memory();
      const adapter = {
        ...base,
        updateSession: async (s: { sessionToken: string }) => {
          const found = await base.getSessionAndUser!(s.sessionToken);
          if (!found) throw new Error("no result");
          return base.updateSession!(s);
        },
      };
      const lenient = await run(adapter, { cases: deletedSessionCase });
      expect(lenient.summary).toMatchObject({ ok: true, warnings: 1 });
      expect(lenient.results[0]!.warnings[0]).toMatch(
        /^tolerated: updateSession threw .*no result.*never calls it that way/,
      );
      const strict = await runContract({
        adapter,
        cases: deletedSessionCase,
        seed: 1,
        timeoutMs: 2000,
        concurrency: 1,
        require: [],
        strict: true,
      });
      expect(strict).toMatchObject({ ok: false, failed: 1 });
    });

    it("a malformed return value the service ignores is a warning (linkAccount's expires_at: NaN)", async () => {
      const base = memory();
      const adapter = {
        ...base,
        linkAccount: async (a: Record<string, unknown>) => ({
          ...((await base.linkAccount!(a as never)) as object),
          expires_at: Number.NaN,
        }),
      };
      const { summary, byId } = await run(adapter, { cases: only("account.link.email-account-without-tokens") });
      expect(summary).toMatchObject({ ok: true, warnings: 1 });
      expect(byId.get("account.link.email-account-without-tokens")!.warnings[0]).toMatch(
        /^tolerated: linkAccount result\.expires_at.*ignores what linkAccount returns/,
      );
    });

    it("deleteSession throwing for a session that is gone fails the stale-cookie email sign-in", async () => {
      const base = memory();
      const adapter = {
        ...base,
        deleteSession: async (token: string) => {
          if (!(await base.getSessionAndUser!(token))) throw new Error("Record to delete does not exist.");
          return base.deleteSession!(token);
        },
      };
      const { byId } = await run(adapter, { cases: only("flow.email-sign-in.stale-session-cookie") });
      expect(byId.get("flow.email-sign-in.stale-session-cookie")).toMatchObject({
        status: "failed",
        failure: {
          message: expect.stringMatching(
            /^deleteSession threw for a session that no longer exists: .*stale session cookie/,
          ),
        },
      });
    });
  });

  it("a method that never settles costs one timeout: later cases that need it fail at once", async () => {
    const adapter = { ...memory(), getUserByAccount: () => new Promise(() => {}) };
    const needing = allCases.filter((c) => c.needs.includes("getUserByAccount"));
    expect(needing.length).toBeGreaterThan(3);
    // One timeout, not one per case: the later cases fail at once without calling it (their messages say so),
    // which the messages below check without depending on the machine's speed.
    const { summary, results } = await run(adapter, { cases: needing, timeoutMs: 300 });
    expect(summary.failed).toBe(needing.length);
    expect(summary.hung).toEqual([{ method: "getUserByAccount", caseId: needing[0]!.id }]);
    expect(results[0]!.failure!.message).toMatch(/getUserByAccount never settled/);
    for (const r of results.slice(1))
      expect(r.failure!.message).toBe(`getUserByAccount never settled in ${needing[0]!.id}; not called again`);
  });

  it("the limit is each call's: a slow store that answers every call in time passes cases of many calls", async () => {
    const callMs = 40;
    const slow = slowed(memory(), () => new Promise((resolve) => setTimeout(resolve, callMs)));
    const many = only("verification-token.values.identifiers", "authenticator.values.counters");
    // Each call answers in a tenth of the limit; each case makes more than ten calls.
    const { summary, results } = await run(slow, { cases: many, timeoutMs: callMs * 10 });
    expect(results.map((r) => [r.case.id, r.status, r.failure?.message])).toEqual(
      many.map((c) => [c.id, "passed", undefined]),
    );
    expect(results.every((r) => r.durationMs > callMs * 10)).toBe(true);
    expect(summary.hung).toEqual([]);
  });

  it("counts the records cleanup could not remove", async () => {
    const adapter = { ...memory(), deleteUser: () => undefined };
    const { summary } = await run(adapter, { cases: only("user.get.by-id", "session.get.returns-session-and-user") });
    expect(summary.leftovers).toEqual({ users: 2 });
    const clean = await run(memory(), { cases: only("user.get.by-id", "session.get.returns-session-and-user") });
    expect(clean.summary.leftovers).toEqual({});
  });
});
