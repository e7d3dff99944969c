// add-provider <name> for @auth/core's built-in providers, in-process as CI runs it (no terminal).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinProviders, generatedBuiltins } from "../../src/catalog/builtin-providers.js";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

function nextProject(): string {
  const dir = tempDir("create-auth-builtin-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return dir;
}

/** A bare Express project with an auth config, as an app written by hand would have. */
function expressProject(): string {
  const dir = tempDir("create-auth-builtin-express-");
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "api", private: true, type: "module", dependencies: { "@auth/express": "^0.12.3", express: "^5.1.0" } })}\n`,
  );
  mkdirSync(join(dir, "src"));
  writeFileSync(
    join(dir, "src/auth.ts"),
    'import type { ExpressAuthConfig } from "@auth/express";\n\nexport const authConfig: ExpressAuthConfig = {\n  providers: [],\n};\n',
  );
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("add-provider <built-in>", () => {
  it("discord under Next.js: imports next-auth's Discord, adds its variables commented out to fill in, names the callback and the console", async () => {
    const dir = nextProject();
    const result = await inProcess(["add-provider", "discord", "--no-install"], {
      cwd: dir,
      env: { AUTH_DISCORD_SECRET: "must-not-be-printed" },
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const module = read(dir, "src/providers/discord.ts");
    expect(module).toContain('import Discord from "next-auth/providers/discord";');
    expect(module).toContain("export const discord = Discord({");
    expect(module).toContain("clientId: process.env.AUTH_DISCORD_ID,");
    expect(module).toContain("clientSecret: process.env.AUTH_DISCORD_SECRET,");
    expect(read(dir, "src/auth.ts")).toContain('import { discord } from "./providers/discord";');
    expect(read(dir, ".env.example")).toMatch(/^AUTH_DISCORD_ID=\nAUTH_DISCORD_SECRET=$|^AUTH_DISCORD_SECRET=$/m);
    // Never `AUTH_DISCORD_SECRET=`: Auth.js would take the empty string as the secret.
    expect(read(dir, ".env.local")).toMatch(/^# AUTH_DISCORD_ID=\n[^\n]*\n# AUTH_DISCORD_SECRET=$/m);
    expect(result.stdout).toMatch(
      /^Fill in AUTH_DISCORD_ID, AUTH_DISCORD_SECRET in \.env\.local \(uncomment their lines\)\.$/m,
    );
    expect(result.stdout).toMatch(/^ {2}http:\/\/localhost:3000\/api\/auth\/callback\/discord$/m);
    expect(result.stdout).toMatch(/^Register it at: https:\/\/discord\.com\/developers\/applications$/m);
    expect(result.stdout).not.toContain("must-not-be-printed");
  });

  it("github under Express: imports @auth/express's GitHub and the callback is under /auth", async () => {
    const dir = expressProject();
    const result = await inProcess(["add-provider", "github", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "src/providers/github.ts")).toContain('import GitHub from "@auth/express/providers/github";');
    expect(result.stdout).toMatch(/^ {2}http:\/\/localhost:3000\/auth\/callback\/github$/m);
    expect(result.stdout).toMatch(/^Register it at: https:\/\/github\.com\/settings\/developers$/m);
  });

  it("keycloak with --issuer: the issuer read from AUTH_KEYCLOAK_ISSUER first, the flag's value as the example", async () => {
    const dir = nextProject();
    const issuer = "https://sso.example.com/realms/main";
    const result = await inProcess(["add-provider", "keycloak", "--issuer", issuer, "--no-install"], { cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/providers/keycloak.ts")).toContain(
      `issuer: process.env.AUTH_KEYCLOAK_ISSUER || ${JSON.stringify(issuer)},`,
    );
    expect(read(dir, ".env.example")).toContain(`AUTH_KEYCLOAK_ISSUER=${issuer}\n`);
    // No console URL for a self-hosted server: the Auth.js page says where.
    expect(result.stdout).toMatch(/^Register it at: https:\/\/authjs\.dev\/getting-started\/providers\/keycloak$/m);
  });

  it.each([
    [["keycloak"], /^error: add-provider keycloak needs --issuer\.\nPass --issuer <url> \(no terminal to ask in\)\.$/],
    [["workos"], /^error: add-provider workos needs --connection\.\n/],
    [["githb"], /^error: Unknown provider "githb"; did you mean "github"\?\nSee create-auth add-provider --list/],
    [["microsoft-entra-id", "--tenant", "a b"], /^error: --tenant: "a b" is not valid; expected a tenant ID/],
    [
      ["discord", "--connection", "conn_1"],
      /^error: --connection: not an option of add-provider discord; it takes none\.$/,
    ],
    [["keycloak", "--issuer", "http://sso.example.com"], /^error: --issuer: .* uses plain http/],
    [
      ["email", "--service", "github"],
      /^error: --service: "github" is not an email service; expected forwardemail, loops, mailgun, nodemailer, postmark, resend, sendgrid\.$/,
    ],
  ])("%j in CI: one line naming the flag, exit 2, nothing written", async (args, message) => {
    const dir = nextProject();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", ...args, "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(snapshot(dir)).toEqual(before);
  });

  it("email --service resend is resend: its API key and sender variables", async () => {
    const dir = nextProject();
    const result = await inProcess(
      ["add-provider", "email", "--service", "resend", "--from", "Sign in <auth@example.com>", "--no-install"],
      { cwd: dir },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const module = read(dir, "src/providers/resend.ts");
    expect(module).toContain('import Resend from "next-auth/providers/resend";');
    expect(module).toContain("apiKey: process.env.AUTH_RESEND_KEY,");
    expect(module).toContain('from: process.env.AUTH_RESEND_FROM || "Sign in <auth@example.com>",');
    expect(read(dir, ".env.local")).toMatch(/^# AUTH_RESEND_KEY=$/m);
    // The sender given on the command line is written with its value.
    expect(read(dir, ".env.local")).toMatch(/^AUTH_RESEND_FROM=Sign in <auth@example\.com>$/m);
    expect(result.stdout).not.toMatch(/callback/i);
  });

  it("--list --json: every built-in once, grouped, with its flags, env names and where to register", async () => {
    const result = await inProcess(["add-provider", "--list", "--json"]);
    expect(result.exitCode).toBe(0);
    const list = JSON.parse(result.stdout) as {
      source: string;
      builtins: number;
      groups: {
        group: string;
        providers: {
          name: string;
          source: string;
          flags: { flag: string }[];
          env?: string[];
          console?: string | null;
        }[];
      }[];
    };
    expect(list.source).toMatch(/^@auth\/core 0\.41\.\d+$/);
    expect(list.builtins).toBe(builtinProviders.length);
    expect(list.groups.map((g) => g.group)).toEqual([
      "OAuth / OpenID Connect providers",
      "Email services",
      "Passkey / WebAuthn",
      "Credentials",
      "Generic OAuth 2.0 / OpenID Connect (any provider, from its URLs)",
      "Social",
    ]);
    const names = list.groups.flatMap((g) => g.providers.filter((p) => p.source === "@auth/core").map((p) => p.name));
    expect(names.sort()).toEqual(generatedBuiltins.map((p) => p.module).sort());
    const all = list.groups.flatMap((g) => g.providers);
    expect(all.find((p) => p.name === "github")).toMatchObject({
      env: ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_GITHUB_ISSUER"],
      console: "https://github.com/settings/developers",
    });
    expect(all.find((p) => p.name === "keycloak")!.flags.map((f) => f.flag)).toEqual(["--issuer"]);
    const email = list.groups[1]!.providers.map((p) => p.name);
    expect(email).toEqual(
      expect.arrayContaining([
        "email",
        "resend",
        "sendgrid",
        "postmark",
        "mailgun",
        "loops",
        "forwardemail",
        "nodemailer",
      ]),
    );
  });

  it("--list shows the popular ones first and says where the catalog comes from", async () => {
    const result = await inProcess(["add-provider", "--list"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^The 104 built-in providers of @auth\/core 0\.41\.\d+ and create-auth's own kinds/);
    expect(result.stdout).toMatch(/OAuth \/ OpenID Connect providers:\n {2}github +GitHub\n {2}google +Google\n/);
    expect(result.stdout).toMatch(/^ {2}keycloak +Keycloak \(needs --issuer <url>\)$/m);
  });
});
