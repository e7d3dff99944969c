// verify-adapter's usage: help, the case list and every refusal that comes before its worker starts.
// The runs themselves (the worker is the built dist/cli/verify-worker.js): verify-adapter.process.test.ts.
import { describe, expect, it } from "vitest";
import { fixture, inProcess, tempDir } from "../helpers.js";

const memory = fixture("adapters", "memory.ts");

describe("create-auth verify-adapter", () => {
  it("--help shows the commands, examples and exit codes", async () => {
    const top = await inProcess(["--help"]);
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toMatch(/verify-adapter/);
    const help = await inProcess(["verify-adapter", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/Examples:\n\s+\$ create-auth verify-adapter/);
    expect(help.stdout).toMatch(/Exit codes: 0 .* 1 .* 2 /);
  });
  it.each([
    [["verify-adapter"], /Missing the adapter module path/],
    [
      ["verify-adapter", memory, "--timeout", "abc"],
      /--timeout: invalid value "abc"; expected a whole number of milliseconds/,
    ],
    [
      ["verify-adapter", memory, "--require", "sessions,passwords"],
      /--require: invalid value "sessions,passwords"; expected users, sessions, email, webauthn, all, tokens or attempts/,
    ],
    [
      ["verify-adapter", memory, "--reporter", "tap"],
      /--reporter: invalid value "tap"; expected pretty, json, junit, github/,
    ],
    [["verify-adapter", memory, "--only", "user.nope.*"], /--only user\.nope\.\* matches no case/],
    [["verify-adapter", memory, "--skip", "*"], /--only and --skip leave nothing to run/],
    [["verify-adapter", memory, "--setup-timeout", "0"], /--setup-timeout: invalid value "0"/],
    [["verify-adapter", memory, "--teardown-timeout", "soon"], /--teardown-timeout: invalid value "soon"/],
    [["verify-adapter", memory, "--explore-path", "$(rm -rf ~)"], /--explore-path: invalid value/],
    [["verify-adapter", memory, "--reporter", "json", "--output-file", tempDir()], /--output-file .* is a directory/],
    [
      ["verify-adapter", memory, "--reporter", "junit", "--output-file", `${memory}/report.xml`],
      /--output-file .*memory\.ts\/report\.xml cannot be written \(.*memory\.ts is not a writable folder\)/,
    ],
    [
      ["verify-adapter", memory, "--reporter", "pretty", "--reporter", "json"],
      /--reporter json would mix its output with pretty on stdout/,
    ],
    [
      ["verify-adapter", memory, "--output-file", "x.xml"],
      /--output-file x\.xml: no json or junit reporter to write it/,
    ],
    [["verify-adapter", memory, "--bogus"], /unknown option '--bogus'/],
  ])("exits 2 without running a case or starting the worker: %s", async (args, message) => {
    const result = await inProcess(args as string[]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).not.toMatch(/cases:/);
  });
  it("--list prints every case id with its title", async () => {
    const result = await inProcess(["verify-adapter", "--list"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^session\.get\.unknown-token-is-null\s+getSessionAndUser returns null/m);
    expect(result.stdout).not.toMatch(/§/);
  });

  it.each(["2x", "-1", "1.5", "0s"])("--explore %s is a usage error", async (value) => {
    const result = await inProcess(["verify-adapter", memory, "--explore", value]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--explore: invalid value/);
  });
});
