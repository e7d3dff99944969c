// Bad input and a hostile environment, through the built CLI in real processes (a pipe that would block a
// read, another user, /proc, a reader that goes away, a full disk under stdout) or verify-adapter's worker:
// one line and an exit code, never a stack trace, and nothing changed. The in-process cases: cli-errors.test.ts.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cli, fixture, inProcess, isRoot, nobody, root, tempDir } from "./helpers.js";

const memory = fixture("adapters", "memory.ts");
/** One line of error, at most a hint after it, and no stack frame. */
const oneLine = (stderr: string) => {
  expect(stderr).toMatch(/^error: [^\n]+(\n[^\n]+)?$/);
  expect(stderr).not.toMatch(/\n\s+at /);
};

describe("a flag that takes one value", () => {
  it("a repeatable flag may be given twice", async () => {
    const result = await inProcess([
      "verify-adapter",
      memory,
      "--only",
      "user.get.by-id",
      "--only",
      "user.create.returns-user",
      "--explore",
      "0",
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/PASS 2 cases/);
  });
});

describe("paths the system refuses", () => {
  it("an auth config the user cannot read: one line (a real process as another user)", async ({ skip }) => {
    if (!isRoot) skip("running as another user needs root (CI runs as root)");
    const next = tempDir();
    cpSync(fixture("projects", "next-app"), next, { recursive: true });
    execFileSync("chown", ["-R", `${nobody}:${nobody}`, next]);
    chmodSync(join(next, "src/auth.ts"), 0o000);
    const asNobody = (cwd: string) =>
      cli(["add-provider", "social", "--no-install", "--config", "src/auth.ts"], {
        cwd,
        uid: nobody,
        env: { CI: "true" },
      });
    const unreadable = await asNobody(next);
    expect(unreadable.exitCode).toBe(2);
    oneLine(unreadable.stderr);
    expect(unreadable.stderr).toMatch(/EACCES.*auth\.ts[\s\S]*permissions/);

    // A project folder the user may not write: said as it is, not as another run holding the lock.
    chmodSync(join(next, "src/auth.ts"), 0o644);
    execFileSync("chown", ["-R", "0:0", next]);
    chmodSync(next, 0o755);
    const unwritable = await asNobody(next);
    expect(unwritable.exitCode).toBe(2);
    oneLine(unwritable.stderr);
    expect(unwritable.stderr).toMatch(/^error: EACCES: permission denied, mkdir .*\.create-auth\.lock/);
    expect(unwritable.stderr).not.toMatch(/Another create-auth run/);
  });
});

describe("files that are not what they should be", () => {
  it("a package.json that is a pipe is refused at once, not read for ever (a real process: a read would block)", async () => {
    const cwd = tempDir();
    execFileSync("mkfifo", [join(cwd, "package.json")]);
    const result = await cli(["init", "--yes", "--no-install"], { cwd, env: { CI: "true" } });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/package\.json is a special file \(a pipe or a device\)/);
  });
});

describe("folders that cannot be made", () => {
  // Real processes: Node's recursive mkdir never returns under /proc, and a hang must fail the test, not stall it.
  it("a report file under /proc is one line, exit 2, not a spin", async () => {
    const result = await cli([
      "verify-adapter",
      memory,
      "--explore",
      "0",
      "--reporter",
      "json",
      "--output-file",
      "/proc/nope/x.json",
    ]);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/^error: ENOENT: .*mkdir '\/proc\/nope'/);
  });

  it("a cache folder under /proc: the CLI runs without its compile cache", async () => {
    const result = await cli(["--version"], { env: { XDG_CACHE_HOME: "/proc/nope" } });
    expect(result.timedOut).toBe(false);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });
});

describe("output that cannot be written", () => {
  it("a reader that goes away (| true) ends the run quietly", async () => {
    // `true` is gone before Node has started, so the first write fails; a reader that took a byte
    // first (head -c 1) may still leave a short report room in the pipe, and then nothing fails.
    const script = `node ${join(root, "bin/create-auth.js")} verify-adapter ${memory} --explore 0 | true; exit \${PIPESTATUS[0]}`;
    const result = await execa("bash", ["-c", script], { reject: false, env: { NO_COLOR: "1" } });
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(141);
  });

  it("a full disk under stdout is one line, exit 2", async () => {
    const script = `node ${join(root, "bin/create-auth.js")} add-provider social --dry-run > /dev/full`;
    const result = await execa("bash", ["-c", script], {
      cwd: fixture("projects", "next-app"),
      reject: false,
      env: { NO_COLOR: "1" },
    });
    expect(result.stderr).toBe("error: could not write the output: ENOSPC: no space left on device, write");
    expect(result.exitCode).toBe(2);
  });
});

describe("an unexpected error no code awaited", () => {
  it("a rejection nothing handles is the same bug line and exit 70, not Node's stack dump", async () => {
    const secret = "env-s3cret-5e0c71d2";
    // A bug stand-in, loaded before the launcher: once the run writes its first output, a rejection
    // nobody handles, quoting a variable's value.
    const bug = `const write = process.stdout.write.bind(process.stdout); let fired = false;
      process.stdout.write = (...chunk) => {
        if (!fired) Promise.reject(new TypeError("lost " + process.env.AUTH_CORP_SECRET));
        fired = true;
        return write(...chunk);
      };`;
    const result = await execa(
      process.execPath,
      [
        "--import",
        `data:text/javascript,${encodeURIComponent(bug)}`,
        join(root, "bin/create-auth.js"),
        "verify-adapter",
        memory,
        "--explore",
        "0",
      ],
      { reject: false, env: { NO_COLOR: "1", AUTH_CORP_SECRET: secret } },
    );
    expect(result.exitCode).toBe(70);
    expect(result.stderr).toMatch(
      /^error: unexpected TypeError in create-auth \S+ \(verify-adapter\)\. This is a bug in create-auth: .*--debug adds the stack trace\.$/,
    );
    expect(result.stderr).not.toContain(secret);
  });
});
