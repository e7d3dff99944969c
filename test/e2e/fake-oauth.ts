/**
 * A small, strict OAuth 2.0 authorization server (RFC 6749 + RFC 7636) for the
 * generic `oauth` kind: authorization → code, token with `token_type`,
 * userinfo JSON behind a bearer token. PKCE is required and only S256 is
 * accepted (OAuth 2.1 / RFC 9700 style), and the verifier is really checked,
 * so a config that skips or botches PKCE cannot sign in.
 */
import { createHash, randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { basicCredentials, bearerToken, listen, readParams, redirect, sendJson } from "./loopback.js";

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The userinfo JSON for the signed-in user. */
  profile: Record<string, unknown>;
}

export interface FakeOAuthLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form parameters minus the client secret. */
  form: Record<string, string>;
  status?: number;
  error?: string;
}

export interface PkceRecord {
  code_challenge: string;
  code_challenge_method: string;
  /** Set when the token request's code_verifier hashed to the challenge. */
  verified: boolean;
}

export interface FakeOAuth {
  origin: string;
  log: FakeOAuthLogEntry[];
  /** One entry per authorization that issued a code. */
  pkce: PkceRecord[];
  close(): Promise<void>;
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export async function startFakeOAuth(options: FakeOAuthOptions): Promise<FakeOAuth> {
  const log: FakeOAuthLogEntry[] = [];
  const pkce: PkceRecord[] = [];
  const codes = new Map<string, { redirectUri: string; scope: string; pkce: PkceRecord; expires: number }>();
  const tokens = new Map<string, number>();

  const fail = (res: ServerResponse, entry: FakeOAuthLogEntry, status: number, error: string, description: string) => {
    entry.error = `${error}: ${description}`;
    sendJson(res, status, { error, error_description: description });
  };

  const server = await listen(async (req, res) => {
    const { url, query, form } = await readParams(req);
    const { client_secret: _secret, ...loggedForm } = form;
    const entry: FakeOAuthLogEntry = { method: req.method ?? "GET", path: url.pathname, query, form: loggedForm };
    log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));

    // RFC 8414 metadata at the OIDC discovery path, which is where Auth.js looks for an `issuer`.
    if (url.pathname === "/.well-known/openid-configuration" && req.method === "GET") {
      return sendJson(res, 200, {
        issuer: server.origin,
        authorization_endpoint: `${server.origin}/authorize`,
        token_endpoint: `${server.origin}/token`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      });
    }

    if (url.pathname === "/authorize" && req.method === "GET") {
      // Client and redirect_uri are checked before anything is sent back to the redirect_uri (RFC 6749 §4.1.2.1).
      if (query.client_id !== options.clientId) return fail(res, entry, 400, "invalid_client", "unknown client_id");
      if (query.redirect_uri !== options.redirectUri)
        return fail(res, entry, 400, "invalid_request", "redirect_uri is not registered");
      const back = new URL(options.redirectUri);
      if (query.state !== undefined) back.searchParams.set("state", query.state);
      const refuse = (error: string, description: string) => {
        entry.error = `${error}: ${description}`;
        back.searchParams.set("error", error);
        back.searchParams.set("error_description", description);
        redirect(res, back.href);
      };
      if (query.response_type !== "code") return refuse("unsupported_response_type", "only response_type=code");
      if (!query.code_challenge) return refuse("invalid_request", "code_challenge required (PKCE)");
      if (query.code_challenge_method !== "S256")
        return refuse("invalid_request", "code_challenge_method must be S256");
      const record: PkceRecord = {
        code_challenge: query.code_challenge,
        code_challenge_method: query.code_challenge_method,
        verified: false,
      };
      pkce.push(record);
      const code = randomBytes(16).toString("base64url");
      codes.set(code, {
        redirectUri: query.redirect_uri,
        scope: query.scope ?? "",
        pkce: record,
        expires: Date.now() + 60_000,
      });
      back.searchParams.set("code", code);
      return redirect(res, back.href);
    }

    if (url.pathname === "/token" && req.method === "POST") {
      const basic = basicCredentials(req.headers.authorization);
      if (
        (basic?.id ?? form.client_id) !== options.clientId ||
        (basic?.secret ?? form.client_secret) !== options.clientSecret
      ) {
        return fail(res, entry, 401, "invalid_client", "client authentication failed");
      }
      if (form.grant_type !== "authorization_code")
        return fail(res, entry, 400, "unsupported_grant_type", String(form.grant_type));
      const grant = form.code ? codes.get(form.code) : undefined;
      if (form.code) codes.delete(form.code);
      if (!grant || grant.expires < Date.now())
        return fail(res, entry, 400, "invalid_grant", "code is invalid or expired");
      if (form.redirect_uri !== grant.redirectUri)
        return fail(res, entry, 400, "invalid_grant", "redirect_uri does not match");
      if (!form.code_verifier || s256(form.code_verifier) !== grant.pkce.code_challenge) {
        return fail(res, entry, 400, "invalid_grant", "code_verifier does not match code_challenge");
      }
      grant.pkce.verified = true;
      const accessToken = randomBytes(24).toString("base64url");
      tokens.set(accessToken, Date.now() + 3_600_000);
      return sendJson(res, 200, {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 3600,
        scope: grant.scope,
        refresh_token: randomBytes(24).toString("base64url"),
      });
    }

    if (url.pathname === "/userinfo" && req.method === "GET") {
      const token = bearerToken(req.headers.authorization);
      const expires = token ? tokens.get(token) : undefined;
      if (!expires || expires < Date.now()) {
        entry.error = "invalid_token";
        res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' });
        return res.end();
      }
      return sendJson(res, 200, options.profile);
    }

    fail(res, entry, 404, "not_found", `${req.method} ${url.pathname}`);
  });

  return { origin: server.origin, log, pkce, close: server.close };
}
