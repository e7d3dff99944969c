/**
 * The finder on real layouts, one folder per case (fixtures/auth-setups/<case>/):
 * the project's files and expected.json, which names the files the finder
 * must return (relative to the case) and the kind of config, or the error it
 * must give. Dotted names are stored as dot-x and node_modules as
 * _node_modules, so the fixtures do not act on this repository.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { findAuthSetup } from "../../src/ast/setup/find.js";
import { CliError } from "../../src/lib/errors.js";
import { fixture, tempDir } from "../helpers.js";

interface Expected {
  cwd?: string;
  root?: string;
  configFile?: string;
  providersFile?: string;
  authFile?: string;
  routeFile?: string;
  kind?: string;
  error?: string;
  hint?: string;
}

function restoreNames(dir: string): void {
  for (const name of readdirSync(dir)) {
    let path = join(dir, name);
    const real = name.startsWith("dot-") ? `.${name.slice(4)}` : name === "_node_modules" ? "node_modules" : name;
    if (real !== name) renameSync(path, join(dir, real));
    path = join(dir, real);
    if (statSync(path).isDirectory()) restoreNames(path);
  }
}

function copyCase(name: string): { dir: string; expected: Expected } {
  const dir = tempDir("create-auth-setup-");
  cpSync(fixture("auth-setups", name), dir, { recursive: true });
  restoreNames(dir);
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected;
  return { dir, expected };
}

const cases = readdirSync(fixture("auth-setups"));

describe("finding the auth setup by what it is", () => {
  it("has a case for every layout the finder knows", () => {
    expect(cases.length).toBeGreaterThanOrEqual(14);
  });

  for (const name of cases) {
    it(name, async () => {
      const { dir, expected } = copyCase(name);
      const start = join(dir, expected.cwd ?? ".");
      if (expected.error) {
        const error = await findAuthSetup(start).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(2);
        expect((error as CliError).message).toMatch(new RegExp(expected.error));
        expect((error as CliError).message).not.toContain("\n");
        if (expected.hint) expect((error as CliError).hint).toMatch(new RegExp(expected.hint));
        return;
      }
      const setup = await findAuthSetup(start);
      const rel = (file: string | undefined) => (file === undefined ? undefined : relative(dir, file));
      expect({
        root: relative(dir, setup.root) || ".",
        configFile: rel(setup.configFile),
        providersFile: rel(setup.providersFile),
        authFile: rel(setup.authFile),
        routeFile: rel(setup.routeFile),
        kind: setup.kind,
      }).toEqual({
        root: expected.root ?? ".",
        configFile: expected.configFile,
        providersFile: expected.providersFile,
        authFile: expected.authFile,
        routeFile: expected.routeFile,
        kind: expected.kind,
      });
    });
  }
});

describe("the finder's bounds and overrides", () => {
  it("--config is the override: that file, whatever else the project has", async () => {
    const { dir } = copyCase("ambiguous-two-configs");
    const setup = await findAuthSetup(dir, { config: "admin/auth.ts" });
    expect(relative(dir, setup.configFile)).toBe("admin/auth.ts");
    expect(relative(dir, setup.providersFile)).toBe("admin/auth.ts");
    expect(setup.kind).toBe("v5-call");
  });

  it("--config must name a file", async () => {
    await expect(findAuthSetup(tempDir(), { config: "nope.ts" })).rejects.toThrow(/--config nope\.ts: no such file/);
  });

  it("stops at its file limit and says so", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), "{}");
    mkdirSync(join(dir, "a"));
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, "a", `m${String(i).padStart(2, "0")}.ts`), "export {};\n");
    mkdirSync(join(dir, "z"));
    writeFileSync(
      join(dir, "z", "auth.ts"),
      'import NextAuth from "next-auth";\nexport const { handlers } = NextAuth({ providers: [] });\n',
    );
    await expect(findAuthSetup(dir, { limits: { maxFiles: 10, maxDepth: 10 } })).rejects.toThrow(
      /stopped at its limit of 10 files/,
    );
    expect(relative(dir, (await findAuthSetup(dir)).configFile)).toBe("z/auth.ts");
  });

  it("a module that only mentions NextAuth in prose or a string is no setup", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(
      join(dir, "notes.ts"),
      '// We call NextAuth( later.\nexport const text = "NextAuth({ providers })";\n',
    );
    await expect(findAuthSetup(dir)).rejects.toThrow(/No auth config found/);
  });
});

describe("add-provider in a project found by the finder", () => {
  it("a v4 config under pages/api: the provider module goes to lib/auth/providers, never under pages/", async () => {
    const { inProcess } = await import("../helpers.js");
    const { dir } = copyCase("v4-pages-route");
    const result = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const written = (sub: string) => readdirSync(join(dir, sub), { recursive: true }).map(String).sort();
    expect(written("pages")).toEqual(["api", "api/auth", "api/auth/[...nextauth].ts", "index.tsx"]);
    expect(written("lib")).toEqual(["auth", "auth/providers", "auth/providers/credentials.ts"]);
    expect(readFileSync(join(dir, "pages/api/auth/[...nextauth].ts"), "utf8")).toContain(
      'from "../../../lib/auth/providers/credentials";',
    );
  });

  it("a split config: the provider goes into auth.config.ts, where the providers live", async () => {
    const { inProcess } = await import("../helpers.js");
    const { dir } = copyCase("split-edge-config");
    const result = await inProcess(["add-provider", "google", "--no-install"], { cwd: join(dir, "app") });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(dir, "auth.config.ts"), "utf8")).toMatch(/providers: \[GitHub, google\]/);
    expect(readFileSync(join(dir, "providers/google.ts"), "utf8")).toContain("next-auth/providers/google");
  });
});
