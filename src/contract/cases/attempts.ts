/**
 * The attempt counters a sign-in throttle keeps through the adapter (§4.2
 * lets an adapter be extended): incrementAttempts, decrementAttempts and
 * clearAttempts, as create-auth's adapters have them. An opt-in group
 * (`--require attempts`, or --only 'attempts.*'): the service itself never
 * calls them, so they never change the verdict on its 19 operations. What
 * they must do is what a throttle relies on: counts that add up when many
 * attempts are counted at once (several processes of one app), a window that
 * ends when its time has passed, and a clear or a taking back that touches
 * only its own counter.
 */
import type { CaseContext } from "../access/context.js";
import { defineCases, optInCases } from "../spec/case.js";
import { ContractFailure } from "../spec/failure.js";

/** Long next to the run: these counters must not end while a case reads them. */
const WINDOW_MS = 10 * 60 * 1000;
/** Short enough to end while the run goes on. */
const SHORT_WINDOW_MS = 1000;
const AT_ONCE = 20;

/** A key no other case or run uses, shaped as a throttle's ("<kind>:<scope>:<hash>"). */
const newKey = (t: CaseContext) => `verify:${t.data.unknownId()}:${t.data.unknownId().replace(/-/g, "")}`;

async function count(t: CaseContext, key: string, windowMs = WINDOW_MS): Promise<number> {
  const value = await t.call("incrementAttempts", key, windowMs);
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new ContractFailure("incrementAttempts did not answer a whole number", {
      expected: "the counter's attempts, a number",
      received: JSON.stringify(value),
    });
  return value;
}

function expectCount(received: number, expected: number, what: string): void {
  if (received !== expected)
    throw new ContractFailure(what, { expected: String(expected), received: String(received) });
}

export const attemptCases = optInCases(
  defineCases([
    {
      id: "attempts.count-per-key",
      title: "incrementAttempts counts 1, 2, 3 under a key, and another key counts on its own",
      section: "§4.2",
      capability: "users",
      needs: ["incrementAttempts", "clearAttempts"],
      async run(t) {
        const [key, other] = [newKey(t), newKey(t)];
        for (let i = 1; i <= 3; i++)
          expectCount(await count(t, key), i, `incrementAttempts answered another count for attempt ${i}`);
        expectCount(await count(t, other), 1, "incrementAttempts of a fresh key did not start at 1");
        await t.call("clearAttempts", key);
        await t.call("clearAttempts", other);
      },
    },
    {
      id: "attempts.at-once-none-lost",
      title: `${AT_ONCE} attempts counted at once under one key all count: none is lost, none counted twice`,
      section: "§4.2",
      capability: "users",
      needs: ["incrementAttempts", "clearAttempts"],
      async run(t) {
        const key = newKey(t);
        const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => count(t, key)));
        // A store may answer what it reads after its write (MySQL has no RETURNING): never less than its own count.
        const highest = Math.max(...answers);
        if (highest !== AT_ONCE || answers.some((n) => n < 1 || n > AT_ONCE))
          throw new ContractFailure(
            "attempts counted at the same time did not add up: a throttle lets through more than its limit when several processes count",
            { expected: `answers from 1 to ${AT_ONCE}, the highest ${AT_ONCE}`, received: JSON.stringify(answers) },
          );
        expectCount(
          await count(t, key),
          AT_ONCE + 1,
          "the count after attempts made at once is not their number plus one: a count was lost",
        );
        await t.call("clearAttempts", key);
      },
    },
    {
      id: "attempts.decrement-and-clear",
      title:
        "decrementAttempts takes one back (never below 0, creating nothing), clearAttempts removes the counter, each only its own",
      section: "§4.2",
      capability: "users",
      needs: ["incrementAttempts", "decrementAttempts", "clearAttempts"],
      async run(t) {
        const [key, other] = [newKey(t), newKey(t)];
        for (let i = 0; i < 3; i++) await count(t, key);
        await count(t, other);
        await t.call("decrementAttempts", key);
        expectCount(await count(t, key), 3, "after three attempts and one taken back, the next count is not 3");
        await t.call("clearAttempts", key);
        expectCount(await count(t, key), 1, "a cleared counter did not start again at 1");
        for (let i = 0; i < 3; i++) await t.call("decrementAttempts", key);
        expectCount(await count(t, key), 1, "decrementAttempts took a counter below 0");
        const fresh = newKey(t);
        await t.call("decrementAttempts", fresh);
        expectCount(await count(t, fresh), 1, "decrementAttempts of a missing counter made one");
        expectCount(await count(t, other), 2, "decrementing or clearing one counter changed another");
        for (const k of [key, other, fresh]) await t.call("clearAttempts", k);
      },
    },
    {
      id: "attempts.window-ends",
      title: "a counter's window ends when its time has passed: the next attempt counts 1 again (real time passes)",
      section: "§4.2",
      capability: "users",
      needs: ["incrementAttempts", "clearAttempts"],
      waits: true,
      async run(t) {
        const [short, long] = [newKey(t), newKey(t)];
        const written = Date.now();
        for (let i = 0; i < 3; i++) {
          await count(t, short, SHORT_WINDOW_MS);
          await count(t, long);
        }
        await t.later(written + SHORT_WINDOW_MS + 500);
        expectCount(
          await count(t, short, SHORT_WINDOW_MS),
          1,
          "a counter whose window had passed did not start again at 1: a throttle would refuse forever",
        );
        expectCount(await count(t, long), 4, "a counter whose window had not passed started again");
        await t.call("clearAttempts", short);
        await t.call("clearAttempts", long);
      },
    },
  ]),
);
