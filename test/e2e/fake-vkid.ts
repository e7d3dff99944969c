/**
 * A fake VK ID (id.vk.ru, or id.vk.com before VK's move; it answers on
 * whatever host the provider is pointed at), written from VK ID's API
 * reference ("Справочник методов API VK ID": authorize, oauth2/auth,
 * oauth2/user_info) and the behaviour of VK's own web SDK, as picky as the
 * docs say:
 *  - /authorize wants response_type=code, client_id, a trusted redirect_uri,
 *    state and PKCE (code_challenge with code_challenge_method s256, in any
 *    case); it redirects back with code, state, device_id, type=code_v2 and
 *    expires_in;
 *  - POST /oauth2/auth (parameters in the query or the form, as the SDK sends
 *    them) exchanges the code only with the code_verifier, the device_id the
 *    code was issued with, the same redirect_uri and state, and the client_id;
 *    it answers access, refresh and ID tokens, token_type, expires_in,
 *    user_id, state and scope. grant_type=refresh_token wants the refresh
 *    token and its device_id, and hands out a new refresh token each time;
 *  - POST /oauth2/user_info takes client_id and access_token in the form body
 *    and answers { user: { user_id (a string), names, avatar, email... } }.
 * Errors are { error, error_description } with a 4xx status. No client secret
 * is asked for: a web app is a public client checked by PKCE.
 */
import { createHash, randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { listen, readParams, redirect, sendJson } from "./loopback.js";

export interface VkIdUser {
  user_id: number;
  first_name: string;
  last_name: string;
  avatar: string;
  /** Absent: the user grants no email. */
  email?: string;
  /** More of the user_info answer (phone, sex, birthday...). */
  extra?: Record<string, unknown>;
}

export interface VkIdLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form body parameters, secrets included: the tests only read them. */
  form: Record<string, string>;
  status: number;
  error?: string;
}

export interface FakeVkId {
  origin: string;
  log: VkIdLogEntry[];
  /** device_id handed out with each code. */
  deviceIds: string[];
  /** Tokens handed out, per kind, in order. */
  issued: { access: string[]; refresh: string[]; id: string[] };
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  state: string;
  challenge: string;
  deviceId: string;
  scope: string;
  expires: number;
}

const token = () => randomBytes(24).toString("base64url");
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startFakeVkId(options: { clientId: string; user: VkIdUser }): Promise<FakeVkId> {
  const log: VkIdLogEntry[] = [];
  const deviceIds: string[] = [];
  const issued = { access: [] as string[], refresh: [] as string[], id: [] as string[] };
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, { scope: string; expires: number }>();
  const refreshTokens = new Map<string, { deviceId: string; scope: string }>();
  const { user, clientId } = options;

  type Reply = { status: number; error?: string };
  const fail = (res: ServerResponse, status: number, error: string, description: string): Reply => {
    sendJson(res, status, { error, error_description: description });
    return { status, error: description };
  };

  /** A JWT as VK ID issues it (RS256); this fake does not sign it: nothing here verifies it either. */
  const idToken = () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: "VK", sub: String(user.user_id), aud: clientId, exp: now + 3600, iat: now };
    const jwt = `${b64url({ alg: "RS256", typ: "JWT" })}.${b64url(claims)}.${randomBytes(64).toString("base64url")}`;
    issued.id.push(jwt);
    return jwt;
  };

  const tokens = (res: ServerResponse, p: Record<string, string>, grant: { deviceId: string; scope: string }) => {
    const access = token();
    const refresh = token();
    accessTokens.set(access, { scope: grant.scope, expires: Date.now() + 3_600_000 });
    refreshTokens.set(refresh, grant);
    issued.access.push(access);
    issued.refresh.push(refresh);
    sendJson(res, 200, {
      refresh_token: refresh,
      access_token: access,
      id_token: idToken(),
      token_type: "Bearer",
      expires_in: 3600,
      user_id: user.user_id,
      state: p.state,
      scope: grant.scope,
    });
    return { status: 200 };
  };

  const authorize = (q: Record<string, string>, res: ServerResponse): Reply => {
    if (q.response_type !== "code") return fail(res, 400, "invalid_request", "response_type must be code");
    if (q.client_id !== clientId) return fail(res, 400, "invalid_client", "client_id is incorrect");
    if (!q.redirect_uri) return fail(res, 400, "invalid_request", "redirect_uri is required");
    if (!q.state) return fail(res, 400, "invalid_request", "state is required");
    if (!q.code_challenge || q.code_challenge_method?.toLowerCase() !== "s256")
      return fail(res, 400, "invalid_request", "code_challenge with code_challenge_method s256 is required");
    const code = token();
    const deviceId = randomBytes(16).toString("hex");
    deviceIds.push(deviceId);
    const scope = ["vkid.personal_info", ...(q.scope ?? "").split(" ")].filter(
      (s, i, all) => s && all.indexOf(s) === i,
    );
    codes.set(code, {
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      state: q.state,
      challenge: q.code_challenge,
      deviceId,
      scope: scope.join(" "),
      expires: Date.now() + 600_000,
    });
    const target = new URL(q.redirect_uri);
    for (const [key, value] of Object.entries({
      code,
      state: q.state,
      device_id: deviceId,
      type: "code_v2",
      expires_in: "600",
    }))
      target.searchParams.set(key, value);
    redirect(res, target.href);
    return { status: 302 };
  };

  const exchange = (p: Record<string, string>, res: ServerResponse): Reply => {
    if (p.client_id !== clientId) return fail(res, 400, "invalid_client", "client_id is incorrect");
    if (p.grant_type === "refresh_token") {
      const grant = p.refresh_token ? refreshTokens.get(p.refresh_token) : undefined;
      if (!grant) return fail(res, 400, "invalid_grant", "refresh_token is invalid or was already used");
      if (p.device_id !== grant.deviceId) return fail(res, 400, "invalid_request", "device_id is invalid");
      if (!p.state) return fail(res, 400, "invalid_request", "state is required");
      refreshTokens.delete(p.refresh_token!); // rotated: a refresh token is good once
      return tokens(res, p, grant);
    }
    if (p.grant_type !== "authorization_code") return fail(res, 400, "unsupported_grant_type", "grant_type is invalid");
    const grant = p.code ? codes.get(p.code) : undefined;
    if (p.code) codes.delete(p.code); // single use
    if (!grant || grant.expires < Date.now()) return fail(res, 400, "invalid_grant", "code is invalid or expired");
    if (!p.device_id) return fail(res, 400, "invalid_request", "device_id is required");
    if (p.device_id !== grant.deviceId) return fail(res, 400, "invalid_grant", "device_id is invalid");
    if (!p.code_verifier) return fail(res, 400, "invalid_request", "code_verifier is required");
    if (createHash("sha256").update(p.code_verifier).digest("base64url") !== grant.challenge)
      return fail(res, 400, "invalid_grant", "code_verifier is invalid");
    if (p.redirect_uri !== grant.redirectUri) return fail(res, 400, "invalid_grant", "redirect_uri is invalid");
    if (p.state !== grant.state) return fail(res, 400, "invalid_request", "state is invalid");
    return tokens(res, p, grant);
  };

  // client_id in the query (VK's SDK) or the form; the token only in the form body.
  const userInfo = (query: Record<string, string>, form: Record<string, string>, res: ServerResponse): Reply => {
    if ((form.client_id ?? query.client_id) !== clientId)
      return fail(res, 400, "invalid_client", "client_id is incorrect");
    const grant = form.access_token ? accessTokens.get(form.access_token) : undefined;
    if (!grant || grant.expires < Date.now()) return fail(res, 401, "invalid_token", "access_token is invalid");
    const granted = grant.scope.split(" ");
    sendJson(res, 200, {
      user: {
        user_id: String(user.user_id),
        first_name: user.first_name,
        last_name: user.last_name,
        avatar: user.avatar,
        ...(granted.includes("email") && user.email !== undefined ? { email: user.email } : {}),
        ...user.extra,
      },
    });
    return { status: 200 };
  };

  const server = await listen(async (req, res) => {
    const { url, query, form } = await readParams(req);
    const entry: VkIdLogEntry = { method: req.method ?? "GET", path: url.pathname, query, form, status: 404 };
    log.push(entry);
    const route = `${entry.method} ${url.pathname}`;
    if (route === "GET /authorize") Object.assign(entry, authorize(query, res));
    else if (route === "POST /oauth2/auth") Object.assign(entry, exchange({ ...query, ...form }, res));
    else if (route === "POST /oauth2/user_info") Object.assign(entry, userInfo(query, form, res));
    else Object.assign(entry, fail(res, 404, "not_found", `${route} does not exist`));
  });
  return { origin: server.origin, log, deviceIds, issued, close: server.close };
}
