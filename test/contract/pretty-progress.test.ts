// The pretty reporter draws exploration's progress on a terminal only, and
// clears it before the report: a run in CI prints no progress lines.
import { describe, expect, it } from "vitest";
import { prettyReporter } from "../../src/contract/reporters/pretty.js";

const context = { modulePath: "./adapter.ts", exportName: "default", color: false, verdictFlags: [] };
const progress = { type: "exploration:progress", runs: 3, steps: 41, of: 40 } as const;

describe("exploration progress in the pretty reporter", () => {
  it("on a terminal: how many sequences of how many, on one line that the next one replaces", () => {
    const report = prettyReporter({ ...context, interactive: true });
    expect(report(progress)).toBe("\r\u001b[K  exploring 3/40 sequences, 41 steps");
    expect(report({ ...progress, of: undefined })).toBe("\r\u001b[K  exploring 3 sequences, 41 steps");
  });

  it("elsewhere (CI, a file, a pipe): nothing", () => {
    expect(prettyReporter({ ...context, interactive: false })(progress)).toBeUndefined();
  });
});

describe("a run started again one call at a time in the pretty reporter", () => {
  const start = { type: "run:start" as const, seed: 1, capabilities: [], required: [] };
  const ended = {
    type: "case:end",
    result: { case: { id: "a" }, status: "passed", warnings: [], notes: [], leftovers: {}, durationMs: 1 },
  } as never;

  it("on a terminal: says so, and counts the cases again from none", () => {
    const report = prettyReporter({ ...context, interactive: true });
    report({ ...start, cases: [{ id: "a" }, { id: "b" }] as never });
    expect(report(ended)).toBe("\r  running 1/2");
    expect(report({ type: "run:again", reason: "getUser never settled beside other work" })).toBe(
      "\r\u001b[K  a call never settled: running again, one call at a time",
    );
    expect(report(ended)).toBe("\r  running 1/2");
  });
});
