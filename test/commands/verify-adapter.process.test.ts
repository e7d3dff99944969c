// End to end: verify-adapter runs, its worker the built dist/cli/verify-worker.js, as CI runs it (no terminal).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, inProcess, tempDir } from "../helpers.js";

const memory = fixture("adapters", "memory.ts");
const modules = (name: string) => fixture("modules", name);

describe("create-auth verify-adapter", () => {
  it("exits 0 for an adapter that satisfies the contract, and prints the seed", async () => {
    const result = await inProcess(["verify-adapter", memory, "--seed", "123"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/PASS \d+ cases: 0 failed, \d+ passed, 0 skipped, 0 warnings/);
    expect(result.stdout).toMatch(/--seed 123/);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });
  it("exits 1 with the case id, expected and received for a broken adapter; teardown still runs", async () => {
    const log = join(tempDir(), "hooks.log");
    const result = await inProcess(
      ["verify-adapter", modules("with-hooks.ts"), "--only", "user.get.unknown-id-is-null"],
      {
        env: { HOOK_LOG: log, HOOK_BREAK: "1" },
      },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/1\) user\.get\.unknown-id-is-null\n/);
    expect(result.stdout).not.toMatch(/§/);
    expect(result.stdout).toMatch(/getUser\(unknown id\) should be null\n\s+expected: null\n\s+received: undefined/);
    expect(result.stdout).toMatch(/FAIL 1 case: 1 failed, 0 passed/);
    expect(readFileSync(log, "utf8")).toBe("setup\nfactory 1\nteardown\n");
  });
  it("a method that never settles fails its case; teardown runs and the process exits", async () => {
    const log = join(tempDir(), "hooks.log");
    const result = await inProcess(
      ["verify-adapter", modules("with-hooks.ts"), "--only", "user.get.*", "--timeout", "200"],
      {
        env: { HOOK_LOG: log, HOOK_HANG: "1" },
      },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/never settled within 200 ms/);
    expect(readFileSync(log, "utf8")).toMatch(/teardown\n$/);
  });
  it("a setup() that fails exits 2 with its error, runs teardown, and a failing teardown does not hide it", async () => {
    const log = join(tempDir(), "hooks.log");
    const result = await inProcess(["verify-adapter", modules("setup-throws.ts")], { env: { HOOK_LOG: log } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /setup\(\) of .*setup-throws\.ts failed: Error: connect ECONNREFUSED 127\.0\.0\.1:5432/,
    );
    expect(result.stderr).not.toMatch(/Connection terminated/);
    expect(result.stdout).not.toMatch(/cases:/);
    expect(readFileSync(log, "utf8")).toBe("teardown\n");
  });
  it("a teardown() that fails after a passing run is no pass: exit 1, and says so", async () => {
    const result = await inProcess(["verify-adapter", modules("teardown-throws.ts"), "--only", "user.get.by-id"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/✗ teardown\(\) of .*teardown-throws\.ts failed: Error: pool is already closed/);
    expect(result.stdout).toMatch(/^FAIL 1 case: 0 failed, 1 passed/m);
  });
  it("a database that is down: a real adapter's setup fails with the connection error, exit 2", async () => {
    const result = await inProcess(["verify-adapter", fixture("published", "pg-adapter.ts")], {
      env: { CREATE_AUTH_PG_URL: "postgres://postgres@127.0.0.1:1/test" },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/setup\(\) of .*pg-adapter\.ts failed: .*ECONNREFUSED/);
    expect(result.stdout).not.toMatch(/cases:/);
  });
  it("exits when the run is over even if the adapter left a handle open", async () => {
    // A real process: what is tested is that it ends.
    const result = await cli(["verify-adapter", modules("open-handle.ts")]);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
  });
  it("shows a thrown non-Error value in the failure", async () => {
    const result = await inProcess([
      "verify-adapter",
      modules("throws-non-error.ts"),
      "--only",
      "user.get.unknown-id-is-null",
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/received: thrown object \{"code":"E_NOPE","detail":"not an Error object"\}/);
  });
  it.each([
    [["verify-adapter", "does-not-exist.ts"], /Cannot find the adapter module does-not-exist\.ts/],
    [["verify-adapter", modules("throws-on-import.ts")], /Importing .* failed: Error: DATABASE_URL is not set/],
    [["verify-adapter", modules("no-adapter.ts")], /exports no adapter\. It exports: /],
    [["verify-adapter", modules("wrong-kind.ts")], /is a string; expected an adapter object/],
    [["verify-adapter", modules("factory-throws.ts")], /adapter factory .* failed: Error: connect ECONNREFUSED/],
  ])("exits 2 without running a case: %s", async (args, message) => {
    const result = await inProcess(args as string[]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).not.toMatch(/cases:/);
  });
  it("--require all fails an adapter that lacks a capability, naming the missing methods", async () => {
    const result = await inProcess(["verify-adapter", modules("esm-object.mjs"), "--require", "all"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /required capability "sessions" \(Database sessions\) is not supported: missing createSession, getSessionAndUser, updateSession, deleteSession/,
    );
  });
  it("json reporter prints one parseable document", async () => {
    const result = await inProcess(["verify-adapter", memory, "--reporter", "json", "--seed", "5"]);
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ seed: 5, ok: true, failed: 0 });
    expect(report.cases.find((c: { id: string }) => c.id === "user.get.by-id")).toMatchObject({
      status: "passed",
      title: "getUser finds a created user by its id, every field equal",
    });
  });
  it("junit and pretty together: the XML goes to --output-file", async () => {
    const file = join(tempDir(), "reports", "adapter.xml");
    const result = await inProcess(
      [
        "verify-adapter",
        modules("with-hooks.ts"),
        "--reporter",
        "pretty",
        "--reporter",
        "junit",
        "--output-file",
        `junit=${file}`,
      ],
      { env: { HOOK_LOG: join(tempDir(), "log"), HOOK_BREAK: "1" } },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/FAIL/);
    const xml = readFileSync(file, "utf8");
    expect(xml).toMatch(/^<\?xml version="1.0"/);
    expect(xml).toMatch(
      /<testcase name="user\.get\.unknown-id-is-null"[^>]*>\s*<failure message="getUser\(unknown id\) should be null"/,
    );
    expect(xml).toMatch(/<testsuites name="create-auth verify-adapter" tests="\d+" failures="[1-9]\d*"/);
  });
  it("github reporter writes error annotations on the adapter file", async () => {
    const result = await inProcess(
      ["verify-adapter", modules("with-hooks.ts"), "--reporter", "github", "--only", "user.get.unknown-id-is-null"],
      { env: { HOOK_LOG: join(tempDir(), "log"), HOOK_BREAK: "1" } },
    );
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(
      /^::error file=fixtures\/modules\/with-hooks\.ts,title=adapter contract%3A user\.get\.unknown-id-is-null::getUser\(unknown id\) should be null%0Aexpected: null%0Areceived: undefined%0Areproduce: create-auth verify-adapter \S+\/with-hooks\.ts --seed \d+ --only user\.get\.unknown-id-is-null$/m,
    );
  });
  it("colour follows FORCE_COLOR and NO_COLOR", async () => {
    const coloured = await inProcess(["verify-adapter", memory, "--only", "user.get.by-id"], {
      env: { NO_COLOR: "", FORCE_COLOR: "1" },
    });
    expect(coloured.stdout).toMatch(/\u001b\[32m/);
    const plain = await inProcess(["verify-adapter", memory, "--only", "user.get.by-id"], {
      env: { FORCE_COLOR: "1", NO_COLOR: "1" },
    });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const flag = await inProcess(["verify-adapter", memory, "--only", "user.get.by-id", "--no-color"], {
      env: { NO_COLOR: "", FORCE_COLOR: "1" },
    });
    expect(flag.stdout).not.toMatch(/\u001b\[/);
  });
});

describe("verify-adapter: what crosses the worker's boundary is what the service reads", () => {
  const adapters = (path: string) => fixture("adapters", path);
  const json = async (module: string, ...args: string[]) => {
    const result = await inProcess(["verify-adapter", module, "--reporter", "json", "--seed", "9", ...args]);
    const report = JSON.parse(result.stdout);
    const failing = report.cases.filter((c: { status: string }) => c.status === "failed");
    return { exitCode: result.exitCode, report, failing: failing.map((c: { id: string }) => c.id) };
  };

  it.concurrent.for([
    ["results are model instances whose fields are getters", "class-instances.ts"],
    ["the required throws throw trapping and revoked Proxies", "throws-proxies.ts"],
  ] as const)("passes an adapter whose %s", async ([, file], { expect }) => {
    const { exitCode, report, failing } = await json(adapters(file));
    expect(failing).toEqual([]);
    expect(report).toMatchObject({ ok: true, warnings: 0, exploration: { ok: true } });
    expect(exitCode).toBe(0);
  });

  it.concurrent("a getter that really finds nothing for a required field fails, naming the field", async ({
    expect,
  }) => {
    const { exitCode, report, failing } = await json(adapters("broken/getter-returns-undefined.ts"), "--explore", "0");
    expect(failing).toContain("user.create.returns-user");
    const created = report.cases.find((c: { id: string }) => c.id === "user.create.returns-user");
    expect(created.failure.message).toBe("createUser result.email: Required");
    expect(exitCode).toBe(1);
  });

  it.concurrent("a failed case's reproduction repeats the options its verdict depends on, and only those", async ({
    expect,
  }) => {
    const module = adapters("broken/getter-returns-undefined.ts");
    const flags = ["--export", "default", "--timeout", "9000", "--strict", "--concurrency", "3", "--explore", "0"];
    const { report } = await json(module, ...flags, "--only", "user.create.returns-user");
    expect(report.cases[0].reproduction).toBe(
      `create-auth verify-adapter ${module} --seed 9 --only user.create.returns-user --export default --timeout 9000 --strict`,
    );
  });

  it.concurrent("an adapter that hands out and keeps its stored objects fails exactly the aliasing cases", async ({
    expect,
  }) => {
    const { exitCode, report, failing } = await json(adapters("broken/returns-stored-objects.ts"));
    expect(failing.sort()).toEqual([
      "account.results-are-copies",
      "authenticator.results-are-copies",
      "session.results-are-copies",
      "user.results-are-copies",
      "verification-token.results-are-copies",
    ]);
    const user = report.cases.find((c: { id: string }) => c.id === "user.results-are-copies");
    // What was read first, then the change that caused it, then the conclusion.
    expect(user.failure.message).toMatch(
      /^getUser result\.\w+ differs from what was written \(written .+, read .+\) after a caller's change to \w+'s result, .+ instead of copies$/,
    );
    expect(report.exploration.failure.message).toMatch(/hands out its stored objects instead of copies/);
    expect(exitCode).toBe(1);
  });
});
