// Bad input and a hostile environment end in one line and an exit code, never a stack trace, and change nothing.
// What needs the built CLI in a real process (another user, a pipe, /proc, stdout closed or full): cli-errors.process.test.ts.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { run } from "../src/cli.js";
import { ExitCode, fromSystemError, printable } from "../src/lib/errors.js";
import { hideUrlCredentials } from "../src/lib/redact.js";
import { parseEnv } from "../src/render/env-file.js";
import { version } from "../src/version.js";
import { capturedIo, fixture, inProcess, root, snapshot, tempDir } from "./helpers.js";

const memory = fixture("adapters", "memory.ts");
/** One line of error, at most a hint after it, and no stack frame. */
const oneLine = (stderr: string) => {
  expect(stderr).toMatch(/^error: [^\n]+(\n[^\n]+)?$/);
  expect(stderr).not.toMatch(/\n\s+at /);
};

describe("a flag that takes one value", () => {
  it.each([
    [["init", "--yes", "--no-install", "--backend", "sqlite", "--backend", "postgres"], "--backend"],
    [["add-provider", "oidc", "--id", "a", "--id", "b", "--issuer", "https://a.example"], "--id"],
    [["verify-adapter", memory, "--seed", "1", "--seed", "2"], "--seed"],
    [["verify-adapter", memory, "--timeout", "100", "--timeout", "200"], "--timeout"],
  ])("given twice is refused, naming the flag: %j", async (args, flag) => {
    const cwd = tempDir();
    const result = await inProcess(args, { cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`error: ${flag} was given twice; give it once.`);
    expect(snapshot(cwd)).toEqual({});
  });

  it.each([
    [["verify-adapter", memory, "--seed", ""], /^error: --seed needs a value; it was given empty\.$/],
    [["verify-adapter", memory, "--only", ""], /^error: --only needs a value; it was given empty\.$/],
    [["verify-adapter", memory, "--require", ""], /^error: --require needs a value; it was given empty\.$/],
    [["verify-adapter", memory, "--skip", ","], /^error: --skip: invalid value ","; expected ids, comma-separated\.$/],
    [["init", "--yes", "--no-install", "--backend", ""], /^error: --backend needs a value; it was given empty\.$/],
  ])("an empty value is refused: %j", async (args, message) => {
    const result = await inProcess(args, { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe("paths the system refuses", () => {
  it("init where auth is a file, add-provider where providers is a pipe: one line, nothing written", async () => {
    const app = tempDir();
    writeFileSync(join(app, "package.json"), '{ "name": "app" }\n');
    writeFileSync(join(app, "auth"), "not a folder\n");
    const before = snapshot(app);
    const init = await inProcess(["init", "--yes", "--no-install"], { cwd: app });
    expect(init.exitCode).toBe(2);
    oneLine(init.stderr);
    expect(init.stderr).toMatch(/ENOTDIR.*auth[\s\S]*A file stands where a folder is needed/);
    expect(snapshot(app)).toEqual(before);

    const next = tempDir();
    cpSync(fixture("projects", "next-app"), next, { recursive: true });
    execFileSync("mkfifo", [join(next, "src/providers")]);
    const add = await inProcess(["add-provider", "social", "--no-install"], { cwd: next });
    expect(add.exitCode).toBe(2);
    oneLine(add.stderr);
  });

  it("an .env.example that is a symbolic link loop: one line", async () => {
    const next = tempDir();
    cpSync(fixture("projects", "next-app"), next, { recursive: true });
    symlinkSync(join(next, ".env.example"), join(next, ".env.example"));
    const result = await inProcess(["add-provider", "social", "--no-install"], { cwd: next });
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/ELOOP.*\.env\.example/);
  });

  it("a DATABASE_URL with port 99999: one line", async () => {
    const app = tempDir();
    const init = await inProcess(["init", "--yes", "--no-install", "--backend", "postgres"], { cwd: app });
    expect(init.exitCode).toBe(0);
    symlinkSync(join(root, "node_modules"), join(app, "node_modules"), "dir");
    const result = await inProcess(["migrate"], {
      cwd: app,
      env: { DATABASE_URL: "postgres://u:secret@127.0.0.1:99999/app" },
    });
    expect([1, 2]).toContain(result.exitCode);
    oneLine(result.stderr);
    expect(result.stderr).not.toContain("secret");
    // Said as what it is, naming the variable and where it is set, before any driver is asked.
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: DATABASE_URL in the environment is not a connection string for PostgreSQL: its port is out of range; ports run from 1 to 65535\.\nSet it to one such as postgres:\/\/user:password@host:5432\/app; nothing was changed\.$/,
    );
  });

  it("a --dir that is a symbolic link loop: one line naming it", async () => {
    const cwd = tempDir();
    symlinkSync(join(cwd, "b"), join(cwd, "a"));
    symlinkSync(join(cwd, "a"), join(cwd, "b"));
    const result = await inProcess(["init", "--yes", "--no-install", "--dir", "a"], { cwd });
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/ELOOP.*\/a\b[\s\S]*symbolic link/);
  });

  it("a --dir whose name is too long for the file system", async () => {
    const cwd = tempDir();
    const result = await inProcess(["init", "--yes", "--no-install", "--dir", "x".repeat(300)], { cwd });
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/ENAMETOOLONG[\s\S]*shorter/);
    expect(snapshot(cwd)).toEqual({});
  });
});

describe("files that are not what they should be", () => {
  it("a binary package.json is refused without its bytes in the message", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "package.json"), Buffer.from([0x7b, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0xff]));
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: .*package\.json is not a text file; nothing was written\.$/);
    expect(Object.keys(snapshot(cwd))).toEqual(["package.json"]);
  });

  it("a package.json field of the wrong type is refused, naming it; a CRLF package.json stays CRLF", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "package.json"), '{ "name": "app", "dependencies": "oops" }\n');
    const before = snapshot(cwd);
    const refused = await inProcess(["init", "--yes", "--no-install"], { cwd });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: "dependencies" in .*package\.json is a string, where npm expects an object/,
    );
    expect(snapshot(cwd)).toEqual(before);

    writeFileSync(join(cwd, "package.json"), '{\r\n  "name": "app"\r\n}\r\n');
    const crlf = await inProcess(["init", "--yes", "--no-install"], { cwd });
    expect(crlf.exitCode).toBe(0);
    const written = readFileSync(join(cwd, "package.json"), "utf8");
    expect(written).toContain('"@auth/core"');
    expect(written.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("an .env and .env.local that start with a byte-order mark are read and merged as dotenv reads them, the mark kept", async () => {
    const cwd = tempDir();
    const local = "\uFEFFAUTH_SECRET=mine-and-long-enough-0123456789abcdef\r\nOTHER=1\r\n";
    const dotenv = "\uFEFFAUTH_GITHUB_ID=from-dotenv\r\n";
    writeFileSync(join(cwd, ".env.local"), local);
    writeFileSync(join(cwd, ".env"), dotenv);
    const init = await inProcess(["init", "--yes", "--no-install", "--providers", "github"], { cwd });
    expect(init.stderr).toBe("");
    expect(init.exitCode).toBe(0);
    const after = readFileSync(join(cwd, ".env.local"), "utf8");
    expect(after.startsWith(local)).toBe(true);
    // The mark is no part of the first name: AUTH_SECRET stays the project's, AUTH_GITHUB_ID is .env's.
    expect(parseEnv(after).filter((e) => e.name === "AUTH_SECRET")).toHaveLength(1);
    expect(after).not.toMatch(/AUTH_GITHUB_ID/);
    expect(after).toMatch(/^# AUTH_GITHUB_SECRET=\r$/m);
    expect(after.replace(/\r\n/g, "")).not.toContain("\n");
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe(dotenv);
    // doctor reads them the same way: the secret is there, GitHub lacks only its secret.
    const doctor = await inProcess(["doctor", "--json"], { cwd });
    const findings = (JSON.parse(doctor.stdout) as { findings: { id: string; message: string }[] }).findings;
    expect(findings.map((f) => f.id)).not.toContain("secret.missing");
    expect(findings.find((f) => f.id === "provider.env-missing")?.message).toMatch(/AUTH_GITHUB_SECRET/);
    expect(findings.find((f) => f.id === "provider.env-missing")?.message).not.toMatch(/AUTH_GITHUB_ID/);
  });

  it("a config far bigger than any auth config is refused before it is parsed", async () => {
    const cwd = tempDir();
    cpSync(fixture("projects", "next-app"), cwd, { recursive: true });
    const config = join(cwd, "src/auth.ts");
    writeFileSync(config, `${readFileSync(config, "utf8")}\n${"// padding\n".repeat(500_000)}`);
    const before = snapshot(cwd);
    const started = performance.now();
    const result = await inProcess(["add-provider", "social", "--no-install"], { cwd });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/auth\.ts is 5\.\d MB, more than the 4\.0 MB such a file could need/);
    expect(snapshot(cwd)).toEqual(before);
  });
});

describe("a disk that fills up part-way", () => {
  it("init and add-provider leave nothing behind: no temporary file, no folder, the project as it was", async ({
    skip,
  }) => {
    const mount = tempDir("create-auth-full-");
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=32k", "tmpfs", mount], { stdio: "ignore" });
    } catch {
      skip("mounting a small tmpfs needs root (CI runs as root)");
    }
    try {
      const init = await inProcess(["init", "--yes", "--no-install", "--dir", join(mount, "app")], { cwd: mount });
      expect(init.exitCode).toBe(2);
      oneLine(init.stderr);
      expect(init.stderr).toMatch(/ENOSPC|no space/i);
      expect(readdirSync(mount)).toEqual([]);

      cpSync(fixture("projects", "next-app"), join(mount, "next"), { recursive: true });
      // Fill what is left, so the provider module cannot be written.
      const filler = join(mount, "filler");
      try {
        writeFileSync(filler, Buffer.alloc(64 * 1024));
      } catch {
        // Full: what was written of it stays as the filler.
      }
      const before = snapshot(join(mount, "next"));
      const add = await inProcess(["add-provider", "social", "--no-install"], { cwd: join(mount, "next") });
      expect(add.exitCode).toBe(2);
      oneLine(add.stderr);
      expect(snapshot(join(mount, "next"))).toEqual(before);
    } finally {
      execFileSync("umount", [mount]);
    }
  });
});

describe("what messages quote", () => {
  it("control and invisible bytes in the input are written as escapes", async () => {
    const result = await inProcess(["frob\u001b[2Jnicate\u0007"], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(result.stderr).toContain("frob\\x1b[2Jnicate\\x07");
    expect(printable("a\nb\tc\r", { keepNewlines: true })).toBe("a\nb\tc\\x0d");
    expect(printable("a\nb")).toBe("a\\x0ab");
  });

  it("a URL's userinfo is hidden whole, whatever it holds", () => {
    expect(hideUrlCredentials("https://user:a@b@host/x and postgres://u:p@db:5432/app")).toBe(
      "https://***@host/x and postgres://***@db:5432/app",
    );
    expect(hideUrlCredentials("https://plain.example/path@not-userinfo")).toBe(
      "https://plain.example/path@not-userinfo",
    );
  });

  it("a system error is its first line with what to do; one without a code stays a bug (its stack with --debug)", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1\n    at somewhere"), {
      code: "ECONNREFUSED",
    });
    const shown = fromSystemError(error);
    expect(shown?.message).toBe("connect ECONNREFUSED 127.0.0.1:1");
    expect(shown?.hint).toMatch(/is the server running/);
    expect(shown?.exitCode).toBe(2);
    expect(fromSystemError(new TypeError("x is undefined"))).toBeUndefined();
  });
});

describe("an unexpected error (a bug in create-auth)", () => {
  const argumentSecret = "arg-s3cret-6f1d9c2b";
  const envSecret = "env-s3cret-a81c44e0";
  const urlPassword = "url-s3cret-93b7d1aa";
  const env = { AUTH_CORP_SECRET: envSecret, DATABASE_URL: `postgres://app:${urlPassword}@127.0.0.1:5432/app` };
  const args = ["add-provider", "oidc", "--id", "corp", "--issuer", "https://login.example", "--name", argumentSecret];

  /** Runs add-provider --dry-run in-process with an output that throws what a bug would: a TypeError quoting the text. */
  async function crash(extra: string[]) {
    const cwd = tempDir();
    cpSync(fixture("projects", "next-app"), cwd, { recursive: true });
    const before = snapshot(cwd);
    const { io, stderr } = capturedIo(cwd, env);
    io.out = {
      write(text: string) {
        throw new TypeError(`cannot print ${text.length} characters: ${text}`);
      },
    } as unknown as NodeJS.WritableStream;
    const exitCode = await run(["node", "create-auth", ...args, "--dry-run", ...extra], io);
    expect(snapshot(cwd)).toEqual(before);
    return { exitCode, stderr: stderr() };
  }

  it("exits 70 with one line: a bug, the version and command to report, no value of any argument or variable", async () => {
    const { exitCode, stderr } = await crash([]);
    expect(ExitCode.bug).toBe(70);
    expect(exitCode).toBe(70);
    expect(stderr).toBe(
      `error: unexpected TypeError in create-auth ${version} (add-provider). This is a bug in create-auth: please report it with this line and what you ran, leaving out values and secrets (npm bugs create-auth opens the tracker); --debug adds the stack trace.\n`,
    );
    for (const secret of [argumentSecret, envSecret, urlPassword]) expect(stderr).not.toContain(secret);
  });

  it("--debug adds the stack, still without the variables' secrets or a URL's password", async () => {
    const { exitCode, stderr } = await crash(["--debug"]);
    expect(exitCode).toBe(70);
    const [line, ...stack] = stderr.trimEnd().split("\n");
    expect(line).toMatch(/^error: unexpected TypeError in create-auth .* \(add-provider\)\. This is a bug/);
    expect(stack[0]).toMatch(/^TypeError: cannot print \d+ characters/);
    expect(stack.some((frame) => /^\s+at /.test(frame))).toBe(true);
    expect(stderr).not.toContain(envSecret);
    expect(stderr).not.toContain(urlPassword);
  });

  it("--debug is a global flag: --help lists it, and a run that needs no stack takes it anywhere", async () => {
    const help = await inProcess(["--help"]);
    expect(help.stdout).toMatch(/--debug\s+on an unexpected error/);
    expect(help.stdout).toMatch(/70 a bug in create-auth/);
    const list = await inProcess(["verify-adapter", "--list", "--debug"]);
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toBe("");
  });

  it("errors a person can act on keep their own codes and one line", async () => {
    const usage = await inProcess(["add-provider", "oidc", "--id", "corp", "--debug"], { cwd: tempDir() });
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).not.toMatch(/bug in create-auth|\n\s+at /);
  });
});

describe("URLs that cannot work", () => {
  /** A copy of the sample Next.js project, and its files before the run. */
  function nextApp() {
    const cwd = tempDir();
    cpSync(fixture("projects", "next-app"), cwd, { recursive: true });
    return { cwd, before: snapshot(cwd) };
  }
  const oidc = ["add-provider", "oidc", "--id", "corp", "--issuer", "https://login.example.com", "--no-install"];

  it.each([
    ["javascript:alert(1)", /"javascript:alert\(1\)" uses the javascript: scheme, which a logo cannot/],
    [" JavaScript:alert(1)", /uses the javascript: scheme/],
    ["java\tscript:alert(1)", /"java\\tscript:alert\(1\)" contains a control character or a line break/],
    ["data:image/svg+xml,<svg onload=alert(1)>", /uses the data: scheme/],
    [
      "https://cdn.example.com:99999/logo.png",
      /is not a valid URL: its port is out of range; ports run from 1 to 65535/,
    ],
  ])("--logo %j: one line naming the flag, exit 2, nothing written", async (logo, message) => {
    const { cwd, before } = nextApp();
    const result = await inProcess([...oidc, "--logo", logo], { cwd });
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/^error: --logo: /);
    expect(result.stderr).toMatch(message);
    expect(snapshot(cwd)).toEqual(before);
  });

  it("--logo takes a path on the app or an https URL", async () => {
    for (const logo of ["/logos/corp.svg", "https://cdn.example.com/corp.png"]) {
      const { cwd } = nextApp();
      const result = await inProcess([...oidc, "--logo", logo], { cwd });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(readFileSync(join(cwd, "src/providers/corp.ts"), "utf8")).toContain(JSON.stringify(logo));
    }
  });

  it.each([
    [["add-provider", "oidc", "--id", "corp", "--issuer", "https://login.example.com:99999"], "--issuer"],
    [
      [
        "add-provider",
        "oauth",
        "--id",
        "acme",
        "--authorization",
        "https://acme.example/authorize",
        "--token",
        "https://acme.example:0/token",
        "--userinfo",
        "https://acme.example/me",
      ],
      "--token",
    ],
    [["add-provider", "github", "--enterprise-url", "https://ghe.example.com:70000"], "--enterprise-url"],
    [
      ["add-provider", "notion", "--redirect-uri", "https://app.example.com:99999/api/auth/callback/notion"],
      "--redirect-uri",
    ],
    [["add-provider", "social", "--base-url", "https://app.example.com:99999"], "--base-url"],
  ])("a port out of range in any URL option is one line naming it: %j", async (args, flag) => {
    const { cwd, before } = nextApp();
    const result = await inProcess([...args, "--no-install"], { cwd });
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(new RegExp(`^error: ${flag}: .*port is out of range; ports run from 1 to 65535`));
    expect(snapshot(cwd)).toEqual(before);
  });

  it("the built-ins' URL options are checked as endpoints are: no password, no plain http beyond localhost", async () => {
    for (const [uri, message] of [
      [
        "https://me:pw@app.example.com/api/auth/callback/notion",
        /"https:\/\/\*\*\*@app\.example\.com.*contains a user name or password/,
      ],
      ["http://app.example.com/api/auth/callback/notion", /uses plain http/],
    ] as const) {
      const { cwd, before } = nextApp();
      const result = await inProcess(["add-provider", "notion", "--redirect-uri", uri, "--no-install"], { cwd });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain("pw@");
      expect(snapshot(cwd)).toEqual(before);
    }
  });

  it("--base-url with a line break is refused, not printed as two lines", async () => {
    const { cwd } = nextApp();
    const result = await inProcess(
      ["add-provider", "social", "--base-url", "https://app.example.com\nFAKE", "--no-install"],
      {
        cwd,
      },
    );
    expect(result.exitCode).toBe(2);
    oneLine(result.stderr);
    expect(result.stderr).toMatch(/^error: --base-url: invalid value "https:\/\/app\.example\.com\\x0aFAKE"/);
  });

  it.each([
    ["postgres://app:pw-9f2c@127.0.0.1:99999/app", /its port is out of range; ports run from 1 to 65535/],
    [
      "postgres://app:pw#9f2c@db.internal/app",
      /what follows the host's colon is not a port number .*must be percent-encoded/,
    ],
    ["mysql://app:pw-9f2c@127.0.0.1:3306/app", /it is a mysql: URL, where PostgreSQL takes postgres: or postgresql:/],
  ])("migrate with DATABASE_URL %j in .env.local: one line naming it and the file, exit 2", async (url, message) => {
    const app = tempDir();
    expect((await inProcess(["init", "--yes", "--no-install", "--backend", "postgres"], { cwd: app })).exitCode).toBe(
      0,
    );
    writeFileSync(join(app, ".env.local"), `DATABASE_URL=${url}\n`, { flag: "a" });
    const before = snapshot(app);
    // No driver installed: the URL is refused before one would be loaded. The variable is unset here, as on
    // a developer's machine: set (even empty) in the environment it would win over the files.
    // As from a developer's shell: vitest's NODE_ENV=test would leave .env.local unread, as Next.js does.
    vi.stubEnv("DATABASE_URL", undefined);
    const result = await inProcess(["migrate"], { cwd: app, env: { NODE_ENV: "development" } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: DATABASE_URL in \.env\.local is not a connection string for PostgreSQL: /);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/pw|9f2c|Invalid URL/);
    expect(snapshot(app)).toEqual(before);
  });

  it("doctor: a DATABASE_URL with port 99999 is a db.url-invalid finding naming the variable and file, never its password", async () => {
    const app = tempDir();
    expect((await inProcess(["init", "--yes", "--no-install", "--backend", "postgres"], { cwd: app })).exitCode).toBe(
      0,
    );
    writeFileSync(join(app, ".env.local"), "DATABASE_URL=postgres://app:pw-77d1@127.0.0.1:99999/app\n", { flag: "a" });
    const result = await inProcess(["doctor", "--json"], { cwd: app, env: { DATABASE_URL: "" } });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as { findings: { id: string; message: string; file?: string }[] };
    expect(report.findings.find((f) => f.id === "db.url-invalid")).toMatchObject({
      message:
        "DATABASE_URL in .env.local is not a connection string for PostgreSQL: its port is out of range; ports run from 1 to 65535.",
      file: ".env.local",
    });
    expect(result.stdout).not.toMatch(/pw-77d1|Invalid URL/);
  });
});
