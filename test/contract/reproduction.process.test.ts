// Every failure the exploration reports over the project's own mutant set (fixtures/adapters/broken/ and
// fixtures/adapters/unlisted/) comes with a program that is said to reproduce it. Here each one is run as
// printed, in a fresh Node process, and must show the same failure: the same received value (or the same
// throw, or no answer) and the same expectation, with only what a fresh store makes differently set aside
// (the ids it generates, and a time it stamps itself, a little later in a later process). The exploration
// itself runs in this process; the programs run three at a time.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { ExploreFailure } from "../../src/contract/explore/result.js";
import { explore } from "../../src/contract/explore/run.js";
import { formatSnippet } from "../../src/contract/explore/snippet.js";
import { fixture, root, tempDir } from "../helpers.js";
import { limiter } from "../support/limiter.js";

const folders = ["broken", "unlisted"] as const;
const mutants = folders.flatMap((folder) =>
  readdirSync(fixture("adapters", folder))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ folder, name: f.slice(0, -3), path: fixture("adapters", folder, f) })),
);

/** Mutants whose exploration reports no failure, so there is no program to run; their verdicts are tested elsewhere. */
const noFailure: Record<string, string> = {
  "delete-session-returns-nothing": "a warning only: the service ignores what deleteSession returns",
  "no-webauthn": "a missing capability, not a fault: the exploration leaves out the methods it lacks",
  "expiry-in-wrong-unit": "shows only once real time passes, which the lifetime cases wait for and sequences do not",
  "session-expiry-kept-on-extension": "shows only once real time passes, as above",
  "session-expiry-whole-second-kept-on-extension": "shows only once real time passes, as above",
  "session-ttl-seconds-kept-on-extension": "shows only once real time passes, as above",
  "email-lookup-ignores-case": "a warning only: a case-insensitive collation is tolerated",
  "token-use-ignores-case": "a warning only: a case-insensitive collation is tolerated",
};

/** Ids a fresh store makes differ from the run's: set aside, by kind. */
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const withoutIds = (text: string) => text.replace(uuid, "<id>");
const dateToken = /Date\(([^)]+)\)/g;

/**
 * Whether `printed` shows `reported` (as a whole, or as the part of the result the report names): equal but for
 * generated ids and the times a store stamps itself, which may be later by up to `laterMs`, never earlier.
 */
function shows(printed: string, reported: string, laterMs: number, whole: boolean): boolean {
  const want = withoutIds(reported);
  const pattern = want
    .split(dateToken)
    .map((part, i) => (i % 2 === 1 ? "Date\\(([^)]+)\\)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const match = new RegExp(whole ? `^${pattern}$` : pattern).exec(withoutIds(printed));
  if (!match) return false;
  const dates = [...want.matchAll(dateToken)].map((m) => Date.parse(m[1]!));
  return dates.every((at, i) => {
    const shift = Date.parse(match[i + 1]!) - at;
    return shift === 0 || (shift > 0 && shift <= laterMs);
  });
}

/** For each id the expectation names, whether the received value holds it too. */
const sharedIds = (expected: string, received: string) =>
  (expected.match(uuid) ?? []).map((id) => received.includes(id));

async function failureOf(path: string, name: string): Promise<ExploreFailure | undefined> {
  const { default: factory } = await import(pathToFileURL(path).href);
  for (const seed of [1, 2, 3]) {
    const result = await explore({
      adapter: factory(),
      seed,
      runs: 300,
      // Only the fixture that never answers needs the limit to fire; the others get one a loaded machine never reaches.
      callTimeoutMs: name === "hangs" ? 300 : 10_000,
      nonce: `repro-${name}-${seed}`,
    });
    if (result.failure) return result.failure;
  }
  return undefined;
}

/** Three programs at a time: each is a Node process compiling TypeScript, on a machine of two cores. */
const inSlot = limiter(3);

async function runAsPrinted(program: string, name: string, dir: string) {
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, program);
  return inSlot(() =>
    execa(process.execPath, ["--import", "tsx", file], { reject: false, cwd: root, timeout: 30_000, all: true }),
  );
}

const line = (stdout: string, label: string) =>
  stdout
    .split("\n")
    .find((l) => l.startsWith(`${label}: `))
    ?.slice(label.length + 2);

describe("the program printed for each failure over the mutant set shows that failure when run as printed", () => {
  it("every mutant is checked below or skipped by name with its reason", () => {
    const names = mutants.map((m) => m.name);
    for (const name of Object.keys(noFailure)) expect(names).toContain(name);
    expect(names.length).toBeGreaterThanOrEqual(45);
    const expected = folders.flatMap((folder) =>
      Object.keys(JSON.parse(readFileSync(fixture("adapters", folder, "expected.json"), "utf8"))),
    );
    expect(names.sort()).toEqual(expected.sort());
  });

  for (const { name, path } of mutants) {
    if (name in noFailure) {
      it.skip(`${name}: ${noFailure[name]}`, () => {});
      continue;
    }
    it.concurrent(name, async ({ onTestFinished }) => {
      const started = Date.now();
      const failure = await failureOf(path, name);
      expect(failure, "the exploration found no failure: list it among those without one").toBeDefined();
      const program = formatSnippet(failure!, pathToFileURL(path).href);
      const run = await runAsPrinted(program, name, tempDir(`create-auth-repro-${name}-`, { onTestFinished }));
      const laterMs = Date.now() - started + 1000;
      const context = `${failure!.message}\nreported received: ${failure!.received}\n--- program:\n${program}\n--- its output:\n${run.all}`;
      const received = failure!.received ?? "";
      if (received.startsWith("no answer within ")) {
        expect(run.exitCode, context).toBe(1);
        expect(line(run.stdout, "received"), context).toBe(received);
      } else if (received.startsWith("thrown: ")) {
        const thrown = received.slice("thrown: ".length);
        const object = /^thrown object (.*)$/.exec(thrown);
        expect(run.exitCode, context).not.toBe(0);
        expect(run.stdout, context).not.toMatch(/^received:/m);
        expect(withoutIds(run.stderr), context).toContain(
          withoutIds(object ? inspect(JSON.parse(object[1]!)) : thrown),
        );
      } else {
        expect(run.exitCode, context).toBe(0);
        expect(run.stderr, context).toBe("");
        const printed = line(run.stdout, "received");
        expect(printed, context).toBeDefined();
        // What the report received is the result or the part of it the message names (result.user, one field).
        if (failure!.received !== undefined) expect(shows(printed!, received, laterMs, false), context).toBe(true);
        if (failure!.expected !== undefined) {
          const expectedLine = line(run.stdout, "expected") ?? "";
          expect(shows(expectedLine, failure!.expected, laterMs, true), context).toBe(true);
          // Ids are set aside above, but not which record is which: "user1 instead of user3" must hold here too.
          expect(sharedIds(expectedLine, printed!), context).toEqual(sharedIds(failure!.expected, received));
        }
      }
    }, 120_000);
  }
});
