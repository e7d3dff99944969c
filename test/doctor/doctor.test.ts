/** The doctor command: usage errors, output shapes, --fix, and that no secret is ever printed. */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/render/env-file.js";
import { inProcess, root, snapshot, tempDir } from "../helpers.js";
import { copyProject, doctorFixtures, doctorJson, problemIds, readMeta } from "./helpers.js";

describe("doctor usage errors", () => {
  it("refuses a --dir that does not exist, in one line, exit 2", async () => {
    const result = await inProcess(["doctor", "--dir", "/nonexistent/project"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --dir \/nonexistent\/project: no such folder/);
    expect(result.stderr.split("\n")).toHaveLength(1);
  });

  it("refuses --dir given twice and an --env file that is not there, changing nothing", async () => {
    const dir = copyProject("provider.callback-url");
    const before = snapshot(dir);
    const twice = await inProcess(["doctor", "--dir", dir, "--dir", dir]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/--dir was given twice/);
    const env = await inProcess(["doctor", "--dir", dir, "--env", ".env.nope", "--fix"]);
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toMatch(/--env \.env\.nope: no such file/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses a folder without an auth config with exit 2", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), "{}\n");
    const result = await inProcess(["doctor", "--dir", dir]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/No auth config found/);
  });

  it("with --json, says so as JSON on stdout too, where the reading program looks", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), "{}\n");
    const result = await inProcess(["doctor", "--dir", dir, "--json"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: No auth config found/);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ version: 1, error: { exitCode: 2 } });
    expect(parsed.error.message).toMatch(/^No auth config found in /);
    expect(parsed.error.hint).toMatch(/--config/);
  });
});

describe("doctor output", () => {
  it("groups the text by severity, with each id, its fix and no colour under NO_COLOR", async () => {
    const dir = copyProject("host.untrusted");
    const result = await inProcess(["doctor", "--dir", dir]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/Errors \(1\)\n {2}✖ host\.untrusted {2}.*UntrustedHost/);
    expect(result.stdout).toMatch(/Info \(1\)\n {2}i provider\.callback-url/);
    expect(result.stdout).toMatch(/fix: Set AUTH_TRUST_HOST=true/);
    expect(result.stdout).toMatch(/1 error, 0 warnings, 1 info\./);
    expect(result.stdout).not.toMatch(/\u001b\[/);
  });

  it("colours the text when FORCE_COLOR asks and NO_COLOR does not forbid", async () => {
    const dir = copyProject("host.untrusted");
    const coloured = await inProcess(["doctor", "--dir", dir], { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    expect(coloured.stdout).toMatch(/\u001b\[31m/);
    const plain = await inProcess(["doctor", "--dir", dir], { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
  });

  it("prints the documented JSON shape and exits 0 when only info is found", async () => {
    const dir = copyProject("provider.callback-url");
    const { exitCode, report } = await doctorJson(dir);
    expect(exitCode).toBe(0);
    expect(Object.keys(report).sort()).toEqual(["findings", "project", "summary", "version"]);
    expect(report.summary).toEqual({ errors: 0, warnings: 0, info: 1 });
    expect(report.findings[0]).toEqual({
      id: "provider.callback-url",
      severity: "info",
      message:
        'Register http://localhost:3000/api/auth/callback/github as the callback (redirect) URL of provider "github".',
      fix: expect.stringContaining("https://authjs.dev/getting-started/providers/github"),
      file: "auth.ts",
    });
  });

  it("prints the callback URL under AUTH_URL's origin and the config's basePath", async () => {
    const dir = copyProject("provider.callback-url");
    const { report } = await doctorJson(dir, [], { AUTH_URL: "https://app.example.com" });
    expect(report.findings.find((f) => f.id === "provider.callback-url")?.message).toMatch(
      "https://app.example.com/api/auth/callback/github",
    );
  });
});

/** Every value assigned in a fixture's env files, and the literals its code holds, that are secrets. */
function secretsOf(dir: string): string[] {
  const values: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.startsWith(".env"))) {
    for (const entry of parseEnv(readFileSync(join(dir, name), "utf8")))
      if (/SECRET|KEY|PASSWORD/.test(entry.name) && entry.value.length >= 8) values.push(entry.value);
  }
  const config = ["auth.ts", "src/auth.ts", "pages/api/auth/[...nextauth].ts"]
    .map((f) => join(dir, f))
    .find((f) => existsSync(f))!;
  const code = readFileSync(config, "utf8").match(/"[^"]*(?:secret|SECRET)[^"]*-[^"]+"/g) ?? [];
  return [...values, ...code.map((s) => s.slice(1, -1))];
}

describe("doctor never prints a secret", () => {
  for (const name of doctorFixtures()) {
    it(`in ${name}, as text and JSON`, async () => {
      const meta = readMeta(name);
      const dir = copyProject(name, meta);
      const secrets = secretsOf(dir);
      for (const args of [[], ["--json"]]) {
        const result = await inProcess(["doctor", "--dir", dir, ...args]);
        for (const secret of secrets) {
          expect(result.stdout).not.toContain(secret);
          expect(result.stderr).not.toContain(secret);
        }
      }
    });
  }

  it("hides a secret a message would quote", async () => {
    const { hideSecrets } = await import("../../src/doctor/report.js");
    expect(hideSecrets("value is abcdef123456 here", ["abcdef123456"])).toBe("value is <hidden> here");
  });
});

describe("doctor --fix", () => {
  it("fixes what is safe, says what without values, and changes nothing the second time", async () => {
    const dir = copyProject("host.untrusted", { modes: { ".env.local": "644" } });
    // v4 names, no secret, no ignore rule: everything --fix may touch.
    writeFileSync(join(dir, ".env.local"), "NEXTAUTH_GITHUB_ID=github-id\nAUTH_GITHUB_SECRET=github-secret-value\n");
    writeFileSync(join(dir, ".gitignore"), "node_modules\n");
    const first = await doctorJson(dir, ["--fix"]);
    expect(first.report.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(first.report.fixed).toEqual([
      "wrote a fresh AUTH_SECRET (32 random bytes) to .env.local",
      "set AUTH_TRUST_HOST=true in .env.local",
      "renamed NEXTAUTH_GITHUB_ID to AUTH_GITHUB_ID in .env.local",
      "added .env.local to .gitignore",
      "made .env.local readable by its owner only (chmod 600)",
    ]);
    expect(first.report.summary.errors).toBe(0);
    expect(first.exitCode).toBe(0);
    const env = readFileSync(join(dir, ".env.local"), "utf8");
    const secret = parseEnv(env).find((e) => e.name === "AUTH_SECRET")!.value;
    expect(Buffer.from(secret, "base64")).toHaveLength(32);
    expect(env).toMatch(/^AUTH_GITHUB_ID=github-id$/m);
    expect(env).not.toMatch(/NEXTAUTH_/);
    expect(statSync(join(dir, ".env.local")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\n.env.local\n");

    const before = snapshot(dir);
    const second = await inProcess(["doctor", "--dir", dir, "--fix"]);
    expect(second.stdout).toMatch(/Nothing to fix safely\./);
    expect(snapshot(dir)).toEqual(before);
    for (const output of [first.stdout, second.stdout]) expect(output).not.toContain(secret);
  });

  it("leaves a tracked env file and a secret in the code to the user", async () => {
    const dir = copyProject("files.env-tracked", readMeta("files.env-tracked"));
    const before = snapshot(dir);
    const { report, exitCode } = await doctorJson(dir, ["--fix"]);
    expect(report.fixed).toEqual([]);
    expect(exitCode).toBe(1);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("doctor --help", () => {
  it("shows its options and examples", async () => {
    const result = await inProcess(["doctor", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/--env <file>/);
    expect(result.stdout).toMatch(/\$ create-auth doctor --fix/);
  });

  it("is listed in the program's help", async () => {
    const result = await inProcess(["--help"], { cwd: root });
    expect(result.stdout).toMatch(/\n\s+doctor\s+Find what will break sign-in/);
  });
});

describe("doctor's findings page", () => {
  it("lists every check id with its severity", async () => {
    const checks = await (await import("../../src/doctor/checks/index.js")).allChecks();
    const page = readFileSync(join(root, "docs/doctor-findings.md"), "utf8");
    for (const check of checks) expect(page).toContain(`| \`${check.id}\` | ${check.severity} |`);
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
  });
});

describe("doctor --env", () => {
  it("reads the named files instead of the defaults, a later one winning, and --fix leaves .env.local alone then", async () => {
    const dir = copyProject("provider.callback-url");
    writeFileSync(join(dir, ".env.production"), "AUTH_GITHUB_ID=prod-id\n", { mode: 0o600 });
    writeFileSync(join(dir, ".env.override"), "AUTH_URL=https://app.example.com\n", { mode: 0o600 });
    const before = snapshot(dir);
    const { report } = await doctorJson(dir, ["--env", ".env.production", "--env", ".env.override", "--fix"]);
    // Neither file holds the secret or the GitHub secret: the defaults (.env.local) are not read.
    expect(problemIds(report)).toEqual(["provider.env-missing", "secret.missing"]);
    expect(report.findings.find((f) => f.id === "provider.callback-url")?.message).toMatch(
      "https://app.example.com/api/auth/callback/github",
    );
    expect(report.fixed).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });
});
