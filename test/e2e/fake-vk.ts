/**
 * A fake VK with the quirks that break naive OAuth clients, so a generated
 * provider that passes here would pass against VK's OAuth and API hosts
 * (oauth.vk.ru and api.vk.ru, or the vk.com ones):
 *  - every call needs `v=<api version>`, and this fake only speaks one version;
 *  - /authorize refuses PKCE ("Code challenge method is unsupported");
 *  - /access_token answers without `token_type` and puts `user_id` and
 *    `email` in the token response (email only when the email scope was asked);
 *  - the profile comes from /method/users.get as `{ response: [user] }`, with
 *    a numeric id and only the extra fields that were asked for.
 * Two listeners, one per VK service, so a config that calls the wrong one
 * fails. They answer whatever host name the request was meant for: which
 * real host a provider names is for the test to check, not for this fake.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { basicCredentials, bearerToken, type Loopback, listen, readParams, redirect, sendJson } from "./loopback.js";

export interface VkUser {
  id: number;
  first_name: string;
  last_name: string;
  photo_100: string;
  /** Absent: the user has no email (or grants none), and the token response carries none. */
  email?: string;
  /** More of the users.get answer, as VK's real API shapes it (career as an array...). */
  extra?: Record<string, unknown>;
}

export interface FakeVkOptions {
  clientId: string;
  clientSecret: string;
  /** The only API version this fake accepts. */
  apiVersion: string;
  user: VkUser;
}

export interface VkLogEntry {
  /** Which listener answered: VK's OAuth dialog (oauth.vk.*) or its API (api.vk.*). */
  server: "oauth" | "api";
  method: string;
  path: string;
  /** Query string parameters as sent. */
  query: Record<string, string>;
  /** Form body parameters (POST), secrets included: the tests only read them. */
  form: Record<string, string>;
  /** What the fake answered: an HTTP status, plus the error if it refused. */
  status: number;
  error?: string;
}

export interface FakeVk {
  oauthOrigin: string;
  apiOrigin: string;
  log: VkLogEntry[];
  /** Tokens handed out, so a test can tell a completed exchange from a refused one. */
  issuedTokens: string[];
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  email: boolean;
  expires: number;
}

export async function startFakeVk(options: FakeVkOptions): Promise<FakeVk> {
  const log: VkLogEntry[] = [];
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, { email: boolean; expires: number }>();
  const issuedTokens: string[] = [];

  type Reply = { status: number; error?: string };
  type Handler = (p: Awaited<ReturnType<typeof readParams>>, req: IncomingMessage, res: ServerResponse) => Reply;

  // The version check VK applies to every endpoint: missing → "v is required"-style, other → "version is invalid".
  const versionError = (v: string | undefined) =>
    v === undefined
      ? "v is required"
      : v !== options.apiVersion
        ? `version is invalid (this fake only speaks ${options.apiVersion}, got ${v})`
        : undefined;

  const oauthError = (res: ServerResponse, status: number, error: string, description: string): Reply => {
    sendJson(res, status, { error, error_description: description });
    return { status, error: description };
  };

  const authorize: Handler = ({ query }, _req, res) => {
    const vError = versionError(query.v);
    if (vError) return oauthError(res, 400, "invalid_request", vError);
    if (!query.client_id) return oauthError(res, 401, "invalid_client", "client_id is undefined");
    if (query.client_id !== options.clientId) return oauthError(res, 401, "invalid_client", "client_id is incorrect");
    if (!query.redirect_uri) return oauthError(res, 400, "invalid_request", "redirect_uri is undefined");
    if (query.response_type !== "code")
      return oauthError(
        res,
        400,
        "unsupported_response_type",
        `response_type is ${query.response_type ?? "undefined"}`,
      );
    // VK ID supports PKCE, but the classic OAuth dialog does not: a PKCE config never gets a code.
    if (query.code_challenge !== undefined || query.code_challenge_method !== undefined) {
      return oauthError(res, 400, "invalid_request", "Code challenge method is unsupported");
    }
    const code = randomBytes(12).toString("hex");
    const scopes = (query.scope ?? "").split(/[\s,+]+/);
    codes.set(code, {
      clientId: query.client_id,
      redirectUri: query.redirect_uri,
      email: scopes.includes("email"),
      expires: Date.now() + 60_000,
    });
    const target = new URL(query.redirect_uri);
    target.searchParams.set("code", code);
    if (query.state !== undefined) target.searchParams.set("state", query.state);
    redirect(res, target.href);
    return { status: 302 };
  };

  const accessToken: Handler = ({ query, form }, req, res) => {
    const params = { ...query, ...form };
    const vError = versionError(params.v);
    if (vError) return oauthError(res, 400, "invalid_request", vError);
    // client_secret_post or client_secret_basic: VK takes either.
    const basic = basicCredentials(req.headers.authorization);
    const clientId = basic?.id ?? params.client_id;
    const clientSecret = basic?.secret ?? params.client_secret;
    if (clientId !== options.clientId || clientSecret !== options.clientSecret) {
      return oauthError(res, 401, "invalid_client", "client_id or client_secret is incorrect");
    }
    const pending = params.code ? codes.get(params.code) : undefined;
    if (params.code) codes.delete(params.code); // single use, like any real AS
    if (!pending || pending.expires < Date.now() || pending.clientId !== clientId) {
      return oauthError(res, 401, "invalid_grant", "Code is invalid or expired.");
    }
    if (params.redirect_uri !== pending.redirectUri)
      return oauthError(res, 401, "invalid_grant", "redirect_uri is incorrect");
    const token = randomBytes(16).toString("hex");
    tokens.set(token, { email: pending.email, expires: Date.now() + 86_400_000 });
    issuedTokens.push(token);
    // No token_type: this is the VK response that strict OAuth 2 clients reject.
    sendJson(res, 200, {
      access_token: token,
      expires_in: 86_400,
      user_id: options.user.id,
      ...(pending.email && options.user.email !== undefined ? { email: options.user.email } : {}),
    });
    return { status: 200 };
  };

  // VK API errors come back as HTTP 200 with an `error` object, not as an HTTP error.
  const apiError = (res: ServerResponse, code: number, message: string): Reply => {
    sendJson(res, 200, { error: { error_code: code, error_msg: message, request_params: [] } });
    return { status: 200, error: message };
  };

  const usersGet: Handler = ({ query, form }, req, res) => {
    const params = { ...query, ...form };
    const token = bearerToken(req.headers.authorization) ?? params.access_token;
    const grant = token ? tokens.get(token) : undefined;
    if (!grant || grant.expires < Date.now())
      return apiError(res, 5, "User authorization failed: no access_token passed.");
    const vError = versionError(params.v);
    if (vError) return apiError(res, 8, `Invalid request: ${vError}`);
    const { id, first_name, last_name, photo_100 } = options.user;
    const fields = (params.fields ?? "").split(",").map((f) => f.trim());
    sendJson(res, 200, {
      response: [
        {
          id,
          first_name,
          last_name,
          can_access_closed: true,
          is_closed: false,
          ...(fields.includes("photo_100") ? { photo_100 } : {}),
          ...options.user.extra,
        },
      ],
    });
    return { status: 200 };
  };

  const serve = (server: VkLogEntry["server"], routes: Record<string, { methods: string[]; handler: Handler }>) =>
    listen(async (req, res) => {
      const parsed = await readParams(req);
      const route = routes[parsed.url.pathname];
      const entry: VkLogEntry = {
        server,
        method: req.method ?? "GET",
        path: parsed.url.pathname,
        query: parsed.query,
        form: parsed.form,
        status: 404,
      };
      log.push(entry);
      if (!route?.methods.includes(entry.method)) {
        sendJson(res, 404, {
          error: "not_found",
          error_description: `${entry.method} ${entry.path} does not exist on VK's ${server} server`,
        });
        return;
      }
      Object.assign(entry, route.handler(parsed, req, res));
    });

  const servers: Loopback[] = [];
  try {
    servers.push(
      await serve("oauth", {
        "/authorize": { methods: ["GET"], handler: authorize },
        "/access_token": { methods: ["GET", "POST"], handler: accessToken },
      }),
    );
    servers.push(await serve("api", { "/method/users.get": { methods: ["GET", "POST"], handler: usersGet } }));
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  return {
    oauthOrigin: servers[0]!.origin,
    apiOrigin: servers[1]!.origin,
    log,
    issuedTokens,
    close: async () => void (await Promise.all(servers.map((s) => s.close()))),
  };
}
