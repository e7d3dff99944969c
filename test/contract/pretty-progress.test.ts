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
