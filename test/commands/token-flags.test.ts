/**
 * --refresh-tokens and --federated-logout on add-provider and init, in
 * process as CI runs them: a provider that cannot do what is asked is refused
 * in one line with the reason, exit 2, nothing written; one that can is
 * configured to get a refresh token, and the output names the post-logout
 * redirect URI to register.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { startOidcServer } from "../e2e/oidc-server.js";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";

function project(): string {
  const dir = tempDir("create-auth-tokens-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return dir;
}

/** A Next.js project as `init --yes --providers github` leaves it: the config, its adapter, no token rotation. */
async function initProject(): Promise<string> {
  const dir = project();
  rmSync(join(dir, "src/auth.ts"));
  const init = await inProcess(["init", "--yes", "--no-install", "--framework", "next", "--providers", "github"], {
    cwd: dir,
  });
  expect(init.exitCode, init.stderr).toBe(0);
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const account = { sub: "u-1", email: "a@corp.example", name: "A", picture: "https://corp.example/a.png" };

describe("--refresh-tokens and --federated-logout", () => {
  const defer = useCleanup();

  /** An OpenID provider on loopback; with `tokens`, refresh tokens and an end-session endpoint, else neither. */
  async function provider(tokens: boolean) {
    const server = await startOidcServer({
      clientId: "c",
      clientSecret: "s",
      redirectUri: "http://localhost:3000/api/auth/callback/corp",
      account,
      ...(tokens ? { tokens: { accessTokenTtl: 60, postLogoutRedirectUri: "http://localhost:3000/" } } : {}),
    });
    defer(() => server.close());
    return server;
  }

  it.each([
    [
      ["github", "--refresh-tokens"],
      /^error: --refresh-tokens: GitHub cannot: GitHub OAuth Apps issue no refresh tokens/,
    ],
    [
      ["google", "--federated-logout"],
      /^error: --federated-logout: Google cannot: Google publishes no end_session_endpoint/,
    ],
    [["discord", "--federated-logout"], /^error: --federated-logout: Discord cannot: .*no end-session endpoint/],
    [
      ["social", "--refresh-tokens"],
      /^error: --refresh-tokens: vk cannot: VK's classic OAuth dialog issues no refresh tokens/,
    ],
    [
      ["social", "--flow", "oauth", "--refresh-tokens"],
      /^error: --refresh-tokens: vk cannot: VK's classic OAuth dialog issues no refresh tokens/,
    ],
    [
      ["social", "--flow", "vkid", "--refresh-tokens", "--federated-logout"],
      /^error: --federated-logout: vk cannot: VK has no OpenID Connect end-session endpoint/,
    ],
    [["credentials", "--refresh-tokens"], /^error: --refresh-tokens: credentials cannot: .*no OAuth tokens/],
  ])("add-provider %j is refused in one line, exit 2, nothing written", async (args, message) => {
    const dir = project();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", ...args, "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split("\n")[0]).toMatch(message);
    expect(result.stderr.split("\n").filter((l) => l.startsWith("error:"))).toHaveLength(1);
    expect(snapshot(dir)).toEqual(before);
  });

  it("add-provider oidc --federated-logout: refused when the discovery document names no end_session_endpoint", async () => {
    const server = await provider(false);
    const dir = project();
    const before = snapshot(dir);
    const result = await inProcess(
      ["add-provider", "oidc", "--id", "corp", "--issuer", server.issuer, "--federated-logout", "--no-install"],
      { cwd: dir },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --federated-logout: corp cannot: its discovery document \(.*\) names no end_session_endpoint\.$/m,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it("add-provider oidc --refresh-tokens --federated-logout on init's config: offline_access with prompt=consent, rotation and sign-out wired, the URI to register", async () => {
    const server = await provider(true);
    const dir = await initProject();
    const result = await inProcess(
      [
        "add-provider",
        "oidc",
        "--id",
        "corp",
        "--issuer",
        server.issuer,
        "--refresh-tokens",
        "--federated-logout",
        "--base-url",
        "https://app.example.com",
        "--no-install",
      ],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "src/providers/corp.ts")).toContain(
      'authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },',
    );
    // Beside the adapter whose operations it uses, as init places it.
    expect(read(dir, "auth/token-rotation.ts")).toContain("export function createTokenRotation(");
    const config = read(dir, "src/auth.ts");
    expect(config).toContain('import { createTokenRotation } from "../auth/token-rotation";');
    expect(config).toMatch(
      / {2}refresh: \[corp\],\n {2}federatedSignOut: \[corp\],\n {2}postLogoutRedirectUri: process\.env\.AUTH_POST_LOGOUT_REDIRECT_URI,/,
    );
    expect(config).toContain("return tokens.refreshOnRead(result, params.user?.id ?? params.token?.sub);");
    expect(config).toContain("redirect: tokens.redirect,");
    expect(config).toContain("events: tokens.events,");
    // next-auth's route handler and signOut() send a sign-out on to the provider, as init's --federated-logout config does.
    expect(config).toContain("nextAuth.handlers.POST(new NextRequest(await signOutRequest(request,");
    expect(config).not.toContain("export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);");
    expect(read(dir, ".env.example")).toMatch(/^AUTH_POST_LOGOUT_REDIRECT_URI=http:\/\/localhost:3000\/$/m);
    expect(result.stdout).toMatch(
      /^Register this post-logout redirect URI at the provider .*:\n {2}https:\/\/app\.example\.com\/$/m,
    );
    expect(result.stdout).not.toMatch(/^note: .*(?:wire|add to it)/im);
    // The discovery document was read to check the provider offers what was asked.
    expect(server.log.some((e) => e.path === "/.well-known/openid-configuration")).toBe(true);
  });

  it("add-provider oidc, then the same provider again with --refresh-tokens --federated-logout: its module updated and rotation wired; a module the user edited is kept", async () => {
    const server = await provider(true);
    const dir = await initProject();
    const corp = ["add-provider", "oidc", "--id", "corp", "--issuer", server.issuer, "--no-install"];
    const plain = await inProcess(corp, { cwd: dir });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const again = await inProcess([...corp, "--refresh-tokens", "--federated-logout"], { cwd: dir });
    expect(again.stderr).toBe("");
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/^updated src\/providers\/corp\.ts$/m);
    expect(read(dir, "src/providers/corp.ts")).toContain(
      'scope: "openid profile email offline_access", prompt: "consent"',
    );
    expect(read(dir, "src/auth.ts")).toMatch(/ {2}refresh: \[corp\],\n {2}federatedSignOut: \[corp\],/);

    // The same steps on a module the user changed in between: refused, nothing written, as before.
    const edited = await initProject();
    expect((await inProcess(corp, { cwd: edited })).exitCode).toBe(0);
    const module = `${read(edited, "src/providers/corp.ts")}// the user's line\n`;
    writeFileSync(join(edited, "src/providers/corp.ts"), module);
    const before = snapshot(edited);
    const refused = await inProcess([...corp, "--refresh-tokens", "--federated-logout"], { cwd: edited });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^error: src\/providers\/corp\.ts already exists with other contents/);
    expect(snapshot(edited)).toEqual(before);
  });

  it("add-provider social --flow vkid --refresh-tokens: accepted, the module carries its own refresh, the rotation wired", async () => {
    const dir = await initProject();
    const result = await inProcess(["add-provider", "social", "--flow", "vkid", "--refresh-tokens", "--no-install"], {
      cwd: dir,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const module = read(dir, "src/providers/vk.ts");
    expect(module).toMatch(/^ {2}refreshTokens,$/m);
    expect(module).toContain("export async function refreshTokens(");
    expect(read(dir, "auth/token-rotation.ts")).toContain(
      "const own = p.refreshTokens as ProviderRefresh | undefined;",
    );
    expect(read(dir, "src/auth.ts")).toMatch(/ {2}refresh: \[vk\],\n\}\);/);
    // No end-session endpoint was asked for: no post-logout URI to register, next-auth's exports as they were.
    expect(result.stdout).not.toMatch(/post-logout redirect URI/);
    expect(read(dir, "src/auth.ts")).toContain(
      "export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);",
    );
  });

  it("add-provider --refresh-tokens on a config whose adapter cannot update accounts is refused in one line, nothing written", async () => {
    const dir = project();
    const before = snapshot(dir);
    const result = await inProcess(["add-provider", "google", "--refresh-tokens", "--no-install"], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --refresh-tokens: the adapter of src\/auth\.ts \(PrismaAdapter\(prisma\)\) has no updateAccount, listAccountsByUserId, leaseAccount, which token rotation calls/,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([["google"], ["gitlab"], ["social"], ["keycloak", "--issuer", "https://sso.example.com/realms/main"]])(
    "add-provider %s with no token flags writes no rotation module and prints no wiring",
    async (...args) => {
      const dir = project();
      const result = await inProcess(["add-provider", ...args, "--no-install"], { cwd: dir });
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(Object.keys(snapshot(dir)).filter((path) => path.endsWith("token-rotation.ts"))).toEqual([]);
      expect(result.stdout).not.toMatch(/createTokenRotation|token rotation|post-logout/i);
      expect(read(dir, ".env.example")).not.toContain("AUTH_POST_LOGOUT_REDIRECT_URI");
    },
  );

  it("add-provider google --refresh-tokens: access_type=offline and prompt=consent", async () => {
    const dir = await initProject();
    const result = await inProcess(["add-provider", "google", "--refresh-tokens", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "src/providers/google.ts")).toContain(
      'authorization: { params: { access_type: "offline", prompt: "consent" } },',
    );
  });

  it.each([
    [["--providers", "github,google", "--refresh-tokens"], /^error: --refresh-tokens: GitHub cannot/],
    [
      ["--providers", "credentials", "--federated-logout"],
      /^error: --federated-logout: none of --providers signs in through OAuth/,
    ],
    [
      ["--providers", "google", "--refresh-tokens", "--backend", "skeleton"],
      /^error: --refresh-tokens: the skeleton adapter does not update accounts yet/,
    ],
  ])("init %j is refused in one line, exit 2, nothing written", async (args, message) => {
    const dir = tempDir("create-auth-tokens-init-");
    const result = await inProcess(["init", "--yes", "--no-install", ...args], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split("\n")[0]).toMatch(message);
    expect(snapshot(dir)).toEqual({});
  });

  it("init --yes sets up an OpenID provider that needs an issuer, with the flags add-provider takes: rotation and sign-out wired", async () => {
    const server = await provider(true);
    const dir = tempDir("create-auth-tokens-init-");
    const result = await inProcess(
      [
        "init",
        "--yes",
        "--no-install",
        "--providers",
        "oidc,credentials",
        "--id",
        "corp",
        "--issuer",
        server.issuer,
        "--refresh-tokens",
        "--federated-logout",
      ],
      { cwd: dir, env: { CI: "true" } },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const module = read(dir, "providers/corp.ts");
    expect(module).toContain(JSON.stringify(server.issuer));
    // --id went to oidc, which needs it; credentials kept its own.
    expect(read(dir, "providers/credentials.ts")).toContain('id: "credentials"');
    const config = read(dir, "auth.ts");
    expect(config).toMatch(/refresh: \[corp\],\n {2}federatedSignOut: \[corp\],/);
    expect(server.log.some((e) => e.path === "/.well-known/openid-configuration")).toBe(true);
  });

  it("init and add-provider take --no-refresh-tokens and --no-federated-logout: nothing asked, nothing generated", async () => {
    const dir = tempDir("create-auth-tokens-init-");
    const init = await inProcess(
      ["init", "--yes", "--no-install", "--providers", "google", "--no-refresh-tokens", "--no-federated-logout"],
      { cwd: dir },
    );
    expect(init.stderr).toBe("");
    expect(init.exitCode).toBe(0);
    const added = await inProcess(["add-provider", "gitlab", "--no-install", "--no-refresh-tokens"], { cwd: dir });
    expect(added.stderr).toBe("");
    expect(added.exitCode).toBe(0);
    expect(Object.keys(snapshot(dir)).filter((path) => path.endsWith("token-rotation.ts"))).toEqual([]);
  });

  it("init --federated-logout names the post-logout redirect URI to register and writes the variable", async () => {
    const dir = tempDir("create-auth-tokens-init-");
    const result = await inProcess(
      ["init", "--yes", "--no-install", "--providers", "microsoft-entra-id", "--federated-logout"],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(
      /Register the post-logout redirect URI of "microsoft-entra-id" at the provider: http:\/\/localhost:3000\/$/m,
    );
    expect(read(dir, ".env.example")).toMatch(/^AUTH_POST_LOGOUT_REDIRECT_URI=http:\/\/localhost:3000\/$/m);
    expect(read(dir, "auth.ts")).toMatch(/federatedSignOut: \[microsoftEntraId\],/);
    expect(read(dir, "auth.ts")).toContain("export const signOutUrl = tokens.signOutUrl;");
  });

  it("init --providers google,credentials --refresh-tokens: rotation wired into the config, Microsoft Entra ID asks for offline_access", async () => {
    const dir = tempDir("create-auth-tokens-init-");
    const result = await inProcess(
      ["init", "--yes", "--no-install", "--providers", "google,microsoft-entra-id,credentials", "--refresh-tokens"],
      { cwd: dir },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const config = read(dir, "auth.ts");
    expect(config).toContain('import { createTokenRotation } from "./auth/token-rotation.js";');
    expect(config).toMatch(/refresh: \[google, microsoftEntraId\],/);
    expect(config).toContain("return tokens.refreshOnRead(session, id);");
    expect(config).toContain("events: tokens.events,");
    expect(read(dir, "providers/microsoft-entra-id.ts")).toContain("offline_access");
    expect(read(dir, "auth/adapter.ts")).toContain("async leaseAccount(");
    expect(result.stdout).toMatch(/getAccessToken\(session\.user\.id, providerId\)/);
  });
});
