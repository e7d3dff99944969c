// End to end: the built CLI on a copy of a real-looking project, as CI runs it (no terminal).
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

function project(): string {
  const dir = tempDir("create-auth-app-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("create-auth add-provider", () => {
  it("adds VK with the chosen API version: provider module, config entry, env files, callback URL", async () => {
    const dir = project();
    const result = await inProcess(
      ["add-provider", "social", "--api-version", "5.131", "--base-url", "https://app.example.com/", "--no-install"],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "src/auth.ts")).toContain('import { vk } from "./providers/vk";');
    expect(read(dir, "src/auth.ts")).toMatch(/providers: \[\n {4}GitHub,\n {4}vk,\n {2}\]/);
    const vk = read(dir, "src/providers/vk.ts");
    const urls = vk.match(/"https:\/\/(oauth|api)\.vk\.ru[^"]*"/g)!;
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url).toContain("v=5.131");
    expect(vk).not.toMatch(/(?:oauth|api|id)\.vk\.com/);
    expect(existsSync(join(dir, "src/providers/vk-profile.ts"))).toBe(true);
    expect(read(dir, ".env.example")).toMatch(/^AUTH_VK_ID=$/m);
    expect(read(dir, ".env.local")).toMatch(/^# AUTH_VK_SECRET=$/m);
    expect(read(dir, ".gitignore")).toBe("node_modules\n.next\n.env.local\n");
    expect(vk).not.toMatch(/AUTH_VK_SECRET=|clientSecret: "/);
    expect(result.stdout).toMatch(/^ {2}https:\/\/app\.example\.com\/api\/auth\/callback\/vk$/m);
    // Plain words for the user: no section numbers of this project's spec.
    expect(result.stdout).toMatch(/^Register this callback URL \(redirect URI\) at the provider:$/m);
    expect(result.stdout).not.toMatch(/§/);
  });

  it("--flow vkid: VK ID's module and user schema, the app ID only, and the one step the app must take", async () => {
    const dir = project();
    const result = await inProcess(["add-provider", "social", "--flow", "vkid", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const vk = read(dir, "src/providers/vk.ts");
    expect(vk).toContain('url: "https://id.vk.ru/authorize"');
    expect(vk).toContain('token: "https://id.vk.ru/oauth2/auth"');
    expect(vk).toContain('url: "https://id.vk.ru/oauth2/user_info"');
    expect(vk).toContain('checks: ["pkce", "state"]');
    expect(vk).not.toMatch(/oauth\.vk\.(?:ru|com)\/authorize"|v=5\.\d+|id\.vk\.com/);
    expect(read(dir, "src/providers/vk-profile.ts")).toContain("export function parseVkIdUser");
    expect(read(dir, ".env.example")).toMatch(/^AUTH_VK_ID=$/m);
    expect(read(dir, ".env.example")).not.toMatch(/AUTH_VK_SECRET/);
    expect(result.stdout).toMatch(/^note: VK ID adds a device_id to the callback .* withVkIdCallback\(\)/m);
    expect(result.stdout).toMatch(/^ {2}http:\/\/localhost:3000\/api\/auth\/callback\/vk$/m);
  });

  it.each([[[]], [["--flow", "vkid"]]])(
    "--domain vk.com %j: every endpoint on VK's old hosts, none on vk.ru",
    async (flow) => {
      const dir = project();
      const result = await inProcess(["add-provider", "social", ...flow, "--domain", "vk.com", "--no-install"], {
        cwd: dir,
      });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      const vk = read(dir, "src/providers/vk.ts");
      const endpoints = vk.match(/"https:\/\/(?:oauth|api|id)\.vk\.[a-z]+\/[^"]*"/g)!;
      expect(endpoints).toHaveLength(3);
      for (const url of endpoints) expect(new URL(JSON.parse(url)).hostname).toMatch(/^(oauth|api|id)\.vk\.com$/);
      expect(`${vk}${read(dir, "src/providers/vk-profile.ts")}`).not.toMatch(/(?:oauth|api|id|dev)\.vk\.ru/);
    },
  );

  it("running the same command twice changes nothing the second time", async () => {
    const dir = project();
    expect((await inProcess(["add-provider", "social", "--no-install"], { cwd: dir })).exitCode).toBe(0);
    const before = snapshot(dir);
    const again = await inProcess(["add-provider", "social", "--no-install"], { cwd: dir });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/already set up in src\/auth\.ts; nothing changed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses a different VK setup for an id already present, and --force replaces it", async () => {
    const dir = project();
    await inProcess(["add-provider", "social", "--api-version", "5.126", "--no-install"], { cwd: dir });
    const before = snapshot(dir);
    const refused = await inProcess(["add-provider", "social", "--api-version", "5.199", "--no-install"], { cwd: dir });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(
      /src\/providers\/vk\.ts already exists with other contents\. Nothing was written\.\n.*--force/,
    );
    expect(snapshot(dir)).toEqual(before);
    const forced = await inProcess(["add-provider", "social", "--api-version", "5.199", "--force", "--no-install"], {
      cwd: dir,
    });
    expect(forced.exitCode).toBe(0);
    expect(read(dir, "src/providers/vk.ts")).toContain("v=5.199");
    expect(read(dir, "src/auth.ts").match(/\bvk,/g)).toHaveLength(1);
  });

  it.each([
    { first: [], again: ["--domain", "vk.ru"] },
    { first: ["--domain", "vk.com"], again: ["--domain", "vk.com"] },
    { first: ["--flow", "vkid", "--domain", "vk.com"], again: ["--flow", "vkid", "--domain", "vk.com"] },
  ])("the same domain again ($again) changes nothing", async ({ first, again }) => {
    const dir = project();
    expect((await inProcess(["add-provider", "social", ...first, "--no-install"], { cwd: dir })).exitCode).toBe(0);
    const before = snapshot(dir);
    const rerun = await inProcess(["add-provider", "social", ...again, "--no-install"], { cwd: dir });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/already set up in src\/auth\.ts; nothing changed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([[[]], [["--flow", "vkid"]]])(
    "%j: another domain for VK already present is refused, and --force moves it",
    async (flow) => {
      const dir = project();
      await inProcess(["add-provider", "social", ...flow, "--no-install"], { cwd: dir });
      const before = snapshot(dir);
      const refused = await inProcess(["add-provider", "social", ...flow, "--domain", "vk.com", "--no-install"], {
        cwd: dir,
      });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(
        /src\/providers\/vk\.ts already exists with other contents\. Nothing was written\.\n.*--force/,
      );
      expect(snapshot(dir)).toEqual(before);
      const forced = await inProcess(
        ["add-provider", "social", ...flow, "--domain", "vk.com", "--force", "--no-install"],
        { cwd: dir },
      );
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(read(dir, "src/providers/vk.ts")).toMatch(/"https:\/\/(?:oauth|id)\.vk\.com\/authorize/);
      expect(read(dir, "src/providers/vk.ts")).not.toMatch(/(?:oauth|api|id)\.vk\.ru/);
      expect(read(dir, "src/auth.ts").match(/\bvk,/g)).toHaveLength(1);
    },
  );

  it("--dry-run prints the diff and writes nothing", async () => {
    const dir = project();
    const before = snapshot(dir);
    const result = await inProcess(
      ["add-provider", "oidc", "--id", "corp", "--issuer", "https://login.corp.example", "--dry-run"],
      { cwd: dir },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /\+\+\+ b\/src\/auth\.ts[\s\S]*\+import \{ corp \} from "\.\/providers\/corp";[\s\S]*\+ {4}corp,/,
    );
    expect(result.stdout).toMatch(/--- \/dev\/null\n\+\+\+ b\/src\/providers\/corp\.ts/);
    expect(result.stdout).toMatch(/Dry run: \d+ file\(s\) would change; nothing was written\./);
    expect(snapshot(dir)).toEqual(before);
  });

  it("never overwrites a value already in .env.local", async () => {
    const dir = project();
    writeFileSync(join(dir, ".env.local"), "AUTH_VK_ID=51234\n");
    await inProcess(["add-provider", "social", "--no-install"], { cwd: dir });
    expect(read(dir, ".env.local")).toMatch(
      /^AUTH_VK_ID=51234\n\n# social provider "vk"[^\n]*\n# [^\n]*\n# AUTH_VK_SECRET=\n$/,
    );
  });

  it("the callback URL comes from AUTH_URL when --base-url is absent", async () => {
    const result = await inProcess(
      [
        "add-provider",
        "oauth",
        "--id",
        "acme",
        "--authorization",
        "https://acme.example/authorize",
        "--token",
        "https://acme.example/token",
        "--userinfo",
        "https://acme.example/me",
      ],
      { cwd: project(), env: { AUTH_URL: "https://staging.example.com" } },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/https:\/\/staging\.example\.com\/api\/auth\/callback\/acme/);
  });

  it("email: says which adapter methods it needs and whether the project's adapter has them", async () => {
    const result = await inProcess(
      ["add-provider", "email", "--from", "Sign in <no-reply@example.com>", "--no-install"],
      {
        cwd: project(),
      },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/createVerificationToken, useVerificationToken and getUserByEmail/);
    expect(result.stdout).toMatch(/@auth\/prisma-adapter, which implements/);
    expect(result.stdout).toContain("https://authjs.dev/getting-started/authentication/email");
    expect(result.stdout).not.toMatch(/§/);
  });

  it.each([
    [["add-provider", "nope"], /Unknown provider "nope"\.\nSee create-auth add-provider --list for every provider/],
    [["add-provider", "social", "--api-version", "abc"], /--api-version: "abc" is not a VK API version/],
    [["add-provider", "social", "--api-version", ""], /--api-version/],
    [["add-provider", "social", "--api-version", "5"], /--api-version: "5" is not a VK API version/],
    [["add-provider", "social", "--api-version", "5.126&x=y"], /--api-version: "5\.126&x=y" is not a VK API version/],
    [["add-provider", "social", "--api-version", "5.126 "], /--api-version: "5\.126 " is not a VK API version/],
    [
      [
        "add-provider",
        "oauth",
        "--id",
        "My Provider",
        "--issuer",
        "https://a.example",
        "--token",
        "https://a.example/t",
        "--userinfo",
        "https://a.example/u",
      ],
      /--id: /,
    ],
    [["add-provider", "oidc"], /add-provider oidc needs --id, --issuer\.\nPass --id <id> --issuer <url>/],
    [["add-provider"], /Missing the provider\.\nPass a provider such as github, google, resend, oidc or social/],
    [["add-provider", "social", "--issuer", "https://x.example"], /--issuer: not an option of social providers/],
    [["add-provider", "social", "--flow", "vk-id"], /--flow: expected oauth or vkid/],
    [
      ["add-provider", "social", "--domain", "vk.org"],
      /^error: --domain: "vk\.org" is not one of VK's domains; expected vk\.ru or vk\.com$/,
    ],
    [
      ["add-provider", "social", "--flow", "vkid", "--domain", "oauth.vk.com"],
      /^error: --domain: "oauth\.vk\.com" is not/,
    ],
    [["add-provider", "social", "--domain", ""], /^error: --domain needs a value/],
    [
      ["add-provider", "social", "--flow", "vkid", "--api-version", "5.131"],
      /--api-version: applies to --flow oauth only; VK ID's endpoints take no API version/,
    ],
    [["add-provider", "social", "--config", "missing.ts"], /--config missing\.ts: no such file/],
    [
      ["add-provider", "social", "--base-url", "not a url"],
      /--base-url: invalid value "not a url"; expected an http\(s\) URL/,
    ],
  ])("bad input %j: one clear line, exit 2, nothing written", async (args, message) => {
    const dir = project();
    const before = snapshot(dir);
    const result = await inProcess(args as string[], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a project with no auth config: exit 2, says what it looked for", async () => {
    const result = await inProcess(["add-provider", "social"], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /No auth config found in .*\nLooked in 0 source files for a module calling NextAuth\(\), SvelteKitAuth\(\), ExpressAuth\(\) or Auth\(\), or exporting an auth config .*--config/,
    );
  });

  it("a config the edit cannot understand stays byte-for-byte, and the snippet to paste is printed", async () => {
    const dir = project();
    writeFileSync(
      join(dir, "src/auth.ts"),
      'import NextAuth from "next-auth";\nimport { getProviders } from "./providers";\nexport const { handlers } = NextAuth({ providers: getProviders() });\n',
    );
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "social"], { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /Cannot edit src\/auth\.ts: .* Nothing was written\.\nAdd it by hand:\n\nimport \{ vk \} from "\.\/providers\/vk";/,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it("credentials without a password module: the next step names the provider's file from the project's root", async () => {
    const dir = project();
    const result = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/providers/credentials.ts")).toContain("// TODO: check the password here");
    expect(result.stdout).toContain("Write the password check in src/providers/credentials.ts");
  });

  it("a config with a syntax error is refused and left untouched", async () => {
    const dir = project();
    writeFileSync(join(dir, "src/auth.ts"), "export default { providers: [GitHub, }\n");
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "credentials"], { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Cannot edit src\/auth\.ts: The file does not parse \(line 1: Unexpected token\)/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("--list shows every kind with its options", async () => {
    const result = await inProcess(["add-provider", "--list"]);
    expect(result.exitCode).toBe(0);
    for (const kind of ["oauth", "oidc", "email", "credentials", "webauthn (alias: passkey)", "social"])
      expect(result.stdout).toContain(`${kind} — `);
    expect(result.stdout).toMatch(/--api-version <version>/);
    expect(result.stdout).toMatch(
      /--domain <domain> +VK's domain, the host of every endpoint \(both flows\) \(default vk\.ru; one of vk\.ru, vk\.com\)/,
    );
  });

  it("--help has examples", async () => {
    const result = await inProcess(["add-provider", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Examples:\n\s+\$ create-auth add-provider github\n/);
    expect(result.stdout).toMatch(/\$ create-auth add-provider social --api-version 5\.131/);
    expect(result.stdout).toMatch(/\$ create-auth add-provider social --flow vkid/);
    expect(result.stdout).toMatch(/\$ create-auth add-provider social --domain vk\.com/);
    expect(result.stdout).toMatch(/--flow <flow> +how VK signs users in: oauth, vkid \(default: oauth\)/);
    expect(result.stdout).toMatch(/--domain <domain> +VK's domain, .*: vk\.ru, vk\.com \(default: vk\.ru\)/);
    expect(result.stdout).toMatch(/--no-install +add the provider's packages to package\.json without installing them/);
  });

  it("credentials in a project init set up with a database checks passwords through its password module", async () => {
    const dir = tempDir();
    const setup = await inProcess(["init", "--yes", "--no-install", "--providers", "email", "--dir", dir]);
    expect(setup.exitCode, setup.stderr).toBe(0);
    // An email-only setup has no password module yet; a credentials one brings it.
    expect(existsSync(join(dir, "auth/passwords.ts"))).toBe(false);
    const withPasswords = tempDir();
    expect((await inProcess(["init", "--yes", "--no-install", "--dir", withPasswords])).exitCode).toBe(0);
    const result = await inProcess(["add-provider", "credentials", "--id", "staff", "--no-install"], {
      cwd: withPasswords,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const staff = read(withPasswords, "providers/staff.ts");
    expect(staff).toContain('import { verifyUserPassword } from "../auth/passwords.js";');
    expect(staff).not.toContain("TODO");
    const skeleton = await inProcess(["add-provider", "credentials", "--no-install"], { cwd: dir });
    expect(skeleton.exitCode, skeleton.stderr).toBe(0);
    expect(read(dir, "providers/credentials.ts")).toContain("// TODO: check the password here");
  });

  it("the callback URL follows the framework's mount: /auth for Express and SvelteKit", async () => {
    const dir = tempDir();
    cpSync(fixture("apps", "express"), dir, { recursive: true });
    expect((await inProcess(["init", "--yes", "--no-install", "--dir", dir])).exitCode).toBe(0);
    const result = await inProcess(["add-provider", "social", "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("http://localhost:3000/auth/callback/vk");
  });
});
