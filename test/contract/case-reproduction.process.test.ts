// Every case that fails over the project's broken adapters (fixtures/adapters/broken/) prints the command
// that re-runs it alone. Here each whole run is made by the built CLI, and each printed command is run as
// printed, by a shell, in a fresh process: the same case must fail with the same message, expected and
// received, with only the values a fresh run makes differently set aside (its unique ids, tokens and
// addresses, its dates, how long it waited), and which of them is which kept. The re-run must print the
// same command again. Four processes run at a time.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { inert } from "../../src/contract/reporters/reporter.js";
import { cli, fixture, root, tempDir } from "../helpers.js";
import { limiter } from "../support/limiter.js";

const seed = 7;
const dir = fixture("adapters", "broken");
const expected: Record<string, { failing: string[] }> = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
const fixtures = Object.keys(expected).sort();
// Only the fixture that never answers needs the limit to fire, and sooner than the default; the re-run must
// carry it. Two seconds, not less: on a loaded machine a shorter limit fails cases that do answer.
const flagsFor = (name: string) => (name === "hangs" ? ["--timeout", "2000"] : []);

interface Failure {
  message: string;
  expected?: string;
  received?: string;
  reproduction?: string;
}

/**
 * The failure with what each run makes afresh replaced: values drawn from the run's own nonce (uuids, the
 * `+/+/` credential ids, hex runs of eight or more: addresses, tokens, provider names), numbered in the order
 * they first appear, so "expected the first, received the second" still differs from "received the first";
 * dates, which follow the clock; and the seconds a case waited.
 */
function normalised(failure: Failure): string {
  const text = [failure.message, `expected: ${failure.expected}`, `received: ${failure.received}`].join("\n");
  const numbered = new Map<string, string>();
  const number = (value: string) => {
    if (!numbered.has(value)) numbered.set(value, `<value ${numbered.size + 1}>`);
    return numbered.get(value)!;
  };
  return text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<date>")
    .replace(/\b\d+\.\d s after\b/g, "<seconds> s after")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, number)
    .replace(/\+\/\+\/[A-Za-z0-9+/]+=*/g, number)
    .replace(/\b[0-9a-f]{8,}\b/g, number);
}

/** The failures the pretty reporter printed, by case id (message, expected, received, reproduce). */
function prettyFailures(stdout: string): Map<string, Failure> {
  const found = new Map<string, Failure>();
  const lines = stdout.split("\n");
  for (const [i, line] of lines.entries()) {
    const head = /^ {2}\d+\) (\S+)$/.exec(line);
    if (!head) continue;
    const failure: Failure = { message: lines[i + 2]!.slice(5) };
    for (const detail of lines.slice(i + 3)) {
      const field = /^ {5}(expected|received|reproduce): (.*)$/.exec(detail);
      if (!field) break;
      if (field[1] === "reproduce") failure.reproduction = field[2];
      else failure[field[1] as "expected" | "received"] = field[2];
    }
    found.set(head[1]!, failure);
  }
  return found;
}

/** What differs between the whole run's failure and the re-run's, in words; undefined when they agree. */
function difference(whole: Failure, again: Failure | undefined): string | undefined {
  if (!again) return "the case did not fail when re-run alone";
  // The pretty reporter shows adapter text inert (control characters escaped); the JSON report keeps it raw.
  const shown = (f: Failure) => ({
    message: inert(f.message),
    expected: f.expected === undefined ? undefined : inert(f.expected),
    received: f.received === undefined ? undefined : inert(f.received),
  });
  const want = normalised(shown(whole));
  const got = normalised(again);
  if (want !== got) return `the failure differs:\n--- whole run\n${want}\n--- alone\n${got}`;
  if (again.reproduction !== whole.reproduction)
    return `the re-run prints another command: ${again.reproduction} instead of ${whole.reproduction}`;
  return undefined;
}

/** Four processes at a time: each is a CLI and its worker compiling TypeScript, on a machine of two cores. */
const inSlot = limiter(4);

/** A folder holding `create-auth`, the built CLI, so a printed command runs as a user's shell runs it. */
function commandOnPath(): string {
  const bin = tempDir("create-auth-case-repro-");
  const file = join(bin, "create-auth");
  writeFileSync(
    file,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, "bin", "create-auth.js"))} "$@"\n`,
  );
  chmodSync(file, 0o755);
  return bin;
}

async function wholeRun(module: string, flags: string[]) {
  const run = await inSlot(() =>
    cli(["verify-adapter", module, "--seed", String(seed), "--explore", "0", "--reporter", "json", ...flags]),
  );
  const report = JSON.parse(run.stdout) as {
    cases: Array<{ id: string; status: string; failure?: Failure; reproduction?: string }>;
  };
  return report.cases
    .filter((c) => c.status === "failed")
    .map((c) => ({ id: c.id, failure: { ...c.failure!, reproduction: c.reproduction } }));
}

async function runAsPrinted(command: string, bin: string) {
  const run = await inSlot(() =>
    execa(command, {
      shell: "/bin/sh",
      cwd: root,
      env: { PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1" },
      reject: false,
      timeout: 60_000,
    }),
  );
  return { run, failures: prettyFailures(run.stdout) };
}

describe("a failing case's printed command re-runs it alone, and it fails the same way", () => {
  const bin = commandOnPath();

  it("the check tells failures apart: which id came back, a different message, a case that passes", () => {
    const base = { message: 'getSessionAndUser("1b9e…") returned the user this case created second', expected: "x" };
    const twice = (a: string, b: string) => ({ ...base, expected: `"${a}"`, received: `"${b}"` });
    const [u1, u2, u3] = [
      "6f1c2a4e-0d3b-4c8e-9a7f-1e2d3c4b5a69",
      "0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d",
      "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f",
    ];
    // A fresh run's ids are set aside, but which is which is kept.
    expect(difference(twice(u1, u2), { ...twice(u2, u3), reproduction: undefined })).toBeUndefined();
    expect(difference(twice(u1, u2), twice(u3, u3))).toMatch(/the failure differs/);
    expect(
      difference(twice(u1, u2), { ...twice(u1, u2), message: `${base.message.replace("second", "third")}` }),
    ).toMatch(/the failure differs/);
    expect(difference(twice(u1, u2), undefined)).toMatch(/did not fail/);
    expect(difference({ ...twice(u1, u2), reproduction: "a" }, { ...twice(u1, u2), reproduction: "b" })).toMatch(
      /another command/,
    );
  });

  it("a reproduction run against an adapter without the bug shows no failure, and the check says so", async () => {
    const module = "fixtures/adapters/broken/session-and-user-wrong-user.ts";
    const [first] = await wholeRun(module, []);
    expect(first?.failure.reproduction).toContain(`--only ${first!.id}`);
    const correct = first!.failure.reproduction!.replace(module, "fixtures/adapters/memory.ts");
    const { run, failures } = await runAsPrinted(correct, bin);
    expect(run.exitCode, run.all).toBe(0);
    expect(difference(first!.failure, failures.get(first!.id))).toMatch(/did not fail/);
  }, 60_000);

  it.concurrent.each(fixtures)(
    "%s",
    async (name) => {
      const module = `fixtures/adapters/broken/${name}.ts`;
      const failed = await wholeRun(module, flagsFor(name));
      // The run fails what the fixture is known to fail, so every failure of the mutant set is re-run below.
      expect(failed.map((f) => f.id).sort()).toEqual([...expected[name]!.failing].sort());
      const problems = await Promise.all(
        failed.map(async ({ id, failure }) => {
          expect(failure.reproduction, id).toMatch(/^create-auth verify-adapter /);
          const { run, failures } = await runAsPrinted(failure.reproduction!, bin);
          const problem = difference(failure, failures.get(id));
          return problem && `${id}: ${problem}\n--- ran: ${failure.reproduction}\n${run.stdout}${run.stderr}`;
        }),
      );
      expect(problems.filter(Boolean)).toEqual([]);
      // Generous: the fixtures share four slots in turn, and a late one waits for the others' runs.
    },
    900_000,
  );
});
