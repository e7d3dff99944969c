// What a failure says: the call, the value sent and the value received come
// first; a wrong stored value is not blamed on shared objects; a cause the
// runner only infers is labelled as a possible one.
import { describe, expect, it } from "vitest";
import accessTokenTruncated from "../../fixtures/adapters/broken/access-token-truncated.js";
import aliasedResults from "../../fixtures/adapters/broken/aliased-results.js";
import expiryInWrongUnit from "../../fixtures/adapters/broken/expiry-in-wrong-unit.js";
import { allCases } from "../../src/contract/cases/index.js";
import { type CaseResult, runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";

async function failureOf(adapter: unknown, id: string): Promise<NonNullable<CaseResult["failure"]>> {
  const results: CaseResult[] = [];
  await runContract({
    adapter: adapter as AnyAdapter,
    cases: allCases.filter((c) => c.id === id),
    seed: 1,
    timeoutMs: 60_000,
    concurrency: 1,
    require: [],
    onEvent: (e) => e.type === "case:end" && results.push(e.result),
  });
  const result = results.find((r) => r.case.id === id)!;
  expect(result.status).toBe("failed");
  return result.failure!;
}

describe("failure messages", () => {
  it("a value the store changes on its own names the calls and both values, not copies", async () => {
    const { message, expected, received } = await failureOf(accessTokenTruncated(), "account.results-are-copies");
    // The fixture keeps the first 32 characters of the access token it was sent.
    const sent = JSON.parse(expected!) as string;
    expect(sent).toMatch(/^at-/);
    expect(JSON.parse(received!)).toBe(sent.slice(0, 32));
    expect(message).toContain(`linkAccount was sent ${expected}`);
    expect(message).toContain(`getAccount returned ${received}`);
    expect(message.indexOf(expected!)).toBeLessThan(
      message.indexOf("the store keeps a value other than the one written"),
    );
    expect(message).not.toMatch(/cop(y|ies)/);
  });

  it("a caller's change that reaches the store is still reported as the adapter not handing out copies", async () => {
    const { message } = await failureOf(aliasedResults(), "user.results-are-copies");
    expect(message).toMatch(/^getUser result\.email differs from what was written \(written "[^"]+", read "[^"]+"/);
    expect(message).toMatch(/instead of copies$/);
  });

  it("a record gone early: the call and the values first, the cause labelled as a possible one", async () => {
    const { message } = await failureOf(expiryInWrongUnit(), "session.lifetime.kept-until-expiry");
    expect(message).toMatch(
      /^getSessionAndUser\("[^"]+"\) returned null \d+\.\d s after createSession was sent expires Date\([^)]+\), minutes ahead, so the user is signed out; possible cause: /,
    );
    // Both explanations are offered as guesses, since the runner cannot tell them apart.
    expect(message).toMatch(/possible cause: a store-side lifetime in the wrong unit, or a call made meanwhile/);
  });
});
