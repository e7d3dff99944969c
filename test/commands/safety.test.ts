/**
 * The CLI's own safety, through the real CLI: no secret printed or widened,
 * no edit lost, bad input a one-line error that changes nothing. (Signals
 * and a killed run: test/workspace/plan-signals.process.test.ts;
 * another user: safety.process.test.ts.)
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

const ci = { CI: "true" };
const init = (cwd: string, ...args: string[]) =>
  inProcess(["init", "--yes", "--no-install", ...args], { cwd, env: ci });
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const mode = (path: string) => statSync(path).mode & 0o777;

/** A copy of the sample Next.js-style project (src/auth.ts, package.json). */
function nextApp(): string {
  const dir = tempDir("create-auth-safety-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return dir;
}

describe("secrets are never printed or widened", () => {
  it("--dry-run diffs show env values as <hidden>: the new secret and every existing value", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env.local"), "DATABASE_URL=postgres://app:hunter2@db/app\nSTRIPE_KEY=sk_live_123\n");
    const result = await init(dir, "--dry-run");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\+AUTH_SECRET=<hidden>$/m);
    expect(result.stdout).toMatch(/^ DATABASE_URL=<hidden>$/m);
    expect(result.stdout).not.toMatch(/hunter2|sk_live_123/);
    expect(result.stdout).not.toMatch(/AUTH_SECRET=[A-Za-z0-9+/]{20,}/);

    const app = nextApp();
    writeFileSync(join(app, ".env.local"), "AUTH_SECRET=keep-me-secret\r\n");
    const provider = await inProcess(["add-provider", "social", "--dry-run", "--no-install"], { cwd: app, env: ci });
    expect(provider.exitCode).toBe(0);
    expect(provider.stdout).not.toContain("keep-me-secret");
    expect(provider.stdout).toMatch(/^ AUTH_SECRET=<hidden>/m);
  });

  it(".env.local is created 0600; an existing one keeps its mode, and a link stays a link to its updated target", async () => {
    const fresh = tempDir();
    expect((await init(fresh)).exitCode).toBe(0);
    expect(mode(join(fresh, ".env.local"))).toBe(0o600);

    const shared = tempDir();
    writeFileSync(join(shared, ".env.local"), "OTHER=1\n");
    chmodSync(join(shared, ".env.local"), 0o640);
    expect((await init(shared)).exitCode).toBe(0);
    expect(mode(join(shared, ".env.local"))).toBe(0o640);

    const linked = tempDir();
    mkdirSync(join(linked, "config"));
    writeFileSync(join(linked, "config", "dev.env"), "OTHER=1\n", { mode: 0o600 });
    symlinkSync("config/dev.env", join(linked, ".env.local"));
    expect((await init(linked)).exitCode).toBe(0);
    expect(lstatSync(join(linked, ".env.local")).isSymbolicLink()).toBe(true);
    expect(read(linked, "config/dev.env")).toMatch(/^AUTH_SECRET=\S+$/m);
    expect(mode(join(linked, "config", "dev.env"))).toBe(0o600);
  });

  it.each([[".env*\n!.env.local\n"], ["*.local\n!.env.*\n"]])(
    ".gitignore %j: .env.local ends up ignored, as git itself decides",
    async (rules) => {
      const dir = tempDir();
      await execa("git", ["init", "-q"], { cwd: dir });
      writeFileSync(join(dir, ".gitignore"), rules);
      expect((await init(dir)).exitCode).toBe(0);
      const check = await execa("git", ["check-ignore", "-q", ".env.local"], { cwd: dir, reject: false });
      expect(check.exitCode).toBe(0);
    },
  );

  it("an empty AUTH_SECRET (as after copying .env.example) is filled, and the fill is reported without the value", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env.local"), 'AUTH_SECRET=""\nOTHER=1\n');
    const result = await init(dir);
    expect(result.exitCode).toBe(0);
    const secret = /^AUTH_SECRET=(\S+)$/m.exec(read(dir, ".env.local"))?.[1];
    expect(Buffer.from(secret ?? "", "base64")).toHaveLength(32);
    expect(read(dir, ".env.local").match(/AUTH_SECRET=/g)).toHaveLength(1);
    expect(result.stdout).toMatch(/AUTH_SECRET was empty in \.env\.local; it now holds a fresh secret/);
    expect(result.stdout).not.toContain(secret);
  });

  it("temporary files a killed run left are removed by the next run", async () => {
    const app = nextApp();
    // A process id no live process has (beyond the kernel's largest).
    const stale = join(app, "src", ".auth.ts.create-auth-4194304999-k1ll3d.tmp");
    writeFileSync(stale, "AUTH_SECRET=leaked\n", { mode: 0o600 });
    expect((await inProcess(["add-provider", "social", "--no-install"], { cwd: app, env: ci })).exitCode).toBe(0);
    expect(existsSync(stale)).toBe(false);
  });
});

describe("no edit is lost", () => {
  it("two add-provider runs on one config at once both land", async () => {
    for (let round = 0; round < 4; round++) {
      const app = nextApp();
      const [first, second] = await Promise.all([
        inProcess(["add-provider", "social", "--no-install"], { cwd: app, env: ci }),
        inProcess(["add-provider", "credentials"], { cwd: app, env: ci }),
      ]);
      expect([first.exitCode, second.exitCode, first.stderr, second.stderr]).toEqual([0, 0, "", ""]);
      const config = read(app, "src/auth.ts");
      expect(config).toContain('import { vk } from "./providers/vk";');
      expect(config).toContain('import { credentials } from "./providers/credentials";');
      expect(config).toMatch(/\bvk,/);
      expect(config).toMatch(/\bcredentials,/);
    }
  });

  it("a config that is a link stays a link; its target is edited and the provider module goes beside it", async () => {
    const app = nextApp();
    mkdirSync(join(app, "shared"));
    cpSync(join(app, "src", "auth.ts"), join(app, "shared", "auth.ts"));
    writeFileSync(join(app, "src", "auth.ts"), "");
    const link = join(app, "src", "auth.ts");
    const { rmSync } = await import("node:fs");
    rmSync(link);
    symlinkSync("../shared/auth.ts", link);
    const result = await inProcess(["add-provider", "social", "--no-install"], { cwd: app, env: ci });
    expect(result.exitCode).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(app, "shared/auth.ts")).toContain('import { vk } from "./providers/vk";');
    expect(existsSync(join(app, "shared", "providers", "vk.ts"))).toBe(true);
  });
});

describe("bad input: one line, exit 2, nothing written", () => {
  it.each(["package.json", ".gitignore", "auth.ts", ".env.local", "tsconfig.json", ".env.example"])(
    "init with a folder named %s",
    async (name) => {
      const dir = tempDir();
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "keep"), "x");
      const before = snapshot(dir);
      const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^error: .*${name.replace(".", "\\.")} is a folder`));
      expect(result.stderr.split("\n")).toHaveLength(1);
      expect(snapshot(dir)).toEqual(before);
    },
  );

  it("add-provider with a folder where the config or an env file belongs", async () => {
    for (const name of ["src/auth.ts", ".env.local"]) {
      const app = nextApp();
      if (name === "src/auth.ts") (await import("node:fs")).rmSync(join(app, name));
      mkdirSync(join(app, name), { recursive: true });
      const before = snapshot(app);
      const result = await inProcess(["add-provider", "social", "--no-install"], { cwd: app });
      expect(result.exitCode, name).toBe(2);
      // The config is found by what a module holds: a folder named auth.ts holds none.
      expect(result.stderr).toMatch(name === ".env.local" ? /is a folder/ : /No auth config found/);
      expect(snapshot(app)).toEqual(before);
    }
  });

  it.each([
    ["[1,2,3]", /holds an array, not an object/],
    ['"app"', /holds a string, not an object/],
    ["null", /holds null, not an object/],
    ['\uFEFF{ "name": "app" }', /starts with a byte-order mark/],
    ["{ name: app }", /is not valid JSON/],
  ])("a package.json of %j", async (text, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), text);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.split("\n")).toHaveLength(1);
    expect(snapshot(dir)).toEqual({ "package.json": text });
  });

  it.each([
    [["oidc", "--id", "corp", "--issuer", "http://login.corp.example"], /uses plain http/],
    [
      ["oidc", "--id", "corp", "--issuer", "https://admin:hunter2@login.corp.example"],
      /contains a user name or password/,
    ],
    [["social", "--base-url", "javascript:alert(1)"], /--base-url: invalid value/],
    [["social", "--base-url", "https://admin:hunter2@app.example"], /--base-url: invalid value/],
  ])("add-provider %j is refused without printing a password", async (args, message) => {
    const app = nextApp();
    const before = snapshot(app);
    const result = await inProcess(["add-provider", ...args], { cwd: app });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("hunter2");
    expect(snapshot(app)).toEqual(before);
  });

  it("an http issuer on this machine is fine", async () => {
    const result = await inProcess(["add-provider", "oidc", "--id", "dev", "--issuer", "http://localhost:9000"], {
      cwd: nextApp(),
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });
});

describe("output a person can use", () => {
  it("quotes a folder with a space in the cd step", async () => {
    const cwd = tempDir();
    const result = await init(cwd, "--dir", "my app");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^ {2}- cd 'my app'$/m);
  });

  it("keeps CRLF line endings of the env files and .gitignore it appends to", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".env.local"), "OTHER=1\r\n");
    writeFileSync(join(dir, ".gitignore"), "dist\r\n");
    expect((await init(dir)).exitCode).toBe(0);
    for (const name of [".env.local", ".gitignore"]) {
      const text = read(dir, name);
      expect(text.split("\r\n").length, name).toBeGreaterThan(2);
      expect(text.replace(/\r\n/g, ""), name).not.toContain("\n");
    }
  });
});
