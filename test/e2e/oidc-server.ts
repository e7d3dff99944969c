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
import { listen, readBody } from "./loopback.js";
import { memoryAdapter } from "./oidc-storage.js";

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
  tokens?: {
    accessTokenTtl: number;
    postLogoutRedirectUri: string;
    /**
     * "omit": a refresh answers without a refresh token and the one presented stays valid, as Google and
     * Entra ID do; by default each refresh hands out a new one.
     */
    refreshAnswer?: "rotate" | "omit";
    /** false: no RP-initiated logout, so discovery names no end_session_endpoint (Google, GitHub...). */
    endSession?: boolean;
  };
}

/**
 * How an endpoint misbehaves, set per path while the server runs: "unavailable" answers 503 with
 * temporarily_unavailable (RFC 6749 §5.2's one retryable error), "busy" 429 with Retry-After: 30 (a rate
 * limit), "hang" takes the request and never answers until the fault is lifted or the server closes.
 */
export type EndpointFault = "unavailable" | "busy" | "hang";

/** A request that reached the token endpoint: its grant_type, and the status it got ("held": it hung). */
export interface TokenRequest {
  grant: string;
  status: number | "held";
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
  /** Every request to the token endpoint, refused and faulted ones included, in order. */
  tokenRequests: TokenRequest[];
  /**
   * Makes the endpoint at `path` ("/token", "/token/revocation", "/.well-known/openid-configuration")
   * misbehave; undefined lifts the fault (and answers the requests a "hang" held).
   */
  setFault(path: string, fault: EndpointFault | undefined): void;
  /**
   * Ends every grant the provider holds, as an administrator ending a user's sessions does: each refresh token
   * handed out so far is refused from now on (invalid_grant); a new sign-in gets a new grant.
   */
  endGrants(): Promise<void>;
  /** Signs with a new key from now on; the old one leaves the JWKS. Answers the new key's id (kid). */
  rotateSigningKey(): string;
  close(): Promise<void>;
}

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const log: OidcLogEntry[] = [];
  const logins: OidcServer["logins"] = [];
  const errors: string[] = [];
  const exchanges: OidcServer["exchanges"] = [];
  const grants: string[] = [];
  const revokedGrants: string[] = [];
  const tokenRequests: TokenRequest[] = [];
  const faults = new Map<string, EndpointFault>();
  /** Requests a "hang" fault holds: answered (503) when the fault is lifted or the server closes. */
  const held = new Set<() => void>();
  let endedSessions = 0;
  const tokens = options.tokens;
  const endSession = Boolean(tokens) && tokens?.endSession !== false;
  // The issuer must be known before the provider exists, so bind first and plug the handler in after.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = await listen((req, res) => handle(req, res));

  const { account } = options;
  const storage = memoryAdapter();
  // Cookies stay readable across a key rotation: only the signing key changes.
  const cookieKeys = [randomBytes(32).toString("hex")];

  const configuration = (jwk: Record<string, unknown>): Configuration => ({
    adapter: storage.Adapter,
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        response_types: ["code"],
        grant_types: tokens ? ["authorization_code", "refresh_token"] : ["authorization_code"],
        // Auth.js's default client authentication (callback.js: undefined → client_secret_basic).
        token_endpoint_auth_method: "client_secret_basic",
        ...(endSession ? { post_logout_redirect_uris: [tokens!.postLogoutRedirectUri] } : {}),
      },
    ],
    // Every use of a refresh token returns a new one; the used one is consumed, and presenting it again
    // revokes the whole grant (oidc-provider's refresh_token grant). "omit": the same one stays valid.
    rotateRefreshToken: tokens?.refreshAnswer !== "omit",
    jwks: { keys: [jwk as never] },
    cookies: { keys: cookieKeys },
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
      rpInitiatedLogout: { enabled: endSession },
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
  });

  /** The faults in front of oidc-provider's own endpoints, and the record of every token request. */
  const faulty: Parameters<Provider["use"]>[0] = async (ctx, next) => {
    const fault = faults.get(ctx.path);
    const isToken = ctx.method === "POST" && ctx.path === "/token";
    if (!fault) {
      await next();
      if (!isToken) return;
      const grant = String(ctx.oidc?.params?.grant_type);
      tokenRequests.push({ grant, status: ctx.status });
      // A provider that does not rotate answers a refresh without a refresh token (oidc-provider would repeat it).
      const answer = ctx.body as Record<string, unknown> | undefined;
      if (tokens?.refreshAnswer === "omit" && grant === "refresh_token" && answer) delete answer.refresh_token;
      return;
    }
    const grant = isToken ? (new URLSearchParams(await readBody(ctx.req)).get("grant_type") ?? "") : "";
    const request: TokenRequest = { grant, status: "held" };
    if (isToken) tokenRequests.push(request);
    if (fault === "busy") {
      ctx.status = 429;
      ctx.set("retry-after", "30");
      ctx.body = { error: "slow_down", error_description: "too many requests" };
      request.status = 429;
      return;
    }
    if (fault === "hang") await new Promise<void>((release) => held.add(release));
    ctx.status = 503;
    ctx.body = { error: "temporarily_unavailable", error_description: "the server is down for maintenance" };
    if (isToken && fault === "unavailable") request.status = 503;
  };

  const issuer = options.issuerTrailingSlash ? `${server.origin}/` : server.origin;
  /** An oidc-provider on the shared storage, signing with `kid`'s fresh key; its events feed the records. */
  function build(kid: string) {
    // Fresh keys per run: oidc-provider's built-in dev keys are public and it warns about them.
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: "jwk" }), kid, use: "sig", alg: "RS256" };
    const provider = new Provider(issuer, configuration(jwk));
    provider.use(faulty);
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
    return { provider, callback: provider.callback() };
  }
  let keys = 0;
  let current = build(`e2e-${++keys}`);

  const autoLogin = async (req: IncomingMessage, res: ServerResponse) => {
    const { provider } = current;
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
    current.callback(req, res);
  };

  const releaseHeld = () => {
    for (const release of held) release();
    held.clear();
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
    tokenRequests,
    setFault(path, fault) {
      if (fault) faults.set(path, fault);
      else faults.delete(path);
      if (![...faults.values()].includes("hang")) releaseHeld();
    },
    endGrants: storage.endGrants,
    rotateSigningKey() {
      const kid = `e2e-${++keys}`;
      current = build(kid);
      return kid;
    },
    close: () => {
      releaseHeld();
      return server.close();
    },
  };
}
