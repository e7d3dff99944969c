// verify-adapter runs the module in a worker process it supervises: whatever
// the module does, the verdict comes only from a finished run, and the
// command always ends. Each hostile module runs through the CLI with short
// limits, in this process (the module runs in the worker either way) unless
// what is tested is that the CLI's own process ends; the wall-time bounds are
// generous for a loaded CI machine but far below "never".
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cli, fixture, inProcess, isRoot, nobody, root, tempDir } from "../helpers.js";
import { endingLimits, hostile } from "../support/hostile-runs.js";

async function verify(name: string, ...args: string[]) {
  return verifyWith({}, name, ...args);
}

async function verifyWith(env: Record<string, string>, name: string, ...args: string[]) {
  const started = performance.now();
  const result = await inProcess(["verify-adapter", hostile(name), ...endingLimits, ...args], { env });
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** CPU ticks a process has used (utime + stime of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** The child of `parent` that is busy without pause: at least half a core over half a second. */
async function spinningChildOf(parent: number): Promise<number> {
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const children = readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    for (const child of children.map(Number)) {
      const before = cpuTicks(child);
      await setTimeout(500);
      if (alive(child) && cpuTicks(child) - before >= 25) return child;
    }
    await setTimeout(100);
  }
  throw new Error("the worker never started spinning");
}

async function endsWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = performance.now() + ms; performance.now() < deadline; await setTimeout(100))
    if (!alive(pid)) return true;
  return !alive(pid);
}

// Concurrent: most of each test is waiting for a limit to pass.
describe.concurrent("verify-adapter: no false green, always an end", () => {
  it.for<[string, RegExp]>([
    ["exit-at-import", /error: the module called process\.exit\(0\) during the import of .*exit-at-import\.ts/],
    ["exit-in-setup", /error: the module called process\.exit\(0\) during setup\(\)/],
    ["import-never-settles", /error: the import of .* never settled: the module left nothing running/],
    ["factory-never-settles", /error: the adapter export \(its factory or promise\) never settled/],
    ["thenable-never-settles", /error: the adapter export \(its factory or promise\) never settled/],
    ["setup-never-settles", /error: setup\(\) never settled within 20 s\nRaise --setup-timeout/],
    ["loop-at-import", /error: the import of .* did not finish within 20 s/],
    ["proxy-get-throws", /^error: Reading the adapter's methods threw: Error: no property access allowed$/m],
  ])("%s: exit 2 before any case, naming the phase", async ([name, message], { expect }) => {
    const result = await verify(name);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
    expect(result.stdout).not.toMatch(/PASS|FAIL/);
    expect(result.seconds).toBeLessThan(40);
  });

  it("a method that ends the process mid-run: exit 1, the call and case named, the report written", async ({
    expect,
  }) => {
    const result = await verify("exit-in-method");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/✗ user\.create\.returns-user/);
    expect(result.stdout).toMatch(/✗ the run stopped: the module called process\.exit\(0\) during createUser$/m);
    expect(result.stdout).toMatch(/^FAIL /m);
  });

  it.for<[string, RegExp]>([
    ["exit-in-teardown-after-failures", /✗ the module called process\.exit\(0\) during teardown\(\)/],
    ["teardown-never-settles-after-failures", /✗ teardown\(\) never settled: the module left nothing running/],
  ])("%s: the failures stand, exit 1", async ([name, message], { expect }) => {
    const result = await verify(name);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/✗ user\.get\.unknown-id-is-null/);
    expect(result.stdout).toMatch(message);
    expect(result.seconds).toBeLessThan(15);
  });

  it("a passing run whose teardown() never settles (a handle open) is not a pass: exit 1 within the limit", async ({
    expect,
  }) => {
    // The cases alone: what is tested is the end, and exploration would only add time on a loaded machine.
    const result = await verify("teardown-hangs-with-handle", "--explore", "0");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/✗ teardown\(\) never settled within 2 s/);
    expect(result.stdout).toMatch(/^FAIL (\d+) cases: 0 failed, \1 passed/m);
    expect(result.seconds).toBeLessThan(20);
  });

  it("a module that replaces process.exit and keeps a handle open still ends after a pass: exit 0", async ({
    expect,
  }) => {
    const started = performance.now();
    const result = await cli(["verify-adapter", hostile("replaces-exit"), ...endingLimits, "--explore", "0"]);
    const seconds = (performance.now() - started) / 1000;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^PASS /m);
    expect(seconds).toBeLessThan(20);
  });

  it("a method that blocks the process (a loop): exit 1 within a few call limits, the methods named", async ({
    expect,
  }) => {
    const result = await verify("loop-in-method");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/✗ user\.get-by-email\.finds-user/);
    expect(result.stdout).toMatch(
      /✗ the run stopped: 2 methods never settled after \d+ calls \(getUserByEmail, \w+\); the adapter stopped answering/,
    );
    // The overlapped run's limit, a fresh worker, then the run one call at a time to its two limits.
    expect(result.seconds).toBeLessThan(16);
  });

  it("a worker stuck in a method ends when the command is killed, not spinning on the machine for good", async ({
    expect,
  }) => {
    // A call limit no run reaches here: only the command's end can stop the worker.
    const args = ["verify-adapter", hostile("loop-in-method"), "--timeout", "60000", "--concurrency", "1"];
    const run = execa(process.execPath, [join(root, "bin", "create-auth.js"), ...args], { reject: false });
    const worker = await spinningChildOf(run.pid!);
    try {
      run.kill("SIGKILL");
      await run;
      expect(await endsWithin(worker, 5000), `worker ${worker} still running 5 s after the command was killed`).toBe(
        true,
      );
    } finally {
      if (alive(worker)) process.kill(worker, "SIGKILL");
    }
  });

  it.for([
    ["pool-leaks", /2 methods never settled after 25 calls \(\w+, \w+\); the adapter stopped answering/],
    [
      "every-method-hangs",
      /2 methods never settled after 0 calls \(createUser, getUser\); the adapter stopped answering/,
    ],
  ] as const)(
    "%s: an adapter that stops answering ends the run within a few limits",
    async ([name, message], { expect }) => {
      const result = await verify(name);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(new RegExp(`✗ the run stopped: ${message.source}`));
      expect(result.stdout).toMatch(/^FAIL .* \d+ skipped/m);
      // Call limits of 1 s (the overlapped run's, then two one call at a time), plus two worker starts on a
      // loaded machine.
      expect(result.seconds).toBeLessThan(16);
    },
  );

  it("what the module writes to any descriptor mid-run cannot make a broken adapter pass", async ({ expect }) => {
    const result = await verify("forges-verdict");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^FAIL /m);
    expect(result.stdout).toMatch(/^✗ the run stopped: the adapter's process wrote to verify-adapter's channel/m);
    expect(result.stdout).not.toMatch(/^PASS /m);
  });

  it("what the module writes to the channel at import is a load error, never a pass", async ({ expect }) => {
    const result = await verifyWith({ FORGE_AT_IMPORT: "1" }, "forges-verdict");
    expect(result.exitCode).toBe(2);
    // After what the module wrote to stderr itself.
    expect(result.stderr).toMatch(/error: the adapter's process wrote to verify-adapter's channel/);
    expect(result.stdout).not.toMatch(/PASS/);
  });

  it("a module that replaces Promise, timers, JSON and Buffer methods in its process: the run and its report are whole", async ({
    expect,
  }) => {
    const result = await verify("patches-intrinsics");
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^PASS \d+ cases: 0 failed/m);
  });

  it("one method that never settles costs about one timeout; its later cases fail at once", async ({ expect }) => {
    const result = await verify("one-method-hangs");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/getUserByAccount never settled within \d+ ms; later cases will not call it/);
    expect(result.stdout).toMatch(/getUserByAccount never settled in [a-z.-]+; not called again/);
    expect(result.stdout).toMatch(/! getUserByAccount never settled \(first in [a-z.-]+\)/);
    expect(result.seconds).toBeLessThan(1 + 8);
  });
});

describe.concurrent("verify-adapter: data and report safety", () => {
  it("reports, with counts, the records a no-op deleteUser left behind", async ({ expect }) => {
    const result = await verify("no-delete");
    expect(result.stdout).toMatch(
      /! the run left \d+ users, \d+ authenticators it created and could not remove .* point it at a test database/,
    );
  });

  it("adapter error text cannot move the cursor or start a workflow command", async ({ expect }) => {
    for (const reporter of ["pretty", "github"]) {
      const result = await verify("control-characters", "--only", "user.get.by-id", "--reporter", reporter);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatch(/forged/);
      expect(result.stdout).not.toMatch(/\u001b/);
      expect(result.stdout.split("\n").filter((line) => /forged|set-output/.test(line))).toHaveLength(1);
      expect(result.stdout).not.toMatch(/^::set-output|^::error::forged/m);
    }
  });
});

describe("verify-adapter: compiled TypeScript is cached only where the user alone can write", () => {
  // tsx keeps compiled modules in $TMPDIR/tsx-<uid> and runs what it finds there.
  it.runIf(isRoot)("tsx's cache goes to a private folder, never the shared temp folder", async () => {
    const shared = tempDir("create-auth-shared-tmp-");
    chmodSync(shared, 0o1777);
    const home = tempDir("create-auth-home-");
    chmodSync(home, 0o755);
    const cache = join(home, ".cache");
    mkdirSync(cache);
    chownSync(cache, nobody, nobody);
    const result = await cli(["verify-adapter", fixture("adapters", "memory.ts"), "--only", "user.get.by-id"], {
      uid: nobody,
      env: { TMPDIR: shared, XDG_CACHE_HOME: cache, HOME: home },
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(readdirSync(shared)).toEqual([]);
    expect(existsSync(join(cache, "create-auth", "tmp", `tsx-${nobody}`))).toBe(true);
  });
});
