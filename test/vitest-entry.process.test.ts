// Runs vitest as a user would, on projects that use create-auth/vitest.
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { allCases } from "../src/contract/cases/index.js";
import { fixture, root } from "./helpers.js";

const runVitest = (file: string) =>
  execa(
    join(root, "node_modules", ".bin", "vitest"),
    ["run", "--config", fixture("vitest", "vitest.config.ts"), "--reporter", "verbose", file],
    {
      cwd: root,
      reject: false,
      env: { NO_COLOR: "1", CI: "true" },
    },
  );

describe("create-auth/vitest", () => {
  it("registers every case as a passing test for a correct adapter", async () => {
    const result = await runVitest("memory.contract.ts");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/✓ .*user\.get\.unknown-id-is-null: getUser returns null for an unknown id/);
    // One test per case, plus the capability checks the fixture requires.
    const [, passed, total] = /Tests\s+(\d+) passed \((\d+)\)/.exec(result.stdout) ?? [];
    expect(Number(passed)).toBe(Number(total));
    expect(Number(passed)).toBeGreaterThanOrEqual(allCases.length);
  });

  it("fails the cases an adapter breaks, skips what it lacks, and fails a missing required capability", async () => {
    const result = await runVitest("broken.contract.ts");
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/× .*user\.get\.unknown-id-is-null/);
    expect(output).toMatch(/getUser\(unknown id\) should be null\n/);
    expect(output).toMatch(/required capability "sessions" is not supported: missing createSession/);
    expect(output).toMatch(/↓ .*session\.create\.returns-session/);
  });

  it("adapterExploration: one test per adapter, failing with the smallest sequence and a reproduction", async () => {
    const result = await runVitest("explore.contract.ts");
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/✓ .*memory adapter/);
    expect(output).toMatch(/× .*adapter whose unlinkAccount ignores the provider/);
    expect(output).toMatch(/not found after it was written/);
    // The first user may come from two tabs signing up at once: which one, the seed's draw decides.
    expect(output).toMatch(/smallest sequence that shows it:\n\s+1\. (at the same time: )?user1 = createUser\(/);
    expect(output).toMatch(/\d\. unlinkAccount\(/);
    expect(output).toMatch(/replay with seed 3 \(verify-adapter --seed 3 --explore-path \d+:/);
    expect(output).toContain('import * as adapterModule from "./unlink-ignores-provider";');
    expect(output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
  });
});
