// verify-adapter runs the exploration beside the cases, and the cases in four
// lanes: the verdict must still be the one a run one after another gives,
// the cases alone in one lane and the exploration alone after them. Each
// fault here shows only when the cases and the exploration overlap, or is a
// planted one that shows in each alone; overlapped, under random turns of the
// event loop, the same cases fail the same way and the exploration reports
// the same failure.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter, AdapterUser } from "@auth/core/adapters";
import { describe, expect, it } from "vitest";
import { createMemoryAdapter } from "../../fixtures/adapters/memory.js";
import { HungMethods } from "../../src/contract/access/calls.js";
import { allCases } from "../../src/contract/cases/index.js";
import { explore } from "../../src/contract/explore/run.js";
import { runContract } from "../../src/contract/run/runner.js";
import type { RunSummary } from "../../src/contract/run/summary.js";
import { runVerification } from "../../src/contract/run/verification.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { fixture } from "../helpers.js";
import { underLoad } from "../support/slowed-adapter.js";

/**
 * Whose a user is, by its address: an exploration's carries its salt as a label of ten letters and digits
 * (see fixtures/adapters/overlap-only/), a case's plain users are user-<16 hex>@example.test; the cases'
 * other addresses (unusual characters, long domains) are neither, and neither wipe nor are wiped.
 */
function sideOf(email: string | null | undefined): "cases" | "exploration" | undefined {
  if (!email) return undefined;
  if (/^user-[0-9a-f]{16}@example\.test$/.test(email)) return "cases";
  const labels = email.slice(email.lastIndexOf("@") + 1).split(".");
  if (labels.some((l) => /^[0-9a-z]{10}$/.test(l) && /\d/.test(l) && /[a-z]/.test(l))) return "exploration";
  return undefined;
}

/**
 * A store that mixes up the two sides: deleting a case's user also deletes every exploration's user, and
 * creating an exploration's user deletes every case's user. Alone, each side passes; side by side, each
 * sees the other's calls take its users.
 */
function crossWipingAdapter(): { adapter: Adapter; wiped: { byCases: number; byExploration: number } } {
  const adapter: any = createMemoryAdapter();
  const { createUser, deleteUser, updateUser } = adapter;
  const emails = new Map<string, string | null | undefined>();
  const wiped = { byCases: 0, byExploration: 0 };
  const wipe = async (side: "cases" | "exploration") => {
    for (const [id, email] of [...emails]) {
      const other = sideOf(email);
      if (other === undefined || other === side) continue;
      emails.delete(id);
      await deleteUser(id);
      if (side === "cases") wiped.byCases++;
      else wiped.byExploration++;
    }
  };
  adapter.createUser = async (user: AdapterUser) => {
    const created = await createUser(user);
    emails.set(created.id, created.email);
    if (sideOf(created.email) === "exploration") await wipe("exploration");
    return created;
  };
  adapter.updateUser = async (user: Partial<AdapterUser> & { id: string }) => {
    const updated = await updateUser(user);
    if (user.email !== undefined) emails.set(user.id, user.email);
    return updated;
  };
  adapter.deleteUser = async (userId: string) => {
    const side = sideOf(emails.get(userId));
    const deleted = await deleteUser(userId);
    emails.delete(userId);
    if (side === "cases") await wipe("cases");
    return deleted;
  };
  return { adapter, wiped };
}

const seed = 5;
// The exploration's values come from the nonce: the same one, so its reported steps compare as they are.
const nonce = "same-salts";
const runs = 40;
// A limit no loaded machine reaches, but for the store that never answers: there the limit must fire, soon.
const limitFor = (path: string) => (path.endsWith("/hangs.ts") ? 2000 : 60_000);
/**
 * What each run makes afresh set aside: ids, the values a case draws from the run's nonce (hex runs,
 * numbered in the order they first appear, so which is which still counts), dates and times.
 */
function masker() {
  const numbered = new Map<string, string>();
  const number = (value: string) => {
    if (!numbered.has(value)) numbered.set(value, `<value ${numbered.size + 1}>`);
    return numbered.get(value)!;
  };
  return (text: string | undefined) =>
    text
      ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})?/g, "<id>")
      .replace(/\+\/\+\/[A-Za-z0-9+/]+=*/g, number)
      .replace(/\b[0-9a-f]{8,}\b/g, number)
      .replace(/Date\([^)]*\)/g, "Date")
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<date>")
      .replace(/number \d{10}\b/g, "<seconds since 1970>")
      .replace(/\b\d+\.\d s after\b/g, "<seconds> s after");
}

/** What must not depend on overlap: which cases fail and how, and the exploration's verdict and failure. */
function verdict(
  cases: Array<{ id: string; message?: string; expected?: string; received?: string }>,
  exploration: { ok: boolean; failure?: { message: string; steps: string[]; replay: string } } | undefined,
) {
  const mask = masker();
  return {
    cases: cases.map((c) => ({
      ...c,
      message: mask(c.message),
      expected: mask(c.expected),
      received: mask(c.received),
    })),
    exploration: exploration && {
      ok: exploration.ok,
      failure: exploration.failure && {
        message: mask(exploration.failure.message),
        steps: exploration.failure.steps.map((s) => mask(s)),
        replay: exploration.failure.replay,
      },
    },
  };
}

const failedCases = (results: Array<{ case: { id: string }; status: string; failure?: Record<string, unknown> }>) =>
  results
    .filter((r) => r.status === "failed")
    .map((r) => ({
      id: r.case.id,
      message: r.failure!.message as string,
      expected: r.failure!.expected as string | undefined,
      received: r.failure!.received as string | undefined,
    }));

/** One after another: the cases in one lane, alone, then the exploration alone on a fresh store. */
async function oneAfterAnother(make: () => AnyAdapter, timeoutMs = 60_000) {
  const results: Parameters<typeof failedCases>[0] = [];
  const hung = new HungMethods();
  await runContract({
    hung,
    adapter: make(),
    cases: allCases,
    seed,
    nonce,
    timeoutMs,
    concurrency: 1,
    require: [],
    onEvent: (e) => e.type === "run:end" && results.push(...e.results),
  });
  // What hung in the cases is not called by the exploration; when the adapter stopped answering, none runs.
  const exploration = hung.stopped
    ? undefined
    : await explore({ adapter: make(), seed, runs, callTimeoutMs: timeoutMs, nonce, hung });
  return verdict(failedCases(results), exploration);
}

/** As verify-adapter runs: the exploration beside the cases, the cases in four lanes. */
async function overlapped(adapter: AnyAdapter, timeoutMs = 60_000) {
  const end = await runVerification({
    adapter,
    selection: { cases: allCases, parts: ["explore"] },
    seed,
    nonce,
    timeoutMs,
    concurrency: 4,
    require: [],
    strict: false,
    explore: { runs },
    modulePath: "./adapter.ts",
    exportName: "default",
    onEvent: () => undefined,
  });
  const summary: RunSummary = end.summary;
  return verdict(failedCases(end.results), summary.exploration);
}

describe("the exploration beside the cases, the cases in lanes: the verdict of a run one after another", () => {
  it.concurrent("a fault only the overlap of cases and exploration shows fails neither", async () => {
    const sequential = await oneAfterAnother(() => crossWipingAdapter().adapter as AnyAdapter);
    expect(sequential).toEqual({ cases: [], exploration: { ok: true, failure: undefined } });
    for (const load of [false, true]) {
      const { adapter, wiped } = crossWipingAdapter();
      const result = await overlapped(load ? underLoad(adapter as AnyAdapter) : (adapter as AnyAdapter));
      // The two sides did overlap, each took the other's users, and still nothing is reported.
      expect(wiped.byCases, "users the cases' deletes took").toBeGreaterThan(0);
      expect(wiped.byExploration, "users the exploration's deletes took").toBeGreaterThan(0);
      expect(result, load ? "under load" : "quiet").toEqual(sequential);
    }
  }, 120_000);

  for (const name of ["get-account-ignores-provider", "session-and-user-wrong-user", "delete-user-keeps-sessions"])
    it.concurrent(`${name}: the same failing cases and the same exploration failure, quiet and under load`, async () => {
      const { default: make } = await import(pathToFileURL(join(fixture("adapters", "broken"), `${name}.ts`)).href);
      const sequential = await oneAfterAnother(() => make() as AnyAdapter);
      expect(sequential.cases.length).toBeGreaterThan(0);
      expect(await overlapped(make() as AnyAdapter)).toEqual(sequential);
      expect(await overlapped(underLoad(make() as AnyAdapter))).toEqual(sequential);
    }, 120_000);

  // Every planted fault of the project's mutant set: the same failing cases and the same exploration failure
  // as one after another. Memory stores, as many at a time as vitest runs concurrent tests (five): a run
  // mostly waits for the lifetime cases' second to pass, so more side by side cost no more CPU.
  const mutants = (["broken", "unlisted", "overlap-only"] as const).flatMap((folder) =>
    readdirSync(fixture("adapters", folder))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => ({ name: `${folder}/${f}`, path: join(fixture("adapters", folder), f) })),
  );
  it.concurrent.each(mutants)(
    "$name",
    async ({ path }) => {
      const { default: make } = await import(pathToFileURL(path).href);
      const sequential = await oneAfterAnother(() => make() as AnyAdapter, limitFor(path));
      expect(await overlapped(make() as AnyAdapter, limitFor(path))).toEqual(sequential);
    },
    600_000,
  );
});
