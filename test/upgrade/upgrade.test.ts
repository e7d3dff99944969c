/**
 * `create-auth upgrade` on six hand-written next-auth v4 apps, at the plan
 * level: each case's input (fixtures/upgrade/<case>/input) upgraded in a
 * temp folder must give exactly the files of expected/, remove exactly the
 * files expected.json names, keep every other file byte for byte, give its
 * notes and manual steps, and change nothing when run again.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runUpgrade } from "../../src/commands/upgrade.js";
import { capturedIo, fixture, tempDir } from "../helpers.js";
import { copyInput, expectedFiles, filesUnder, readExpected, upgradeCases } from "./cases.js";

const cases = upgradeCases();

/** Writes the current results as the expected ones: for a new case, reviewed by hand before it is committed. */
const recording = process.env.RECORD_UPGRADE_CASES === "1";

describe("create-auth upgrade on hand-written v4 apps", () => {
  it("has the six apps", () => {
    expect(cases).toEqual([
      "app-mongodb-driver-5",
      "app-prisma-database",
      "custom-adapter-jwt-secret",
      "js-email-custom-pages",
      "pages-firebase-admin-11",
      "pages-github-credentials",
    ]);
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = tempDir("create-auth-upgrade-");
      copyInput(name, dir);
      const before = new Map(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
      const run = capturedIo(dir);
      const code = await runUpgrade({ install: false }, run.io);
      expect(run.stderr()).toBe("");
      expect(code).toBe(0);
      const after = new Map(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
      const removed = [...before.keys()].filter((f) => !after.has(f));
      const changed = [...after].filter(([f, text]) => before.get(f) !== text);
      const manual = run
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("  - "))
        .map((l) => l.slice(4));
      const notes = run
        .stdout()
        .split("\n")
        .filter((l) => l.startsWith("note: "))
        .map((l) => l.slice(6));
      if (recording) {
        const { mkdirSync, rmSync } = await import("node:fs");
        const base = fixture("upgrade", name, "expected");
        rmSync(base, { recursive: true, force: true });
        for (const [file, text] of changed) {
          const stored = join(base, file.replace(/(^|\/)\./g, "$1dot-"));
          mkdirSync(join(stored, ".."), { recursive: true });
          writeFileSync(stored, text);
        }
        writeFileSync(
          fixture("upgrade", name, "expected.json"),
          `${JSON.stringify({ removed, notes, manual }, null, 2)}\n`,
        );
      }
      const expected = readExpected(name);
      expect(removed).toEqual(expected.removed);
      expect(new Map(changed)).toEqual(expectedFiles(name));
      expect(notes).toEqual(expected.notes);
      expect(manual).toEqual(expected.manual);
      // The route hands Auth.js the client's address, as init's does: the sign-in throttle counts attempts by it.
      const route = changed.find(([file]) => /\[\.\.\.nextauth\]\/route\.[jt]s$/.test(file));
      expect(route?.[1]).toContain(
        "handlers.POST(new NextRequest(withClientAddress(request, lastForwardedFor(request.headers))))",
      );
      // No value of an env file is ever printed.
      for (const file of [".env", ".env.local"].filter((f) => existsSync(join(dir, f))))
        for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
          const value = line.split("=").slice(1).join("=").replace(/^"|"$/g, "");
          if (value.length > 8) expect(run.stdout()).not.toContain(value);
        }

      // Again: v5 now, nothing to do, nothing written.
      const again = capturedIo(dir);
      expect(await runUpgrade({ install: false }, again.io)).toBe(0);
      expect(again.stdout()).toMatch(/is next-auth v5's already: nothing to upgrade/);
      expect(new Map(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]))).toEqual(after);
    });
  }
});

describe("create-auth upgrade as a command", () => {
  it("--dry-run prints the diff, hides every env value, and writes nothing", async () => {
    const { inProcess, snapshot } = await import("../helpers.js");
    const dir = tempDir("create-auth-upgrade-");
    copyInput("pages-github-credentials", dir);
    const before = snapshot(dir);
    const result = await inProcess(["upgrade", "--dry-run"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("+++ b/app/api/auth/[...nextauth]/route.ts");
    expect(result.stdout).toContain("--- a/pages/api/auth/[...nextauth].ts\n+++ /dev/null");
    expect(result.stdout).toMatch(/^\+AUTH_SECRET=<hidden>$/m);
    expect(result.stdout).not.toContain("7f3c9a1e5b2d8c4f");
    expect(result.stdout).not.toContain("Iv1.placeholder");
    expect(result.stdout).toMatch(/Dry run: 11 file\(s\) would change; nothing was written\./);
    expect(snapshot(dir)).toEqual(before);
  });

  it("is listed in --help, with its own help, and a project without next-auth is refused with nothing written", async () => {
    const { inProcess, snapshot } = await import("../helpers.js");
    expect((await inProcess(["--help"])).stdout).toMatch(/^ {2}upgrade +Move a next-auth v4 app to v5/m);
    const help = await inProcess(["upgrade", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("https://authjs.dev/getting-started/migrating-to-v5");
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), '{ "dependencies": { "@auth/express": "0.12.3" } }\n');
    writeFileSync(
      join(dir, "auth.ts"),
      'import { ExpressAuth } from "@auth/express";\nexport const auth = ExpressAuth({ providers: [] });\n',
    );
    const before = snapshot(dir);
    const result = await inProcess(["upgrade"], { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^error: Cannot upgrade: .* does not depend on next-auth/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("create-auth upgrade when the install fails", () => {
  /** A stand-in npm on PATH that fails as npm does on a peer conflict, after running `also` (shell). */
  function failingNpm(also = "") {
    const bin = tempDir("create-auth-bin-");
    writeFileSync(
      join(bin, "npm"),
      [
        "#!/bin/sh",
        also,
        'echo "npm error code ERESOLVE" >&2',
        'echo "npm error ERESOLVE unable to resolve dependency tree" >&2',
        "exit 1",
        "",
      ].join("\n"),
    );
    chmodSync(join(bin, "npm"), 0o755);
    return { PATH: `${bin}:${process.env.PATH}` };
  }

  it("undoes the upgrade: every file as it was, created folders gone, npm's reason and the way on printed, exit 1", async () => {
    const { inProcess, snapshot } = await import("../helpers.js");
    const dir = tempDir("create-auth-upgrade-");
    copyInput("pages-github-credentials", dir);
    const before = snapshot(dir);
    const result = await inProcess(["upgrade"], { cwd: dir, env: failingNpm() });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^created app\/api\/auth\/\[\.\.\.nextauth\]\/route\.ts$/m);
    expect(result.stderr).toMatch(
      /^error: npm install failed \(exit code 1\), so the upgrade was undone: every file is as it was, on next-auth 4\.$/m,
    );
    expect(result.stderr).toContain("npm error ERESOLVE unable to resolve dependency tree");
    expect(result.stderr).toMatch(/run create-auth upgrade again \(--no-install writes the files/);
    expect(snapshot(dir)).toEqual(before);
    // The route's folders, made by the upgrade, are gone with it.
    expect(existsSync(join(dir, "app"))).toBe(false);
    // And the upgrade can run again, as the first time.
    expect((await runUpgrade({ install: false }, capturedIo(dir).io)) as number).toBe(0);
  });

  it("says so when the files cannot be put back (changed while npm ran), and leaves them as written", async () => {
    const { inProcess } = await import("../helpers.js");
    const dir = tempDir("create-auth-upgrade-");
    copyInput("pages-github-credentials", dir);
    const result = await inProcess(["upgrade"], {
      cwd: dir,
      env: failingNpm(`echo "// edited while npm ran" >> "${join(dir, "auth.ts")}"`),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^error: npm install failed \(exit code 1\), and undoing the upgrade failed too \(/m);
    expect(result.stderr).toMatch(/Fix the problem above, then run `npm install` in /);
    expect(readFileSync(join(dir, "auth.ts"), "utf8")).toContain("NextAuth(");
  });
});
