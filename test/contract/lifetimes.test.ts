// The lifetime cases against stores that expire sessions on their own, the
// ways real ones do: a lifetime counted from the write in milliseconds (Redis
// PX) or in whole seconds rounded up or to the nearest (EX), an expiry at a
// whole second rounded either way (EXPIREAT), a DATETIME column rounded to
// the second. A store that moves the expiry when the session is extended must
// pass; one that keeps the first must fail, wherever in its second the write
// falls, so each store is run with its writes starting at points spread over
// a second (the runs overlap: each lasts about a second).
import type { Adapter, AdapterSession } from "@auth/core/adapters";
import { describe, expect, it } from "vitest";
import { createMemoryAdapter } from "../../fixtures/adapters/memory.js";
import { lifetimeCases } from "../../src/contract/cases/lifetimes.js";
import { type CaseResult, runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

/** When a session written at `now` with `expires` is dropped, by the store's rule; null: the store refuses it. */
type Rule = (expires: number, now: number) => number | null;

const secondsFromWrite =
  (round: (seconds: number) => number): Rule =>
  (expires, now) => {
    const seconds = round((expires - now) / 1000);
    // Redis refuses a lifetime of none: "invalid expire time".
    return seconds > 0 ? now + seconds * 1000 : null;
  };

const rules: Record<string, Rule> = {
  "milliseconds from the write (PX)": (expires) => expires,
  "whole seconds from the write, rounded up (EX)": secondsFromWrite(Math.ceil),
  "whole seconds from the write, rounded to the nearest (EX)": secondsFromWrite(Math.round),
  "a whole second, rounded up (EXPIREAT)": (expires) => Math.ceil(expires / 1000) * 1000,
  "a whole second, rounded down (EXPIREAT)": (expires) => Math.floor(expires / 1000) * 1000,
  "a DATETIME rounded to the second": (expires) => Math.round(expires / 1000) * 1000,
};

function expiringStore(rule: Rule, movedOnExtension: boolean): Adapter {
  const adapter: any = createMemoryAdapter();
  const dropAt = new Map<string, number>();
  const { createSession, updateSession, getSessionAndUser, deleteSession } = adapter;
  const expireAt = (token: string, expires: Date) => {
    const at = rule(expires.getTime(), Date.now());
    if (at === null) throw new Error("invalid expire time");
    dropAt.set(token, at);
  };
  adapter.createSession = (session: AdapterSession) => {
    expireAt(session.sessionToken, session.expires);
    return createSession(session);
  };
  adapter.updateSession = (session: Partial<AdapterSession> & { sessionToken: string }) => {
    if (!dropAt.has(session.sessionToken)) return null;
    if (movedOnExtension && session.expires) expireAt(session.sessionToken, session.expires);
    return updateSession(session);
  };
  adapter.getSessionAndUser = (token: string) => {
    // As Redis: gone once the clock has passed the expiry.
    if ((dropAt.get(token) ?? Number.POSITIVE_INFINITY) < Date.now()) {
      dropAt.delete(token);
      deleteSession(token);
    }
    return getSessionAndUser(token);
  };
  return adapter;
}

/** The store answering each call `ms` late, as a loaded machine or a distant database does. */
function slow(adapter: Adapter, ms: number): Adapter {
  const out: any = {};
  for (const [name, method] of Object.entries(adapter as Record<string, (...args: unknown[]) => unknown>))
    out[name] = async (...args: unknown[]) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return method.apply(adapter, args);
    };
  return out;
}

/** Where in its second each run starts writing, in ms. */
const phases = [0, 150, 300, 450, 600, 750, 900];

async function runAt(phase: number, start: number, adapter: Adapter): Promise<CaseResult[]> {
  await new Promise((resolve) => setTimeout(resolve, start + phase - Date.now()));
  const results: CaseResult[] = [];
  await runContract({
    adapter: adapter as AnyAdapter,
    cases: lifetimeCases,
    seed: 1,
    timeoutMs: 60_000,
    concurrency: 1,
    require: [],
    onEvent: (e) => e.type === "case:end" && results.push(e.result),
  });
  return results;
}

describe("lifetime cases against stores that expire sessions on their own", () => {
  it("pass every store that moves the expiry on extension and fail every one that keeps the first, wherever the write falls in its second", async () => {
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const runs = Object.entries(rules).flatMap(([name, rule]) =>
      [true, false].flatMap((moved) =>
        phases.map(async (phase) => {
          const results = await runAt(phase, start, expiringStore(rule, moved));
          const extension = results.find((r) => r.case.id === "session.lifetime.extension-outlives-first-expiry")!;
          return {
            store: `${name}, ${moved ? "moved" : "kept"} on extension, written at +${phase} ms`,
            failing: results.filter((r) => r.status === "failed").map((r) => r.case.id),
            notes: extension.notes,
            moved,
          };
        }),
      ),
    );
    const outcomes = await Promise.all(runs);
    const wrong = outcomes.filter(({ failing, moved }) =>
      moved ? failing.length > 0 : failing.join() !== "session.lifetime.extension-outlives-first-expiry",
    );
    expect(wrong).toEqual([]);
    // Every check was made: none was given up for a store too slow to extend in time.
    expect(outcomes.filter((o) => o.notes.length > 0)).toEqual([]);
  }, 30_000);

  it("give the same verdicts when each call takes a tenth of a second: the writes are tried again further ahead", async () => {
    const start = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const slowRules = ["whole seconds from the write, rounded up (EX)", "a whole second, rounded up (EXPIREAT)"];
    const runs = slowRules.flatMap((name) =>
      [true, false].flatMap((moved) =>
        [0, 450, 900].map(async (phase) => {
          const results = await runAt(phase, start, slow(expiringStore(rules[name]!, moved), 100));
          const failing = results.filter((r) => r.status === "failed").map((r) => r.case.id);
          const notes = results.flatMap((r) => r.notes);
          return { store: `${name}, ${moved ? "moved" : "kept"}, written at +${phase} ms`, failing, notes, moved };
        }),
      ),
    );
    const outcomes = await Promise.all(runs);
    expect(
      outcomes.filter(({ failing, moved, notes }) =>
        moved
          ? failing.length > 0 || notes.length > 0
          : failing.join() !== "session.lifetime.extension-outlives-first-expiry",
      ),
    ).toEqual([]);
  }, 30_000);
});
