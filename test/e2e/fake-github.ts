/**
 * A GitHub Enterprise Server stand-in on loopback, at the paths Auth.js's
 * GitHub provider uses under `enterprise.baseUrl`: the authorize page, the
 * token exchange (PKCE checked), /api/v3/user without a public email, and
 * /api/v3/user/emails, where GitHub keeps the primary one.
 */
import { createHash, randomBytes } from "node:crypto";
import { bearerToken, listen, readParams, redirect, sendJson } from "./loopback.js";

export interface FakeGitHub {
  origin: string;
  /** Paths requested, in order, by method. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeGitHub(o: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  user: { id: number; login: string; name: string };
  emails: { email: string; primary: boolean; verified: boolean }[];
}): Promise<FakeGitHub> {
  const requests: string[] = [];
  const codes = new Map<string, string>();
  const tokens = new Set<string>();
  const server = await listen(async (req, res) => {
    const { url, query, form } = await readParams(req);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/login/oauth/authorize") {
      if (query.client_id !== o.clientId || query.redirect_uri !== o.redirectUri)
        return sendJson(res, 400, { error: "redirect_uri_mismatch" });
      const code = randomBytes(12).toString("hex");
      codes.set(code, query.code_challenge ?? "");
      const back = new URL(o.redirectUri);
      back.searchParams.set("code", code);
      if (query.state) back.searchParams.set("state", query.state);
      return redirect(res, back.href);
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const challenge = codes.get(form.code ?? "");
      const verifier = form.code_verifier ?? "";
      const secret =
        form.client_secret ??
        Buffer.from((req.headers.authorization ?? "").slice(6), "base64")
          .toString()
          .split(":")[1];
      if (challenge === undefined || secret !== o.clientSecret)
        return sendJson(res, 400, { error: "bad_verification_code" });
      if (createHash("sha256").update(verifier).digest("base64url") !== challenge)
        return sendJson(res, 400, { error: "invalid_grant", error_description: "code_verifier" });
      codes.delete(form.code!);
      const token = randomBytes(16).toString("hex");
      tokens.add(token);
      return sendJson(res, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    if (!tokens.has(bearerToken(req.headers.authorization) ?? ""))
      return sendJson(res, 401, { message: "Bad credentials" });
    if (url.pathname === "/api/v3/user")
      return sendJson(res, 200, { ...o.user, email: null, avatar_url: "https://example.com/a.png" });
    if (url.pathname === "/api/v3/user/emails") return sendJson(res, 200, o.emails);
    sendJson(res, 404, { message: "Not Found" });
  });
  return { origin: server.origin, requests, close: server.close };
}
