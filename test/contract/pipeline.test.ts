// The run pipeline: what runs beside the cases prepares first; cases that let
// real time pass start first and finish after the other cases, in an order
// the seed alone fixes (in one lane);
// opt-in groups run only when named; create-auth/vitest selects the same way.
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { createMemoryAdapter } from "../../fixtures/adapters/memory.js";
import { allCases } from "../../src/contract/cases/index.js";
import { type RunEvent, runContract } from "../../src/contract/run/runner.js";
import { selectRun, selectWith } from "../../src/contract/run/select.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { type ContractCase, defineCases, optInCases } from "../../src/contract/spec/case.js";

/** A case that writes, lets `ms` of real time pass, then reads. */
const waitingFor = (ms: number) =>
  defineCases([
    {
      id: "test.waits",
      title: `writes, waits ${ms} ms, reads`,
      section: "§3",
      capability: "users",
      needs: ["createUser", "getUser"],
      waits: true,
      async run(t) {
        const user = await t.createUser();
        const written = Date.now();
        await t.later(written + ms);
        t.check(Date.now() >= written + ms, "resumed before its time");
        t.sameId((await t.call("getUser", user.id)).id, user.id, "the user after the wait");
      },
    },
  ]);
const waiting = waitingFor(1000);
const plain = allCases.filter((c) => c.id === "user.get.by-id" || c.id === "session.get.unknown-token-is-null");

/** Every adapter call in order, and the run's events. */
// A limit no loaded machine reaches, unless a test is about the limit: a busy CI machine once took over 2 s for a case.
async function traced(cases: ContractCase[], timeoutMs = 60_000) {
  const calls: string[] = [];
  const memory = createMemoryAdapter() as Record<string, (...args: unknown[]) => unknown>;
  const adapter: AnyAdapter = {};
  for (const [name, method] of Object.entries(memory))
    (adapter as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.push(name);
      return method(...args);
    };
  const events: RunEvent[] = [];
  const summary = await runContract({
    adapter,
    cases,
    seed: 3,
    timeoutMs,
    concurrency: 1,
    require: [],
    onEvent: (e) => events.push(e),
    beside: {
      async start(_port, _hung, turns) {
        calls.push("beside");
        await turns.mayPrepare();
        calls.push("beside prepares");
        turns.prepared();
        await turns.alone();
        calls.push("beside decides");
      },
    },
  });
  return { calls, events, summary };
}

describe("cases that let real time pass", () => {
  it("start first, stop where they wait, and finish after the other cases; what runs beside decides after them", async () => {
    const { calls, events, summary } = await traced([...plain, ...waiting]);
    expect(summary).toMatchObject({ ok: true, passed: 3 });
    const order = events.flatMap((e) =>
      e.type === "case:start" ? [`start ${e.case.id}`] : e.type === "case:end" ? [`end ${e.result.case.id}`] : [],
    );
    expect(order).toEqual([
      "start test.waits",
      "start user.get.by-id",
      "end user.get.by-id",
      "start session.get.unknown-token-is-null",
      "end session.get.unknown-token-is-null",
      "end test.waits",
    ]);
    // The waiting case's write comes first, so its time passes while what runs beside prepares, alone;
    // then the other cases' calls; what runs beside decides once every case is done.
    expect(calls.slice(0, 3)).toEqual(["beside", "createUser", "beside prepares"]);
    expect(calls.indexOf("beside prepares")).toBeLessThan(calls.indexOf("getUser"));
    expect(calls.at(-1)).toBe("beside decides");
  });

  it("the time limit does not run while a case waits", async () => {
    // The wait is two and a half limits long and the limit two seconds (the case's own two calls take
    // milliseconds), so the case passes only if the wait is not counted, on any machine's speed.
    const { summary } = await traced(waitingFor(5000), 2000);
    expect(summary).toMatchObject({ ok: true, passed: 1 });
  });

  it("the same seed makes the same calls in the same order, run after run", async () => {
    const first = await traced([...plain, ...waiting]);
    const second = await traced([...plain, ...waiting]);
    expect(second.calls).toEqual(first.calls);
  });
});

describe("selection", () => {
  const extra = optInCases(
    defineCases([{ ...waiting[0]!, id: "rotation.extra", title: "an opt-in check", waits: false }]),
  );
  const registry = [...plain, ...extra];

  it("leaves an opt-in group out unless --only names it", async () => {
    expect((await selectRun(registry, [], [])).cases.map((c) => c.id)).toEqual(plain.map((c) => c.id));
    expect((await selectRun(registry, [], ["user.*"])).cases.map((c) => c.id)).toEqual([
      "session.get.unknown-token-is-null",
    ]);
    expect((await selectRun(registry, ["rotation.*"], [])).cases.map((c) => c.id)).toEqual(["rotation.extra"]);
  });

  it("create-auth/vitest's selection is the CLI's: the same cases, the same usage errors", async () => {
    const only = ["user.*", "explore"];
    const cli = await selectRun(allCases, only, [], ["explore"]);
    const vitest = selectWith(picomatch, allCases, only, [], ["explore"]);
    expect(vitest.cases.map((c) => c.id)).toEqual(cli.cases.map((c) => c.id));
    expect(() => selectWith(picomatch, allCases, ["usr.*"], [])).toThrow(/--only usr\.\* matches no case/);
  });
});
