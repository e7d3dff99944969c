// The exploration as part of verify-adapter runs (its worker the built dist/cli/verify-worker.js):
// on by default, steered by --explore/--only/--skip, reported by the same reporters, replayable.
import { describe, expect, it } from "vitest";
import { fixture, inProcess } from "../helpers.js";

const memory = fixture("adapters", "memory.ts");
const broken = fixture("adapters", "broken", "delete-user-keeps-sessions.ts");

describe("verify-adapter --explore", () => {
  it("runs by default after the cases, and its result is part of the verdict", async () => {
    const result = await inProcess(["verify-adapter", memory, "--seed", "7"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Exploration \(\d+ random sequences, \d+ steps, [\d.]+ s\)$/m);
    expect(result.stdout).toMatch(/^PASS \d+ cases: .*, exploration passed/m);
  });

  it("--explore 20s on a correct adapter passes: a long exploration is never taken for a hang", async () => {
    const started = performance.now();
    const result = await inProcess([
      "verify-adapter",
      memory,
      "--only",
      "explore",
      "--explore",
      "20s",
      "--timeout",
      "1000",
    ]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/✓ the adapter agreed with the model of the contract at every step/);
    expect(result.exitCode).toBe(0);
    expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it("--explore 0 and --skip explore turn it off", async () => {
    for (const args of [
      ["--explore", "0"],
      ["--skip", "explore"],
    ]) {
      const result = await inProcess(["verify-adapter", memory, "--only", "user.get.by-id", ...args]);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toMatch(/Exploration/);
    }
  });

  it("finds a bug with the cases switched off, prints the smallest sequence, and the printed flags replay it", async () => {
    const first = await inProcess(["verify-adapter", broken, "--only", "explore", "--seed", "3"]);
    expect(first.exitCode).toBe(1);
    expect(first.stdout).toMatch(/✗ .*deleted/);
    const steps = [...first.stdout.matchAll(/^ {7}(\d+)\. (.*)$/gm)].map((m) => m[2]!);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(steps.some((step) => /deleteUser|unlinkAccount/.test(step))).toBe(true);
    expect(first.stdout).toMatch(/import \* as adapterModule from "\/.*delete-user-keeps-sessions\.ts";/);
    const replay = /^ {5}replay: create-auth verify-adapter \S+ (--seed \d+ --explore-path \S+)$/m.exec(
      first.stdout,
    )?.[1];
    expect(replay).toBeDefined();
    const again = await inProcess(["verify-adapter", broken, "--only", "explore", ...replay!.split(" ")]);
    expect(again.exitCode).toBe(1);
    const message = (output: string) => /^ {2}✗ (.*)$/m.exec(output)?.[1];
    expect(message(again.stdout)).toBe(message(first.stdout));
  });

  it("is in the json report", async () => {
    const result = await inProcess([
      "verify-adapter",
      broken,
      "--only",
      "explore",
      "--reporter",
      "json",
      "--seed",
      "3",
    ]);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.exploration).toMatchObject({ ok: false, failure: { steps: expect.any(Array) } });
    expect(report.exploration.failure.snippet).toMatch(/await adapter\./);
  });
});
