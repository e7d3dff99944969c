// End to end: the CLI sets up auth in temp dirs in-process, as CI runs it (CI=true, no terminal, never installing).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { inProcess, root, snapshot, tempDir } from "../helpers.js";

const init = (dir: string, ...args: string[]) =>
  inProcess(["init", "--no-install", ...args], { cwd: dir, env: { CI: "true" } });

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("create-auth init --yes", () => {
  it("sets up an empty directory: config, provider, adapter, schema, env files, package.json, tsconfig", async () => {
    const dir = tempDir("create-auth-init-");
    const result = await init(dir, "--yes");
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(Object.keys(snapshot(dir)).sort()).toEqual(
      [
        ".env.example",
        ".env.local",
        ".gitignore",
        "auth.ts",
        "auth/adapter.ts",
        "auth/add-user.ts",
        "auth/client-address.ts",
        "auth/db.ts",
        "auth/load-env.ts",
        "auth/passwords.ts",
        "auth/schema.sqlite.sql",
        "auth/throttle.ts",
        "auth/verify-adapter.ts",
        "package.json",
        "providers/credentials.ts",
        "tsconfig.json",
      ].sort(),
    );
    const pkg = JSON.parse(read(dir, "package.json"));
    expect(pkg).toMatchObject({ private: true, type: "module" });
    const { "create-auth": self, ...fromCatalog } = pkg.devDependencies;
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...fromCatalog })) {
      expect(version).toBe(dependencyVersions[name as keyof typeof dependencyVersions]);
    }
    expect(pkg.dependencies).toHaveProperty("@auth/core");
    expect(pkg.dependencies).toHaveProperty("better-sqlite3");
    // Run from this checkout, the project points at it: no registry range could reach it (src/workspace/self.ts).
    expect(self).toBe(`file:${root.replace(/\/$/, "")}`);
    expect(pkg.scripts["verify-adapter"]).toMatch(/create-auth verify-adapter/);
    expect(pkg.allowScripts).toEqual({ "better-sqlite3": true, esbuild: false });
    const config = read(dir, "auth.ts");
    expect(config).toContain('import { credentials } from "./providers/credentials.js";');
    expect(config).toContain('session: { strategy: "jwt" },');
    expect(config).toMatch(/adapter: \w+/);
    expect(Buffer.from(/^AUTH_SECRET=(.+)$/m.exec(read(dir, ".env.local"))![1]!, "base64")).toHaveLength(32);
    expect(read(dir, ".env.example")).toMatch(/^AUTH_SECRET=$/m);
    expect(read(dir, ".gitignore")).toContain(".env.local");
    expect(result.stdout).toMatch(/^created auth\.ts$/m);
  });

  it("running it again changes nothing and says so; an edited file is left alone, --force replaces it", async () => {
    const dir = tempDir("create-auth-init-");
    await init(dir, "--yes");
    const before = snapshot(dir);
    const again = await init(dir, "--yes");
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/already set up here; nothing changed/);
    expect(snapshot(dir)).toEqual(before);

    writeFileSync(join(dir, "auth.ts"), "// mine\n");
    const edited = await init(dir, "--yes");
    expect(edited.exitCode).toBe(0);
    expect(edited.stdout).toMatch(/^left alone auth\.ts \(exists with other contents; --force replaces it\)$/m);
    expect(read(dir, "auth.ts")).toBe("// mine\n");

    const forced = await init(dir, "--yes", "--force");
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(/^updated auth\.ts$/m);
    expect(read(dir, "auth.ts")).toBe(before["auth.ts"]);
    expect(read(dir, ".env.local")).toBe(before[".env.local"]);
  });

  it("merges an existing package.json, .gitignore and .env.local without changing a value; a src/ project gets src/auth.ts", async () => {
    const dir = tempDir("create-auth-init-");
    mkdirSync(join(dir, "src"));
    const pkg = `{\n  "name": "mine",\n  "type": "module",\n  "scripts": { "verify-adapter": "echo mine" },\n  "dependencies": { "@auth/core": "~0.41.3" }\n}\n`;
    writeFileSync(join(dir, "package.json"), pkg);
    writeFileSync(join(dir, ".gitignore"), "dist\n");
    writeFileSync(join(dir, ".env.local"), "AUTH_SECRET=keep-me\nOTHER=1\n");
    const result = await init(dir, "--yes", "--providers", "email,social");
    expect(result.exitCode).toBe(0);
    const merged = JSON.parse(read(dir, "package.json"));
    expect(merged.name).toBe("mine");
    expect(merged.dependencies["@auth/core"]).toBe("~0.41.3");
    expect(merged.dependencies.zod).toBe(dependencyVersions.zod);
    expect(merged.scripts["verify-adapter"]).toBe("echo mine");
    expect(result.stdout).toMatch(/keeps @auth\/core@~0\.41\.3/);
    expect(read(dir, ".gitignore")).toBe("dist\n.env.local\nauth.db*\n");
    expect(read(dir, ".env.local").startsWith("AUTH_SECRET=keep-me\nOTHER=1\n")).toBe(true);
    expect(read(dir, ".env.local")).toMatch(/^# AUTH_VK_SECRET=$/m);
    expect(existsSync(join(dir, "src/auth.ts"))).toBe(true);
    expect(existsSync(join(dir, "src/providers/vk.ts"))).toBe(true);
    expect(result.stdout).toContain("http://localhost:3000/api/auth/callback/vk");
  });

  it("--dry-run prints the diff and writes nothing", async () => {
    const dir = tempDir("create-auth-init-");
    const result = await init(dir, "--yes", "--dry-run");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\+\+\+ b\/auth\.ts/m);
    expect(result.stdout).toMatch(/^would create package\.json$/m);
    expect(result.stdout).toMatch(/nothing was written/);
    expect(snapshot(dir)).toEqual({});
  });

  it("--dir is created when absent", async () => {
    const dir = tempDir("create-auth-init-");
    const result = await init(dir, "--yes", "--dir", "nested/app");
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(read(dir, "nested/app/package.json")).name).toBe("app");
  });
});

describe("create-auth init: bad input is one line, exit 2, nothing written", () => {
  const file = () => {
    const dir = tempDir("create-auth-init-");
    writeFileSync(join(dir, "a-file"), "x");
    return dir;
  };
  const cases: [string, string[], RegExp][] = [
    [
      "unknown backend",
      ["--backend", "oracle"],
      /^error: --backend: invalid value "oracle"; expected sqlite, postgres, mysql, memory, skeleton\.$/,
    ],
    [
      "unknown provider",
      ["--providers", "credentials,githb"],
      /^error: --providers: Unknown provider "githb"; did you mean "github"\?$/,
    ],
    [
      "a built-in that needs an issuer under --yes",
      ["--providers", "github,keycloak"],
      /^error: --providers: keycloak needs --issuer <url> \(no terminal to ask in\); pass it beside --providers/,
    ],
    ["unknown schema", ["--schema", "sequelize"], /^error: --schema: invalid value "sequelize"/],
    ["unknown dialect", ["--dialect", "oracle"], /^error: --dialect: invalid value "oracle"/],
    [
      "unknown session",
      ["--session", "cookie"],
      /^error: --session: invalid value "cookie"; expected jwt or database\.$/,
    ],
    ["unknown package manager", ["--package-manager", "deno"], /^error: --package-manager: invalid value "deno"/],
    ["--dir that is a file", ["--dir", "a-file"], /^error: --dir a-file: is a file, not a directory\.$/],
    [
      "a directory that cannot be written",
      ["--dir", "/proc/create-auth-test"],
      /^error: --dir \/proc\/create-auth-test: cannot write to \/proc/,
    ],
    [
      "dialect against the backend",
      ["--backend", "postgres", "--dialect", "mysql"],
      /^error: --dialect mysql conflicts with --backend postgres/,
    ],
    [
      "database sessions with credentials only",
      ["--session", "database"],
      /^error: --session database conflicts with --providers credentials: /,
    ],
    [
      "database sessions with credentials beside another provider (the password sign-in would leave no session)",
      ["--session", "database", "--providers", "credentials,github"],
      /^error: --session database conflicts with --providers credentials: /,
    ],
    [
      "providers that need options under --yes",
      ["--providers", "oauth,email"],
      /^error: --providers: oauth needs --id <id>, --token <url>, --userinfo <url>, --authorization <url> \(no terminal to ask in\); pass them/,
    ],
    [
      "a provider flag none of the providers takes",
      ["--providers", "github,credentials", "--issuer", "https://sso.example.com"],
      /^error: --issuer: none of --providers \(github, credentials\) takes it; see create-auth add-provider --list\.$/,
    ],
    [
      "a provider flag two of the providers take",
      ["--providers", "keycloak,okta", "--issuer", "https://sso.example.com/realms/main"],
      /^error: --issuer: keycloak and okta both take it, so init cannot tell whose it is; set up keycloak here and add okta afterwards with create-auth add-provider\.$/,
    ],
    [
      "a bad value of a provider flag",
      ["--providers", "keycloak", "--issuer", "http://sso.example.com/realms/main"],
      /^error: --issuer: "http:\/\/sso\.example\.com\/realms\/main" uses plain http/,
    ],
  ];
  it.each(cases)("%s", async (_, args, message) => {
    const dir = file();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--no-install", "--yes", ...args], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(snapshot(dir)).toEqual(before);
  });

  it("in CI without --yes, missing answers are an error naming the flags; all flags given is enough", async () => {
    const dir = tempDir("create-auth-init-");
    const result = await init(dir, "--backend", "memory");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: init needs --providers, --schema, --session \(no terminal to ask in\), or --yes for the defaults\.$/m,
    );
    expect(result.stderr).toMatch(
      /create-auth init --providers credentials --backend sqlite --schema sql --session jwt/,
    );
    expect(snapshot(dir)).toEqual({});
    const full = await init(
      dir,
      "--backend",
      "memory",
      "--providers",
      "passkey",
      "--schema",
      "drizzle",
      "--session",
      "database",
    );
    expect(full.stderr).toBe("");
    expect(full.exitCode).toBe(0);
    expect(read(dir, "auth.ts")).toContain("experimental: { enableWebAuthn: true },");
  });
});
