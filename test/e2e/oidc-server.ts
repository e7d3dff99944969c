/**
 * A real, certified OpenID Provider (oidc-provider) on loopback, so the
 * generated `oidc` config is checked against discovery, id_token signature
 * and claim validation, PKCE and client authentication as a production IdP
 * does them — none of that is re-implemented here.
 *
 * The only thing replaced is the human: instead of the dev login/consent
 * pages, GET /interaction/:uid signs the fixed account in and grants the
 * requested scopes in one step (oidc-provider's documented
 * interactionDetails → Grant → interactionFinished API).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, { type Configuration } from "oidc-provider";
import { listen } from "./loopback.js";

export interface OidcAccount {
  sub: string;
  email: string;
  name: string;
  picture: string;
}

export interface OidcServerOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  account: OidcAccount;
  /**
   * "id_token": scope claims in the id_token too (Google, Entra ID, Keycloak);
   * "userinfo": only at the userinfo endpoint, as OIDC Core §5.4 says for the
   * code flow (oidc-provider's default, Okta with an access token).
   */
  profileClaimsIn?: "id_token" | "userinfo";
  /** Issuer identifier with a trailing slash ("https://tenant.auth0.com/" style); discovery stays at /.well-known/... */
  issuerTrailingSlash?: boolean;
  /**
   * Refresh tokens (offline_access with prompt=consent), rotated at each use,
   * a reused one revoking the grant; access tokens living `accessTokenTtl`
   * seconds; revocation (RFC 7009) and RP-initiated logout to `postLogoutRedirectUri`.
   */
  tokens?: { accessTokenTtl: number; postLogoutRedirectUri: string };
}

export interface OidcLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  status?: number;
}

export interface OidcServer {
  issuer: string;
  log: OidcLogEntry[];
  /** Interactions completed by the stand-in user: which client asked for which scopes. */
  logins: { clientId: string; scope: string; prompt: string }[];
  /** Successful code exchanges: oidc-provider has already checked code_verifier against the code_challenge. */
  exchanges: { clientId: string; codeVerifier: boolean }[];
  /** Errors oidc-provider reported (invalid_grant, invalid_client...), with its own description. */
  errors: string[];
  /** grant_type of every successful token request, in order ("authorization_code", "refresh_token"). */
  grants: string[];
  /** Grants revoked: by revocation, by a reused refresh token, by sign-out. */
  revokedGrants: string[];
  /** End-session requests that ended the OP's session (RP-initiated logout completed). */
  endedSessions: number;
  close(): Promise<void>;
}

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const log: OidcLogEntry[] = [];
  const logins: OidcServer["logins"] = [];
  const errors: string[] = [];
  const exchanges: OidcServer["exchanges"] = [];
  const grants: string[] = [];
  const revokedGrants: string[] = [];
  let endedSessions = 0;
  const tokens = options.tokens;
  // The issuer must be known before the provider exists, so bind first and plug the handler in after.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = await listen((req, res) => handle(req, res));

  // Fresh keys per run: oidc-provider's built-in dev keys are public and it warns about them.
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "e2e", use: "sig", alg: "RS256" };
  const { account } = options;

  const configuration: Configuration = {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ["code"],
        grant_types: tokens ? ["authorization_code", "refresh_token"] : ["authorization_code"],
        // Auth.js's default client authentication (callback.js: undefined → client_secret_basic).
        token_endpoint_auth_method: "client_secret_basic",
        ...(tokens ? { post_logout_redirect_uris: [tokens.postLogoutRedirectUri] } : {}),
      },
    ],
    // Every use of a refresh token returns a new one; the used one is consumed, and presenting it again
    // revokes the whole grant (oidc-provider's refresh_token grant).
    rotateRefreshToken: true,
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    // true = OIDC Core §5.4 to the letter: with an access token, scope claims only at userinfo.
    conformIdTokenClaims: (options.profileClaimsIn ?? "id_token") === "userinfo",
    // Explicit lifetimes: the defaults print a "you SHOULD change it" notice for each artifact.
    ttl: {
      AccessToken: tokens?.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: Boolean(tokens) },
      rpInitiatedLogout: { enabled: Boolean(tokens) },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) =>
      id === account.sub
        ? {
            accountId: id,
            claims: () => ({
              sub: id,
              email: account.email,
              email_verified: true,
              name: account.name,
              picture: account.picture,
            }),
          }
        : undefined,
    renderError: (ctx, out) => {
      ctx.type = "application/json";
      ctx.body = out;
    },
  };
  const issuer = options.issuerTrailingSlash ? `${server.origin}/` : server.origin;
  const provider = new Provider(issuer, configuration);
  for (const event of ["authorization.error", "grant.error", "userinfo.error", "server_error"] as const) {
    provider.on(event, (...args: unknown[]) => {
      const error = args.find((a): a is Error & { error_description?: string } => a instanceof Error);
      if (error)
        errors.push(`${event}: ${error.message}${error.error_description ? ` (${error.error_description})` : ""}`);
    });
  }
  provider.on("grant.success", (ctx) => void grants.push(String(ctx.oidc.params?.grant_type)));
  provider.on("grant.revoked", (_ctx, grantId: string) => void revokedGrants.push(grantId));
  provider.on("end_session.success", () => void endedSessions++);
  provider.on("grant.success", (ctx) => {
    exchanges.push({
      clientId: String(ctx.oidc.client?.clientId),
      codeVerifier: typeof ctx.oidc.params?.code_verifier === "string",
    });
  });
  const callback = provider.callback();

  const autoLogin = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id);
    const scope = String(details.params.scope ?? "openid");
    logins.push({ clientId, scope, prompt: details.prompt.name });
    // Login and consent together: the account signs in and approves every requested OIDC scope.
    const grant = new provider.Grant({ accountId: account.sub, clientId });
    grant.addOIDCScope(scope);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  handle = (req, res) => {
    const url = new URL(req.url ?? "/", server.origin);
    const entry: OidcLogEntry = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    };
    log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    const fail = (error: unknown) => {
      errors.push(`interaction: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    };
    if (url.pathname.startsWith("/interaction/")) {
      autoLogin(req, res).catch(fail);
      return;
    }
    callback(req, res);
  };

  return {
    issuer,
    log,
    logins,
    exchanges,
    errors,
    grants,
    revokedGrants,
    get endedSessions() {
      return endedSessions;
    },
    close: server.close,
  };
}

/**
 * oidc-provider's storage, per server: a Map. Its built-in in-memory store is
 * the same thing but prints a "you MUST change it" warning on every start.
 */
function memoryAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expires?: number }>();
  const live = (key: string) => {
    const hit = store.get(key);
    if (hit?.expires !== undefined && hit.expires < Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  const find = (predicate: (p: Record<string, unknown>) => boolean) =>
    [...store.keys()].map(live).find((p) => p && predicate(p));
  return class {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), {
        payload: { ...payload },
        expires: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
      });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      return find((p) => p.uid === uid);
    }
    async findByUserCode(userCode: string) {
      return find((p) => p.userCode === userCode);
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, { payload }] of store) if (payload.grantId === grantId) store.delete(key);
    }
  };
}
