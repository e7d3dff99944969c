// Generated provider modules: what the config edit needs, their code and escaping (their types: provider.typecheck.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { bindingName, importedPackages } from "../../src/families/render.js";
import type { ProviderSnippet } from "../../src/render/parts.js";
import { generateEvery, importGenerated, makeProject, tricky, trickyLogo } from "./provider-project.js";

const contents = (snippet: ProviderSnippet, path: string) => snippet.files.find((f) => f.path === path)!.contents;

describe("generated provider modules", () => {
  let dir: string;
  const snippets: Record<string, ProviderSnippet> = {};

  beforeAll(async () => {
    dir = makeProject();
    Object.assign(snippets, await generateEvery(dir));
  });

  it("returns the import, entry and env the config edit needs", () => {
    expect(snippets.social).toMatchObject({
      id: "vk",
      kind: "social",
      entry: "vk",
      imports: [{ from: "./providers/vk", named: ["vk"] }],
      hasCallback: true,
    });
    expect(snippets.social!.env.map((e) => e.name)).toEqual(["AUTH_VK_ID", "AUTH_VK_SECRET"]);
    expect(snippets.social!.files.map((f) => f.path)).toEqual(["providers/vk.ts", "providers/vk-profile.ts"]);
    expect(snippets.social!.dependencies).toEqual(["zod"]);
    expect(snippets.socialVkid!.files.map((f) => f.path)).toEqual(["providers/vkid.ts", "providers/vkid-profile.ts"]);
    // VK ID's web apps are public clients (PKCE): the app ID, no secret.
    expect(snippets.socialVkid!.env.map((e) => e.name)).toEqual(["AUTH_VKID_ID"]);
    expect(snippets.socialVkid!.steps.join("\n")).toMatch(/withVkIdCallback\(\) from providers\/vkid\.ts/);
    expect(snippets.passkey!.dependencies).toEqual(["@simplewebauthn/browser", "@simplewebauthn/server"]);
    expect(snippets.socialJs).toMatchObject({
      entry: "vkRu",
      imports: [{ from: "./providers/vk-ru.js", named: ["vkRu"] }],
    });
    expect(snippets.oidc).toMatchObject({
      entry: "myOidc",
      imports: [{ from: "./providers/my-oidc", named: ["myOidc"] }],
    });
    expect(snippets.oidc!.env.map((e) => e.name)).toEqual([
      "AUTH_MY_OIDC_ID",
      "AUTH_MY_OIDC_SECRET",
      "AUTH_MY_OIDC_ISSUER",
    ]);
    expect(snippets.oauth!.env.map((e) => e.name)).toEqual(["AUTH_ACME_ID", "AUTH_ACME_SECRET"]);
    expect(snippets.oauthIssuer!.env.map((e) => e.name)).toContain("AUTH_ACME2_ISSUER");
    expect(snippets.email!.env).toEqual([
      expect.objectContaining({ name: "AUTH_EMAIL_FROM", example: "Sign in <no-reply@example.com>" }),
      // Empty in .env.local: development logs the link until an SMTP server is set.
      expect.objectContaining({ name: "EMAIL_SERVER", example: "" }),
    ]);
    expect(snippets.email!.steps.join("\n")).toMatch(
      /createVerificationToken, useVerificationToken and getUserByEmail/,
    );
    expect(snippets.credentials!.env).toEqual([]);
    expect(snippets.passkey).toMatchObject({ id: "webauthn", kind: "webauthn", entry: "webauthn", hasCallback: false });
    expect(snippets.passkey!.steps.join("\n")).toMatch(/enableWebAuthn: true/);
    // A value that dotenv would misread is left out of .env.example (the code has it).
    expect(snippets.trickyEmail!.env[0]!.example).toBe("");
  });

  it("every package a generated module imports is one the snippet installs (or the auth library itself)", () => {
    expect.hasAssertions();
    for (const [key, snippet] of Object.entries(snippets)) {
      for (const file of snippet.files) {
        for (const name of importedPackages(file.contents)) {
          if (name !== "@auth/core")
            expect(snippet.dependencies, `${key}: ${file.path} imports ${name}`).toContain(name);
        }
      }
    }
    expect(
      importedPackages(
        'import "reflect-metadata";\nimport {\n  a,\n} from "@scope/pkg/sub";\nimport x from "./local";\nconst m = await import("nodemailer");',
      ),
    ).toEqual(["reflect-metadata", "@scope/pkg", "nodemailer"]);
  });

  it("generated modules speak plainly: no section numbers of our spec, links to the Auth.js docs instead", () => {
    expect.hasAssertions();
    for (const [key, snippet] of Object.entries(snippets)) {
      for (const file of snippet.files) expect(file.contents, `${key}: ${file.path}`).not.toMatch(/§/);
      for (const note of snippet.steps) expect(note, key).not.toMatch(/§/);
    }
    expect(contents(snippets.oauth!, "providers/acme.ts")).toContain("https://authjs.dev/");
  });

  it("derives a valid, non-clashing binding from the id", () => {
    expect(["vk", "my-oidc", "corp_sso", "42", "new", "auth", "sign-in", "a--b"].map(bindingName)).toEqual([
      "vk",
      "myOidc",
      "corp_sso",
      "provider42",
      "newProvider",
      "authProvider",
      "signInProvider",
      "aB",
    ]);
  });

  it("social: every VK endpoint is on vk.ru and carries v=<api_version> (§9)", () => {
    const vk = contents(snippets.social!, "providers/vk.ts");
    const urls = vk.match(/"https:\/\/(?:oauth|api)\.vk\.ru[^"]*"/g)!;
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(new URL(JSON.parse(url)).searchParams.get("v")).toBe("5.131");
    expect(vk).toContain('"https://oauth.vk.ru/authorize?response_type=code&scope=email&v=5.131"');
    expect(vk).toContain('"https://oauth.vk.ru/access_token?v=5.131"');
    expect(vk).toContain('"https://api.vk.ru/method/users.get?fields=photo_100&v=5.131"');
    expect(vk).toContain('checks: ["state"]');
    expect(vk).toMatch(/async conform\(response: Response\)/);
    expect(vk).toContain('token_type: "bearer"');
    expect(vk).toContain("process.env.AUTH_VK_SECRET");
    expect(vk).toContain('from "./vk-profile"');
    expect(contents(snippets.socialJs!, "providers/vk-ru.ts")).toContain('from "./vk-ru-profile.js"');
    expect(contents(snippets.socialJs!, "providers/vk-ru.ts")).toContain("v=5.126");
  });

  it("social: vk.com appears only under --domain vk.com, in code and comments of both flows", () => {
    const files = (snippet: ProviderSnippet) => snippet.files.map((f) => f.contents).join("\n");
    for (const snippet of [snippets.social!, snippets.socialJs!, snippets.socialVkid!, snippets.socialVkidJs!]) {
      expect(files(snippet)).not.toMatch(/[\w.]*\bvk\.com\//);
      expect(files(snippet)).not.toMatch(/(?:oauth|api|id|dev)\.vk\.com/);
      expect(files(snippet)).toMatch(/--domain vk\.com --force/);
    }
    expect(contents(snippets.socialVkid!, "providers/vkid.ts")).toContain('url: "https://id.vk.ru/authorize"');
    expect(contents(snippets.socialVkid!, "providers/vkid-profile.ts")).toContain("https://id.vk.ru/oauth2/user_info");
    expect(contents(snippets.social!, "providers/vk-profile.ts")).toContain(
      "https://dev.vk.ru/ru/reference/objects/user",
    );

    const old = contents(snippets.socialCom!, "providers/vk-com.ts");
    expect(old).toContain('"https://oauth.vk.com/authorize?response_type=code&scope=email&v=5.131"');
    expect(old).toContain('"https://oauth.vk.com/access_token?v=5.131"');
    expect(old).toContain('"https://api.vk.com/method/users.get?fields=photo_100&v=5.131"');
    const oldVkid = contents(snippets.socialVkidCom!, "providers/vkid-com.ts");
    expect(oldVkid).toContain('url: "https://id.vk.com/authorize"');
    expect(oldVkid).toContain('token: "https://id.vk.com/oauth2/auth"');
    expect(oldVkid).toContain('url: "https://id.vk.com/oauth2/user_info"');
    for (const snippet of [snippets.socialCom!, snippets.socialVkidCom!]) {
      expect(files(snippet)).not.toMatch(/vk\.ru\/|(?:oauth|api|id|dev)\.vk\.ru/);
      expect(files(snippet)).toMatch(/for VK's vk\.ru hosts/);
      expect(files(snippet)).toMatch(/--domain vk\.ru --force/);
      // Plain code for users: none of this project's spec section numbers.
      expect(files(snippet)).not.toMatch(/§/);
    }
  });

  it("oauth/oidc/email/credentials/webauthn: the options reach the code", () => {
    const oauth = contents(snippets.oauth!, "providers/acme.ts");
    expect(oauth).toContain(
      'authorization: { url: "https://acme.example/oauth/authorize", params: { scope: "read:user user:email" } }',
    );
    expect(oauth).toContain('checks: ["pkce"]');
    expect(oauth).toContain("clientSecret: process.env.AUTH_ACME_SECRET");
    const issuer = contents(snippets.oauthIssuer!, "providers/acme2.ts");
    expect(issuer).toContain('issuer: process.env.AUTH_ACME2_ISSUER || "https://acme.example"');
    expect(issuer).toContain('checks: ["pkce", "state"]');
    expect(issuer).toContain("allowDangerousEmailAccountLinking: true");
    expect(contents(snippets.oidc!, "providers/my-oidc.ts")).toMatch(
      /type: "oidc"[\s\S]*scope: "openid profile email"[\s\S]*idToken: false,[\s\S]*checks: \["pkce", "nonce"\]/,
    );
    const email = contents(snippets.email!, "providers/email.ts");
    expect(email).toContain('type: "email"');
    expect(email).toContain("maxAge: 3600");
    expect(email).toContain('from: process.env.AUTH_EMAIL_FROM || "Sign in <no-reply@example.com>"');
    const credentials = contents(snippets.credentials!, "providers/credentials.ts");
    expect(credentials).toContain("// TODO: check the password here");
    expect(credentials).toContain("providerAccountId");
    expect(credentials).toContain('otp: { label: "Otp", type: "text" }');
    expect(credentials).toContain('password: { label: "Password", type: "password" }');
    expect(contents(snippets.passkey!, "providers/webauthn.ts")).toContain(
      'import Passkey from "@auth/core/providers/passkey"',
    );
  });

  it("no secret or user value appears outside a string literal", () => {
    for (const snippet of Object.values(snippets)) {
      for (const file of snippet.files) expect(file.contents).not.toMatch(/[\u2028\u2029]|\ud800/);
    }
    expect(contents(snippets.trickyOauth!, "providers/tricky.ts")).toContain(
      `name: ${JSON.stringify(tricky).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")},`,
    );
  });

  it("escaping: the tricky values come back byte for byte at runtime", async () => {
    type Obj = Record<string, any>;
    const oauth = (await importGenerated<Obj>(dir, "trickyOauth/providers/tricky.ts")).tricky;
    expect(oauth.name).toBe(tricky);
    expect(oauth.style).toEqual({ brandColor: tricky, logo: `${trickyLogo}.svg` });
    expect(oauth.authorization).toEqual({ params: { scope: tricky } });
    expect(oauth.issuer).toBe("https://a.example/?q=1&r='\"`");
    const oidc = (await importGenerated<Obj>(dir, "trickyOidc/providers/tricky-oidc.ts")).trickyOidc;
    expect([oidc.name, oidc.style.brandColor, oidc.style.logo, oidc.authorization.params.scope]).toEqual([
      tricky,
      tricky,
      trickyLogo,
      tricky,
    ]);
    const email = (await importGenerated<Obj>(dir, "trickyEmail/providers/tricky-email.ts")).trickyEmail;
    expect(email.name).toBe(tricky);
    expect(email.from).toBe('"He said \\"hi\\" `x` ${y} ü 😀" <a@b.example>');
    const credentials = (await importGenerated<Obj>(dir, "trickyCredentials/providers/tricky-credentials.ts"))
      .trickyCredentials;
    expect(credentials.options.name).toBe(tricky);
    expect(credentials.options.id).toBe("tricky-credentials");
    const vk = (await importGenerated<Obj>(dir, "trickySocial/providers/tricky-vk.ts")).trickyVk;
    expect(vk.name).toBe(tricky);
  });

  it("credentials: authorize refuses until the check is written", async () => {
    const { credentials } = await importGenerated<{
      credentials: { options: { authorize: (c: unknown) => Promise<unknown> } };
    }>(dir, "credentials/providers/credentials.ts");
    await expect(credentials.options.authorize({ username: "a", password: "b", otp: "1" })).resolves.toBeNull();
    await expect(credentials.options.authorize({ username: "a" })).resolves.toBeNull();
  });

  it("email: without EMAIL_SERVER, development prints the link and production refuses to pretend", async () => {
    const { email } = await importGenerated<{ email: { sendVerificationRequest: (p: unknown) => Promise<void> } }>(
      dir,
      "email/providers/email.ts",
    );
    const logs: unknown[] = [];
    const info = console.info;
    console.info = (...args: unknown[]) => void logs.push(args.join(" "));
    const env = process.env.NODE_ENV;
    const server = process.env.EMAIL_SERVER;
    delete process.env.EMAIL_SERVER;
    try {
      await email.sendVerificationRequest({ identifier: "a@b.c", url: "https://app/x", provider: { from: "x@y.z" } });
      expect(logs).toEqual(["[auth] sign-in link for a@b.c: https://app/x"]);
      process.env.NODE_ENV = "production";
      await expect(
        email.sendVerificationRequest({ identifier: "a@b.c", url: "https://app/x", provider: {} }),
      ).rejects.toThrow(/EMAIL_SERVER is not set, so no sign-in email can be sent/);
    } finally {
      console.info = info;
      process.env.NODE_ENV = env;
      if (server !== undefined) process.env.EMAIL_SERVER = server;
    }
  });
});
