// init and add-provider in a next-auth v4 Pages Router app (fixtures/upgrade's hand-written one): v4 code only,
// into the user's own authOptions, the user's providers and files kept.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, snapshot, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const configFile = "pages/api/auth/[...nextauth].ts";

function v4App(): string {
  const dir = tempDir("create-auth-v4-");
  copyInput("pages-github-credentials", dir);
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
/** Every file the command wrote or changed, by path. */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after)
    .filter((path) => before[path] !== after[path])
    .sort();
}

describe("init in a next-auth v4 project", () => {
  it("--yes: one line naming create-auth upgrade, the adapter added to authOptions, no v5 code", async () => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n").filter((l) => l.includes("create-auth upgrade"))).toEqual([
      "note: next-auth 4.24.15 (v4): init adds only what v4 can use to your authOptions; to move to v5 first, run create-auth upgrade.",
    ]);
    const after = snapshot(dir);
    // Nothing of v5: no auth.ts, no App Router route, no NextAuthConfig, no AUTH_SECRET beside v4's NEXTAUTH_SECRET.
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
    expect(existsSync(join(dir, "app"))).toBe(false);
    const written = Object.entries(after).filter(([path]) => before[path] !== after[path]);
    for (const [path, text] of written) {
      expect(text, path).not.toMatch(/NextAuthConfig|handlers|^AUTH_SECRET=/m);
      expect(path, path).not.toMatch(/^(?:app|pages)\/(?!api\/auth\/\[\.\.\.nextauth\]\.ts$)/);
    }
    expect(changed(before, after)).toEqual([
      ".env.example",
      ".env.local",
      ".gitignore",
      "lib/auth/adapter.ts",
      "lib/auth/db.ts",
      "lib/auth/load-env.ts",
      "lib/auth/schema.sqlite.sql",
      "lib/auth/verify-adapter.ts",
      "package.json",
      configFile,
    ]);
    const config = read(dir, configFile);
    expect(config).toContain('import { createAdapter } from "../../../lib/auth/adapter";');
    // v4 defaults to database sessions once an adapter is set, which Credentials cannot use: the strategy is written.
    expect(config).toMatch(/\n {2}adapter: createAdapter\(\),\n {2}session: \{ strategy: "jwt" \},\n {2}providers: \[/);
    // The user's providers and options, byte for byte: only the two lines and the import are new.
    const original = before[configFile]!;
    const added = config
      .split("\n")
      .filter((line) => !original.split("\n").includes(line))
      .sort();
    expect(added).toEqual([
      "  adapter: createAdapter(),",
      '  session: { strategy: "jwt" },',
      'import { createAdapter } from "../../../lib/auth/adapter";',
    ]);
    expect(JSON.parse(read(dir, "package.json")).dependencies["next-auth"]).toBe("4.24.15");
    expect(read(dir, ".env.local")).toContain('NEXTAUTH_SECRET="pages-app secret');
  });

  it("--providers adds v4's built-ins beside the user's own, and keeps the user's provider of the same id", async () => {
    const dir = v4App();
    const result = await inProcess(
      ["init", "--yes", "--no-install", "--providers", "google,github", "--session", "jwt"],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const config = read(dir, configFile);
    expect(config).toContain('import { google } from "../../../lib/auth/providers/google";');
    expect(config).toContain("GithubProvider({");
    expect(config).not.toContain("lib/auth/providers/github");
    expect(result.stdout).toMatch(/^note: Provider "github" was not added: A provider with id "github" is already/m);
    expect(read(dir, "lib/auth/providers/google.ts")).toContain('import Google from "next-auth/providers/google";');
    // Each next step once: the provider's own steps (its set-up guide) were said twice on v4.
    const steps = result.stdout.split("Next steps:\n")[1]!.split("\n").filter(Boolean);
    expect(
      steps.filter((step) => step.includes("Set-up guide: https://authjs.dev/getting-started/providers/google")),
    ).toHaveLength(1);
    expect(new Set(steps).size).toBe(steps.length);
  });

  it("--providers credentials: v4's provider, and one line saying it counts no attempts (the throttle needs v5)", async () => {
    // An App Router app on v4 without a Credentials provider of its own (the Pages one has one).
    const dir = tempDir("create-auth-v4-");
    copyInput("app-prisma-database", dir);
    const result = await inProcess(["init", "--yes", "--no-install", "--providers", "credentials"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "lib/providers/credentials.ts")).not.toContain("throttle");
    expect(result.stdout.split("\n").filter((line) => line.includes("does not count attempts"))).toEqual([
      "note: The credentials provider does not count attempts, so nothing limits how often it is tried: the generated throttle needs next-auth v5 (create-auth upgrade).",
    ]);
  });

  it("--orm prisma: the Prisma models and the adapter module over the client, wired into authOptions", async () => {
    const dir = v4App();
    const result = await inProcess(["init", "--yes", "--no-install", "--orm", "prisma", "--backend", "postgres"], {
      cwd: dir,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "prisma/schema.prisma")).toMatch(/model Account \{/);
    expect(read(dir, "lib/auth/adapter.ts")).toContain('from "@auth/prisma-adapter"');
    expect(read(dir, configFile)).toContain('import { createAdapter } from "../../../lib/auth/adapter";');
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
    // The database goes where Prisma reads it, not into .env.local.
    expect(read(dir, ".env")).toMatch(/^DATABASE_URL=/m);
  });

  it("without a terminal and without --yes, the missing answers are one usage error and nothing is written", async () => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: init needs --providers/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("--session database beside the user's Credentials provider is refused: v4 signs it in with JWTs only", async () => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install", "--session", "database"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: --session database: .* has a Credentials provider/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("next-auth v4 without an authOptions to add to: one usage error naming how to start on v5, nothing written", async () => {
    const dir = tempDir("create-auth-v4-empty-");
    writeFileSync(
      join(dir, "package.json"),
      '{ "name": "app", "private": true, "dependencies": { "next": "15.5.29", "next-auth": "^4.24.11" } }\n',
    );
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: This project has next-auth \^4\.24\.11 \(v4\), and init writes v4 only into an existing authOptions: /,
    );
    expect(result.stderr).toMatch(/npm install next-auth@5\.0\.0-beta\.32/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("--protect is refused: it would write v5's middleware", async () => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install", "--protect", "/dashboard"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --protect writes next-auth v5's middleware; .*withAuth.*create-auth upgrade/,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([
    ["init", "--yes", "--no-install", "--providers", "google"],
    ["add-provider", "google", "--no-install"],
  ])("%s --refresh-tokens is refused: the generated rotation is v5 code", async (...command) => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess([...command, "--refresh-tokens"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --refresh-tokens: the generated token rotation needs next-auth v5; run create-auth upgrade first/,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("init's providers question in a next-auth v4 project", () => {
  it("offers only what v4 can import", async () => {
    const { initOptions } = await import("../../src/commands/init-options.js");
    const question = initOptions.rows.providers.question;
    const context = { framework: { id: "next", reason: "" }, orm: { id: undefined, reason: "" }, answers: {} };
    const offered = (nextAuthV4: boolean) => {
      const c = { ...context, nextAuthV4 };
      return [...question.choices(c), ...question.more.choices(c)].map((choice) => choice.value);
    };
    expect(offered(false)).toEqual(
      expect.arrayContaining(["oidc", "email", "resend", "webauthn", "microsoft-entra-id", "github"]),
    );
    expect(offered(true)).toEqual(expect.arrayContaining(["credentials", "github", "google", "keycloak"]));
    for (const v5Only of ["oidc", "oauth", "email", "webauthn", "social", "resend", "passkey", "microsoft-entra-id"])
      expect(offered(true)).not.toContain(v5Only);
  });
});

describe("add-provider in a next-auth v4 project", () => {
  it("a v4 built-in: a default import of next-auth/providers/<id>, typed as v4 reads it, outside pages/", async () => {
    const dir = v4App();
    const result = await inProcess(
      ["add-provider", "keycloak", "--issuer", "https://sso.example.com/realms/main", "--no-install"],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(dir, "pages/api/auth/providers"))).toBe(false);
    const module = read(dir, "lib/auth/providers/keycloak.ts");
    expect(module).toContain('import Keycloak from "next-auth/providers/keycloak";');
    expect(module).toContain('clientId: process.env.AUTH_KEYCLOAK_ID ?? "",');
    expect(module).toContain('issuer: process.env.AUTH_KEYCLOAK_ISSUER || "https://sso.example.com/realms/main",');
    expect(read(dir, configFile)).toMatch(/ {4}keycloak,\n {2}\],/);
  });

  it("google: v4's own provider and nothing else: no token rotation, nothing importing @auth/core", async () => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "google", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toMatch(/createTokenRotation|token rotation/i);
    const after = snapshot(dir);
    expect(changed(before, after)).toEqual([".env.example", ".env.local", "lib/auth/providers/google.ts", configFile]);
    for (const path of changed(before, after)) expect(after[path], path).not.toContain("@auth/core");
  });

  it("credentials: v4's own provider, whose authorize() may get no credentials", async () => {
    const dir = v4App();
    const result = await inProcess(["add-provider", "credentials", "--id", "pw", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const module = read(dir, "lib/auth/providers/pw.ts");
    expect(module).toContain('import Credentials from "next-auth/providers/credentials";');
    expect(module).toContain("email: field(credentials?.email),");
    expect(module).not.toContain("@auth/core");
    // The user's own Credentials provider (id "credentials") is still there beside it.
    expect(read(dir, configFile)).toMatch(/CredentialsProvider\(\{[\s\S]*\n {4}pw,\n {2}\],/);
  });

  it.each([
    [["resend"], /^error: Resend is not among next-auth v4's providers .*create-auth upgrade\.$/],
    [
      ["oidc", "--id", "corp", "--issuer", "https://login.corp.example"],
      /^error: oidc writes a provider module for Auth\.js v5/,
    ],
  ])("%j, which v4 cannot import, is one usage error and nothing is written", async (args, message) => {
    const dir = v4App();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", ...args, "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(snapshot(dir)).toEqual(before);
  });
});
