/** A generated generic OAuth 2.0 provider, signed in through the real Auth.js against a stubbed provider. */
import { Auth, type AuthConfig, skipCSRFCheck } from "@auth/core";
import { afterEach, expect, it, vi } from "vitest";
import { generateInto, importGenerated, makeProject } from "./project.js";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

it("signs in with PKCE, the requested scope and the profile mapping", async () => {
  const dir = makeProject();
  await generateInto(dir, "oauth", {
    id: "acme",
    name: "Acme",
    authorization: "https://acme.example/oauth/authorize",
    token: "https://acme.example/oauth/token",
    userinfo: "https://acme.example/api/me",
    scope: "read:user",
  });
  // The module reads its client credentials from the environment when it loads.
  vi.stubEnv("AUTH_ACME_ID", "acme-client");
  vi.stubEnv("AUTH_ACME_SECRET", "acme-secret");
  const { acme } = await importGenerated<{ acme: AuthConfig["providers"][number] }>(dir, "providers/acme.ts");
  let signedIn: { user: unknown; account?: unknown } | undefined;
  const config: AuthConfig = {
    providers: [acme],
    secret: "a-test-secret-that-is-long-enough-0123456789",
    trustHost: true,
    basePath: "/auth",
    skipCSRFCheck,
    callbacks: { signIn: (params) => ((signedIn = params), true) },
  };

  const start = await Auth(new Request("http://localhost:3000/auth/signin/acme", { method: "POST" }), config);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin + authorize.pathname).toBe("https://acme.example/oauth/authorize");
  expect(authorize.searchParams.get("scope")).toBe("read:user");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  const cookie = start.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new Request(input, init).url;
    if (url === "https://acme.example/oauth/token") return Response.json({ access_token: "t", token_type: "Bearer" });
    if (url === "https://acme.example/api/me") return Response.json({ id: 42, name: "Ada", email: "ada@acme.example", picture: "https://acme.example/ada.png" });
    return new Response("unexpected", { status: 500 });
  });
  const done = await Auth(new Request("http://localhost:3000/auth/callback/acme?code=c", { headers: { cookie } }), config);
  expect(done.headers.get("location")).not.toMatch(/error/);
  expect(signedIn!.account).toMatchObject({ provider: "acme", type: "oauth", providerAccountId: "42" });
  expect(signedIn!.user).toMatchObject({ name: "Ada", email: "ada@acme.example", image: "https://acme.example/ada.png" });
});
