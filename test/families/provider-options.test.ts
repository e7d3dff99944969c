import { describe, expect, it } from "vitest";
import {
  kindCatalog,
  missingOptions,
  parseProviderOptions,
  providerKinds,
  questions,
  resolveKind,
} from "../../src/families/registry.js";
import { UsageError } from "../../src/lib/errors.js";

/** The one-line message parseProviderOptions throws, or "ok". */
function problem(kind: Parameters<typeof parseProviderOptions>[0], raw: Record<string, unknown>): string {
  try {
    parseProviderOptions(kind, raw);
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
}

const oauthBase = {
  id: "acme",
  authorization: "https://acme.example/authorize",
  token: "https://acme.example/token",
  userinfo: "https://acme.example/me",
};

describe("kinds", () => {
  it("resolves kinds and aliases, and lists the kinds for anything else", () => {
    expect(providerKinds.map(resolveKind)).toEqual([...providerKinds]);
    expect(resolveKind("passkey")).toBe("webauthn");
    expect(resolveKind("OIDC")).toBe("oidc");
    expect(() => resolveKind("github")).toThrow(UsageError);
    expect(() => resolveKind("github")).toThrow(/oauth, oidc, email, credentials, webauthn \(alias passkey\), social/);
  });

  it("has a catalog entry with flags for every kind, each kind once, in --list order", () => {
    // Written out: providerKinds is read off the catalog, so comparing the two could not fail.
    expect(kindCatalog.map((k) => k.kind)).toEqual(["oauth", "oidc", "email", "credentials", "webauthn", "social"]);
    for (const entry of kindCatalog) {
      expect(entry.title && entry.description).toBeTruthy();
      for (const option of entry.options) expect(option.flag).toMatch(/^--[a-z-]+( <[a-z]+>)?$/);
    }
  });

  it("names what a kind still needs, alternatives included", () => {
    expect(missingOptions("social", {})).toEqual([]);
    expect(missingOptions("oidc", { id: "x" }).map((o) => o.key)).toEqual(["issuer"]);
    expect(missingOptions("oidc", { id: "x", wellKnown: "https://a/.well-known/openid-configuration" })).toEqual([]);
    expect(missingOptions("oauth", { id: "x", authorization: "https://a" }).map((o) => o.key)).toEqual([
      "token",
      "userinfo",
    ]);
    expect(missingOptions("oauth", { id: "x", token: "https://a", userinfo: "https://a" }).map((o) => o.key)).toEqual([
      "authorization",
    ]);
    expect(
      missingOptions("oauth", { id: "x", token: "https://a", userinfo: "https://a", issuer: "https://a" }),
    ).toEqual([]);
  });
});

describe("--api-version (social)", () => {
  it.each(["5.126", "5.131", "5.199"])("accepts %s", (v) => {
    expect(parseProviderOptions("social", { apiVersion: v })).toEqual({
      id: "vk",
      flow: "oauth",
      apiVersion: v,
      domain: "vk.ru",
    });
  });
  it.each(["abc", "", "5", "5.126&x=y", "5.126 ", " 5.126", "5.1.2", "v5.126"])("refuses %j", (v) => {
    expect(problem("social", { apiVersion: v })).toBe(
      `--api-version: ${JSON.stringify(v)} is not a VK API version; expected MAJOR.MINOR such as 5.126`,
    );
  });
  it("defaults to 5.126 (§9)", () => {
    expect(parseProviderOptions("social", {}).apiVersion).toBe("5.126");
  });
});

describe("--flow (social)", () => {
  it("defaults to the classic OAuth 2.0 dialog; vkid chooses VK ID", () => {
    expect(parseProviderOptions("social", {}).flow).toBe("oauth");
    expect(parseProviderOptions("social", { flow: "vkid" })).toMatchObject({ id: "vk", flow: "vkid" });
  });
  it("refuses an unknown flow, naming the two", () => {
    expect(problem("social", { flow: "oauth2" })).toBe("--flow: expected oauth or vkid");
  });
  it("refuses --api-version with VK ID, whose endpoints take none", () => {
    expect(problem("social", { flow: "vkid", apiVersion: "5.131" })).toBe(
      "--api-version: applies to --flow oauth only; VK ID's endpoints take no API version",
    );
  });
  it("is a choice the prompts offer (asked in a terminal), with one line on each flow", () => {
    const flow = questions("social", {}).find((q) => q.key === "flow");
    expect(flow).toMatchObject({ values: ["oauth", "vkid"], fallback: "oauth" });
    expect(flow!.hints!.vkid).toMatch(/VK ID console/);
    expect(questions("social", { flow: "vkid" })).toEqual([]);
    // A version is for the classic dialog only: it settles the flow.
    expect(questions("social", { apiVersion: "5.131" })).toEqual([]);
    expect(missingOptions("social", {})).toEqual([]);
  });
});

describe("--domain (social)", () => {
  it("defaults to vk.ru, where VK's hosts are since October 2025, for both flows", () => {
    expect(parseProviderOptions("social", {}).domain).toBe("vk.ru");
    expect(parseProviderOptions("social", { flow: "vkid" }).domain).toBe("vk.ru");
  });
  it.each([
    ["oauth", "vk.com"],
    ["vkid", "vk.com"],
    ["vkid", "vk.ru"],
  ])("--flow %s accepts %s", (flow, domain) => {
    expect(parseProviderOptions("social", { flow, domain })).toMatchObject({ flow, domain });
  });
  it.each(["vk.org", "VK.RU", "oauth.vk.ru", "", "vk.ru "])("refuses %j, naming the two", (domain) => {
    expect(problem("social", { domain })).toBe(
      `--domain: ${JSON.stringify(domain)} is not one of VK's domains; expected vk.ru or vk.com`,
    );
  });
  it("is not asked in a terminal (vk.ru serves), but carries a line on each domain", () => {
    expect(questions("social", { flow: "oauth" })).toEqual([]);
    const domain = kindCatalog.find((k) => k.kind === "social")!.options.find((o) => o.key === "domain")!;
    expect(domain).toMatchObject({ flag: "--domain <domain>", fallback: "vk.ru", values: ["vk.ru", "vk.com"] });
    expect(domain.hints!["vk.ru"]).toMatch(/oauth\.vk\.ru, api\.vk\.ru and id\.vk\.ru/);
    expect(domain.hints!["vk.com"]).toMatch(/oauth\.vk\.com, api\.vk\.com and id\.vk\.com/);
  });
});

describe("--id", () => {
  it.each(["My Provider", "a/b", "", "Acme", "a".repeat(51), "é", "a.b", "a b"])("refuses %j", (id) => {
    expect(problem("oauth", { ...oauthBase, id })).toMatch(
      /^--id: .* cannot be used in the callback URL .*expected 1-50 lowercase letters, digits, "-" or "_"/,
    );
  });
  it("suggests a usable id", () => {
    expect(problem("oidc", { id: "My Provider", issuer: "https://a.example" })).toMatch(/try "my-provider"$/);
  });
  it.each(["vk", "my-oidc", "corp_sso", "42", "a".repeat(50)])("accepts %j", (id) => {
    expect(parseProviderOptions("social", { id }).id).toBe(id);
  });
  it("is required for oauth and oidc, defaulted elsewhere", () => {
    expect(problem("oauth", { ...oauthBase, id: undefined })).toMatch(/^--id: is required/);
    expect(problem("oidc", { issuer: "https://a.example" })).toMatch(/^--id: is required/);
    expect(parseProviderOptions("email", {}).id).toBe("email");
    expect(parseProviderOptions("credentials", {}).id).toBe("credentials");
    expect(parseProviderOptions("webauthn", {}).id).toBe("webauthn");
  });
});

describe("--checks", () => {
  it("refuses unknown checks, naming the allowed ones", () => {
    expect(problem("oauth", { ...oauthBase, checks: "foo" })).toBe(
      '--checks: "foo" is not allowed; expected none, state or pkce',
    );
    expect(problem("oauth", { ...oauthBase, checks: "pkce,nonce" })).toBe(
      '--checks: "nonce" is not allowed; expected none, state or pkce',
    );
    expect(problem("oidc", { id: "x", issuer: "https://a.example", checks: "foo" })).toBe(
      '--checks: "foo" is not allowed; expected none, state, nonce or pkce',
    );
    expect(problem("oauth", { ...oauthBase, checks: "" })).toMatch(/^--checks: "" is not allowed/);
  });
  it('refuses "none" with anything else', () => {
    expect(problem("oauth", { ...oauthBase, checks: "none,pkce" })).toMatch(
      /^--checks: "none,pkce": "none" turns the checks off/,
    );
    expect(problem("oauth", { ...oauthBase, checks: "none", redirectProxyUrl: "https://p.example/api/auth" })).toMatch(
      /^--checks: "none" cannot be used with --redirect-proxy-url/,
    );
  });
  it("defaults to pkce and adds state with a redirect proxy (§2.4, §5.2)", () => {
    expect(parseProviderOptions("oauth", oauthBase).checks).toEqual(["pkce"]);
    expect(
      parseProviderOptions("oauth", { ...oauthBase, redirectProxyUrl: "https://p.example/api/auth" }).checks,
    ).toEqual(["pkce", "state"]);
    expect(
      parseProviderOptions("oidc", { id: "x", issuer: "https://a.example", checks: " nonce, pkce ,nonce" }).checks,
    ).toEqual(["nonce", "pkce"]);
    expect(parseProviderOptions("oauth", { ...oauthBase, checks: ["state"] }).checks).toEqual(["state"]);
  });
});

describe("endpoints", () => {
  it("oauth needs token and userinfo URLs, and an authorization URL or an issuer", () => {
    expect(problem("oauth", { id: "acme" })).toMatch(
      /^--token: is required for an oauth provider \(Auth.js does not discover it/,
    );
    expect(problem("oauth", { id: "acme", issuer: "https://acme.example" })).toMatch(/^--token: is required/);
    expect(problem("oauth", { id: "acme", issuer: "https://acme.example", userinfo: oauthBase.userinfo })).toMatch(
      /^--token: is required/,
    );
    expect(problem("oauth", { id: "acme", issuer: "https://acme.example", token: oauthBase.token })).toMatch(
      /^--userinfo: is required/,
    );
    expect(problem("oauth", { id: "acme", token: oauthBase.token, userinfo: oauthBase.userinfo })).toBe(
      "--authorization: is required unless --issuer is given",
    );
    expect(
      problem("oauth", {
        id: "acme",
        issuer: "https://acme.example",
        token: oauthBase.token,
        userinfo: oauthBase.userinfo,
      }),
    ).toBe("ok");
    expect(problem("oauth", { ...oauthBase, issuer: "https://acme.example" })).toBe("ok");
  });
  it("oidc needs an issuer or a well-known URL", () => {
    expect(problem("oidc", { id: "corp" })).toBe("--issuer: is required unless --well-known is given");
    const o = parseProviderOptions("oidc", {
      id: "corp",
      wellKnown: "https://login.corp.example/tenant/.well-known/openid-configuration",
    });
    expect(o.issuer).toBe("https://login.corp.example/tenant");
    expect(o.scope).toBe("openid profile email");
    expect(problem("oidc", { id: "corp", wellKnown: "https://login.corp.example/config" })).toMatch(
      /^--well-known: .* does not end with/,
    );
  });
  it.each([
    "login.example.com",
    "ftp://a.example",
    "https://a.example/\nx",
    "https://a .example",
    "javascript:alert(1)",
  ])("refuses the URL %j", (url) => {
    expect(problem("oidc", { id: "corp", issuer: url })).toMatch(/^--issuer: .* is not an http\(s\) URL/);
  });
});

describe("other options", () => {
  it("email: --from is an address, --max-age whole seconds", () => {
    expect(parseProviderOptions("email", { from: "Sign in <no-reply@example.com>", maxAge: "3600" })).toMatchObject({
      from: "Sign in <no-reply@example.com>",
      maxAge: 3600,
    });
    expect(problem("email", { from: "nobody" })).toMatch(/^--from: "nobody" is not an email address/);
    expect(problem("email", { from: "Evil\nBcc: <a@b.c>" })).toMatch(/^--from: .* is not an email address/);
    expect(problem("email", { maxAge: "1.5" })).toMatch(/^--max-age: "1.5" is not a positive whole number of seconds/);
    expect(problem("email", { maxAge: "0" })).toMatch(/^--max-age: "0"/);
  });
  it("credentials: --fields are names", () => {
    expect(parseProviderOptions("credentials", {}).fields).toEqual(["email", "password"]);
    expect(parseProviderOptions("credentials", { fields: "username, password, otp" }).fields).toEqual([
      "username",
      "password",
      "otp",
    ]);
    expect(problem("credentials", { fields: "user name,password" })).toMatch(
      /^--fields: "user name" is not a field name/,
    );
    expect(problem("credentials", { fields: "__proto__" })).toMatch(/^--fields: "__proto__" is not a field name/);
  });
  it("booleans come as flags or words", () => {
    expect(
      parseProviderOptions("oauth", { ...oauthBase, allowDangerousEmailAccountLinking: true })
        .allowDangerousEmailAccountLinking,
    ).toBe(true);
    expect(
      parseProviderOptions("oauth", { ...oauthBase, allowDangerousEmailAccountLinking: "false" })
        .allowDangerousEmailAccountLinking,
    ).toBe(false);
    expect(problem("oauth", { ...oauthBase, allowDangerousEmailAccountLinking: "yes" })).toBe(
      "--allow-dangerous-email-account-linking: expected true or false",
    );
  });
  it("refuses another kind's flag instead of dropping it", () => {
    expect(problem("social", { issuer: "https://a.example" })).toMatch(
      /^--issuer: not an option of social providers; they take --id, --name, --flow, --api-version, --domain/,
    );
    expect(problem("email", { apiVersion: undefined })).toBe("ok");
  });
  it("refuses an empty --name", () => {
    expect(problem("social", { name: "  " })).toMatch(/^--name: " {2}" is empty/);
  });
  it("parses its own output to the same value", () => {
    for (const [kind, raw] of [
      ["oauth", { ...oauthBase, redirectProxyUrl: "https://p.example/api/auth", checks: "pkce" }],
      ["oidc", { id: "corp", wellKnown: "https://a.example/.well-known/openid-configuration" }],
      ["email", { maxAge: "60", from: "a@b.c" }],
      ["credentials", { fields: "a,b" }],
      ["social", { apiVersion: "5.131" }],
      ["social", { apiVersion: "5.131", domain: "vk.com" }],
    ] as const) {
      const once = parseProviderOptions(kind, raw);
      expect(parseProviderOptions(kind, once)).toEqual(once);
    }
  });
});

describe("--logo", () => {
  it("takes a path or a URL, never one with a user name or password (it is written into a committed file)", () => {
    expect(problem("oidc", { id: "corp", issuer: "https://login.example", logo: "/corp.svg" })).toBe("ok");
    expect(problem("oidc", { id: "corp", issuer: "https://login.example", logo: "https://cdn.example/l.png" })).toBe(
      "ok",
    );
    for (const logo of ["https://user:pw@cdn.example.com/logo.png", "https://user:a@b@cdn.example.com/l.png"]) {
      const message = problem("oidc", { id: "corp", issuer: "https://login.example", logo });
      expect(message).toMatch(/^--logo: .*contains a user name or password/);
      expect(message).not.toMatch(/pw|a@b/);
    }
  });
});
