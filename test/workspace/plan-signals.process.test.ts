/**
 * applyPlan (src/workspace/plan.ts) in a real process, as the built dist/
 * has it: signals wait for an apply to finish, and a killed run's temporary
 * files are private and removed by the next apply. The in-process
 * guarantees: plan-safety.test.ts.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { applyPlan, changeFile } from "../../src/workspace/plan.js";
import { root, tempDir } from "../helpers.js";

const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".tmp"));

/**
 * A child process that applies a plan of `count` files into `dir`, then
 * lingers (long enough that a loaded machine still signals it first). A
 * first, empty apply installs the signal handling, so the announcement
 * comes when a signal can only land in the big apply.
 */
function applyInChild(dir: string, count: number) {
  const plan = pathToFileURL(join(root, "dist/workspace/plan.js")).href;
  const script = `
    import { applyPlan } from ${JSON.stringify(plan)};
    const dir = process.argv[1];
    const changes = Array.from({ length: ${count} }, (_, i) => ({ path: dir + "/f" + i + ".env.local", before: null, after: "SECRET=" + i }));
    applyPlan([]);
    process.stdout.write("applying\\n");
    applyPlan(changes);
    process.stdout.write("applied\\n");
    setTimeout(() => process.stdout.write("still running\\n"), 10_000);`;
  // No forced kill: execa would send SIGKILL 5 s after the signal, and a loaded machine can take that long to apply.
  const child = execa(process.execPath, ["--input-type=module", "-e", script, dir], {
    reject: false,
    forceKillAfterDelay: false,
  });
  const started = new Promise<void>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("applying")) resolve();
    });
  });
  return { child, started };
}

describe("applyPlan under signals", () => {
  it.concurrent.for(["SIGINT", "SIGTERM"] as const)(
    "%s during an apply waits for it to finish, then ends the run",
    async (signal, test) => {
      const { expect } = test;
      const dir = tempDir("create-auth-", test);
      const { child, started } = applyInChild(dir, 4000);
      await started;
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(signal === "SIGINT" ? 130 : 143);
      expect(result.stdout).toContain("applied");
      expect(result.stdout).not.toContain("still running");
      expect(readdirSync(dir)).toHaveLength(4000);
      expect(temps(dir)).toEqual([]);
    },
  );

  it("a killed run leaves only private temporary files, and the next apply there removes them", async () => {
    const dir = tempDir();
    const { child, started } = applyInChild(dir, 4000);
    await started;
    // Kill once staging has begun (polled, so a loaded machine cannot make the kill land before it).
    for (let waited = 0; temps(dir).length === 0 && waited < 10_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill("SIGKILL");
    await child;
    const left = temps(dir);
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    applyPlan([changeFile(join(dir, "next.txt"), "x")!]);
    expect(temps(dir)).toEqual([]);
  });
});
