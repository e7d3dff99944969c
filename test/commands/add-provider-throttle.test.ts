// add-provider credentials|email and the sign-in throttle: written beside the adapter init wrote when it has the
// attempt counters, with the client-address module where the wiring predates it; otherwise the notice says why not.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "../../src/render/templates.js";
import { fixture, inProcess, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

/** A project init set up with GitHub sign-in only: an adapter with counters, no throttle yet. */
async function initWithoutPasswords(): Promise<string> {
  const dir = tempDir("create-auth-throttle-");
  const setup = await inProcess(["init", "--yes", "--no-install", "--providers", "github", "--dir", dir]);
  expect(setup.exitCode, setup.stderr).toBe(0);
  expect(existsSync(join(dir, "auth/throttle.ts"))).toBe(false);
  return dir;
}

describe("add-provider and the sign-in throttle", () => {
  it("credentials, then email, in a project init set up without them: one throttle.ts beside the adapter, both count through it", async () => {
    const dir = await initWithoutPasswords();
    const credentials = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(credentials.exitCode, credentials.stderr).toBe(0);
    expect(read(dir, "auth/throttle.ts")).toBe(await renderTemplate("config/throttle.ts.hbs", { ext: ".js" }));
    const module = read(dir, "providers/credentials.ts");
    expect(module).toContain('import { throttledPasswordCheck } from "../auth/throttle.js";');
    expect(module).toContain("return throttledPasswordCheck(given.email, request, () => checkCredentials(given));");
    // init's wiring passes the client's address already: nothing to say about it.
    expect(credentials.stdout).not.toMatch(/client's address|does not count attempts/);

    const edited = read(dir, "auth/throttle.ts").replace("max: 5,", "max: 3,");
    writeFileSync(join(dir, "auth/throttle.ts"), edited);
    const email = await inProcess(["add-provider", "email", "--no-install"], { cwd: dir });
    expect(email.exitCode, email.stderr).toBe(0);
    expect(read(dir, "providers/email.ts")).toContain('import { maySendSignInEmail } from "../auth/throttle.js";');
    // The config's adapter stores no token of a refused email (Auth.js stores it while it asks for the mail).
    const config = read(dir, "auth.ts");
    expect(config).toContain("adapter: withSignInEmailLimits(createAdapter()),");
    expect(config).toContain('import { withSignInEmailLimits } from "./auth/throttle.js";');
    // A second email provider leaves the wrapped adapter as it is.
    const again = await inProcess(["add-provider", "email", "--id", "email2", "--no-install"], { cwd: dir });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(read(dir, "auth.ts").match(/withSignInEmailLimits\(/g)).toHaveLength(1);
    // The user's limits are theirs: the module is not written again.
    expect(read(dir, "auth/throttle.ts")).toBe(edited);
  });

  it("a wiring older than the throttle: client-address.ts is written, and the notice says the routes must pass the address", async () => {
    const dir = await initWithoutPasswords();
    rmSync(join(dir, "auth/client-address.ts"));
    const result = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "auth/client-address.ts")).toBe(await renderTemplate("frameworks/web/client-address.ts.hbs", {}));
    expect(result.stdout).toContain(
      "Your routes hand requests to Auth.js without the client's address, so the sign-in throttle counts attempts per account only: pass it with withClientAddress(request, address) from auth/client-address.ts.",
    );
  });

  it("an adapter without attempt counters (an older init's): the provider counts nothing, and the notice says why", async () => {
    const dir = await initWithoutPasswords();
    const adapter = read(dir, "auth/adapter.ts");
    writeFileSync(join(dir, "auth/adapter.ts"), adapter.replaceAll("Attempts", "Tries"));
    const result = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "providers/credentials.ts")).not.toContain("throttle");
    expect(existsSync(join(dir, "auth/throttle.ts"))).toBe(false);
    expect(result.stdout).toMatch(
      /The credentials provider does not count attempts, so nothing limits how often it is tried: \S*auth\/adapter\.ts has no attempt counters \(incrementAttempts, decrementAttempts, clearAttempts\); create-auth init's adapters have them\./,
    );
  });

  it("a config of the team's own, no adapter of create-auth's: the notice says so", async () => {
    const dir = tempDir("create-auth-app-");
    cpSync(fixture("projects", "next-app"), dir, { recursive: true });
    const result = await inProcess(["add-provider", "email", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/providers/email.ts")).not.toContain("throttle");
    expect(result.stdout).toContain(
      "The email provider does not count attempts, so nothing limits how often it is tried: no adapter of create-auth init was found beside your config.",
    );
  });

  it("next-auth v4: v4's credentials provider, which the throttle does not cover, and the notice says to upgrade", async () => {
    const dir = tempDir("create-auth-v4-");
    copyInput("pages-github-credentials", dir);
    const result = await inProcess(["add-provider", "credentials", "--id", "pw", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "lib/auth/providers/pw.ts")).not.toContain("throttle");
    expect(result.stdout).toContain(
      "The credentials provider does not count attempts, so nothing limits how often it is tried: the generated throttle needs next-auth v5 (create-auth upgrade).",
    );
  });
});
