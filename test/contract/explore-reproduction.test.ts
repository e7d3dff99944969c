// What the printed program of an exploration failure says, piece by piece: each test here stands for a way
// the program once showed something other than what the run reported (test/contract/reproduction.process.test.ts
// runs every mutant's program as printed).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { answerCopy } from "../../src/contract/access/answers.js";
import { fieldProblem } from "../../src/contract/explore/compare.js";
import { explore } from "../../src/contract/explore/run.js";
import { formatSnippet } from "../../src/contract/explore/snippet.js";
import { callCode, Ref, type TraceCall, type TraceStep } from "../../src/contract/explore/trace.js";
import type { AdapterMethod } from "../../src/contract/spec/adapter.js";
import { describeValue } from "../../src/contract/spec/failure.js";
import { fixture, tempDir } from "../helpers.js";

const failureWith = (trace: TraceStep[], extra: { expected?: string; received?: string } = {}) => ({
  message: "a failure",
  replay: "--seed 1",
  trace,
  ...extra,
});

/** The program's `show`, compiled, as the program would run it. */
function showOf(program: string): (value: unknown) => string {
  const from = program.indexOf("const fieldsRead");
  const to = program.indexOf("\n}\n", from) + 2;
  const { code } = transformSync(program.slice(from, to), { loader: "ts" });
  return new Function(`${code}; return show;`)();
}

async function exploreBroken(name: string, callTimeoutMs = 10_000, seed = 1) {
  const { default: factory } = await import(pathToFileURL(fixture("adapters", "broken", `${name}.ts`)).href);
  const result = await explore({ adapter: factory(), seed, runs: 300, callTimeoutMs, nonce: `unit-${name}` });
  expect(result.ok).toBe(false);
  return result.failure!;
}

class UserRow {
  id = "u1";
  isNewRecord = false;
  get email(): string | undefined {
    return undefined;
  }
  emailVerified = new Date("2026-01-02T03:04:05.000Z");
}

describe("the printed program of an exploration failure", () => {
  it("prints the result as the report does, a getter on a model instance read as the service reads it", () => {
    const cases: Array<[AdapterMethod, unknown]> = [
      ["getUser", new UserRow()],
      ["getUser", { id: "u1", email: "a@b.test", emailVerified: null, name: "x".repeat(90), image: undefined }],
      [
        "getSessionAndUser",
        { session: { sessionToken: "t", userId: "u1", expires: new Date(0) }, user: new UserRow() },
      ],
      ["listAuthenticatorsByUserId", [{ credentialID: "c", counter: "0", credentialBackedUp: false }]],
      ["getUser", null],
    ];
    for (const [method, value] of cases) {
      const program = formatSnippet(failureWith([{ calls: [{ method, args: ["u1"] }] }]), "./adapter.ts");
      // console.log would print the instance's own fields and not the getter's undefined email the report names.
      expect(showOf(program)(value)).toBe(describeValue(answerCopy(method, value)));
    }
  });

  it("names a record the expectation names by the id it has in the program, not the run's", () => {
    const trace: TraceStep[] = [
      { calls: [{ method: "createUser", args: [{ email: "a@b.test" }], assign: "user3" }] },
      { calls: [{ method: "getUser", args: [new Ref("user3.id", "run-id-3")] }] },
    ];
    const program = formatSnippet(failureWith(trace, { expected: 'user3 (id "run-id-3")' }), "./adapter.ts");
    expect(program).toContain('console.log("expected:", "user3 (id " + show(user3.id) + ")");');
    expect(program).not.toContain("run-id-3");
  });

  it("reports the whole user a lookup returned in place of another, not only its id", async () => {
    // Seed 2's smallest sequence shows the lookup answering with another user (seed 1's: with a deleted one).
    const failure = await exploreBroken("user-by-account-ignores-provider", 10_000, 2);
    expect(failure.message).toMatch(/^getUserByAccount returned user\d+ instead of user\d+/);
    expect(failure.received).toMatch(/^\{ id: ".+", email: /);
  });

  it("ends a change a caller made at the read that showed it, read once, as the run read it", async () => {
    const failure = await exploreBroken("returns-stored-objects");
    const calls = failure.trace.flatMap((step) => step.calls).map((call) => callCode(call));
    // Before, the reads the run made after the one that showed the change were printed too (the rest of its
    // sweep, and the same read asked again alone), and the program's last read showed the change made twice.
    expect(calls).toEqual([expect.stringMatching(/^createUser\(/), "getUser(user1.id)"]);
  });

  it("waits for a call that never settled as long as the run did, then says what it received", async () => {
    const failure = await exploreBroken("hangs", 300);
    expect(failure.received).toBe("no answer within 300 ms");
    const program = formatSnippet(failure, "./adapter.ts");
    expect(program).toContain('console.log("received:", "no answer within 300 ms");\n  process.exit(1);\n}, 300);');
    expect(program).toContain("  clearTimeout(noAnswer);");
  });

  it("goes on past a call that threw in the run as the contract allows, alone or beside another", async () => {
    // A store that refuses a second user with the same email, as a unique index does.
    const dir = tempDir("create-auth-threw-");
    const adapterModule = join(dir, "adapter.mjs");
    writeFileSync(
      adapterModule,
      [
        "const users = new Map();",
        "export default () => ({",
        "  async createUser(user) {",
        "    if ([...users.values()].some((u) => u.email === user.email)) throw new Error('duplicate email');",
        "    const made = { ...user, id: `id-${users.size + 1}` };",
        "    users.set(made.id, made);",
        "    return made;",
        "  },",
        "  async getUser(id) { return users.get(id) ?? null; },",
        "});",
      ].join("\n"),
    );
    const create = (email: string, assign?: string, threw?: boolean): TraceCall => ({
      method: "createUser",
      args: [{ email }],
      ...(assign ? { assign } : {}),
      ...(threw ? { threw } : {}),
    });
    const trace: TraceStep[] = [
      { calls: [create("a@b.test", "user1")] },
      { calls: [create("a@b.test", undefined, true)] },
      { calls: [create("c@b.test", "user2"), create("c@b.test", "user3", true)] },
      { calls: [{ method: "getUser", args: [new Ref("user2.id", "id-3")] }] },
    ];
    const program = formatSnippet(failureWith(trace, { expected: "null" }), pathToFileURL(adapterModule).href);
    const file = join(dir, "repro.mjs");
    writeFileSync(file, transformSync(program, { loader: "ts", format: "esm" }).code);
    const run = await execa(process.execPath, [file], { reject: false });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe('expected: null\nreceived: { email: "c@b.test", id: "id-2" }');
  });

  it("says where two long strings part when their shortened forms read alike", () => {
    const written = `${"A".repeat(100)}B`;
    expect(fieldProblem({ token: written.slice(0, 90) }, { token: written })).toMatch(
      /^token is "A{77}\.\.\.", expected "A{77}\.\.\." \(90 characters, expected 101; the first 90 agree\)$/,
    );
    expect(fieldProblem({ token: `${"A".repeat(99)}CB` }, { token: written })).toMatch(
      /\(101 characters, expected 101; they differ from character 100\)$/,
    );
    expect(fieldProblem({ token: "short" }, { token: "other" })).toBe('token is "short", expected "other"');
  });
});
