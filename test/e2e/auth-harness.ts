/**
 * Runs a provider through the real `Auth()` handler of @auth/core the way an
 * app and a browser would: csrf → POST signin → provider's authorization page
 * → callback → session cookie, with the in-memory adapter recording what the
 * sign-in stored. Nothing of Auth.js is mocked; only the network is re-routed.
 */
import { Auth, type AuthConfig, setEnvDefaults } from "@auth/core";
import type { Adapter, AdapterAccount, AdapterUser } from "@auth/core/adapters";
import type { Provider } from "@auth/core/providers";
import { createMemoryAdapter } from "../../fixtures/adapters/memory.js";
import { Browser } from "./browser.js";

/** The app is never on a socket: requests to this origin go straight into Auth(). */
export const APP_ORIGIN = "http://localhost:3000";
export const BASE_PATH = "/api/auth";
export const AFTER_SIGN_IN = `${APP_ORIGIN}/dashboard`;
export const SESSION_COOKIE = "authjs.session-token";
export const callbackUrlFor = (id: string) => `${APP_ORIGIN}${BASE_PATH}/callback/${id}`;

export function recordingAdapter(base: Adapter = createMemoryAdapter()) {
  const calls = { createUser: [] as AdapterUser[], linkAccount: [] as AdapterAccount[] };
  const adapter: Adapter = {
    ...base,
    createUser: (user) => {
      calls.createUser.push(structuredClone(user));
      return base.createUser!(user);
    },
    linkAccount: (account) => {
      calls.linkAccount.push(structuredClone(account));
      return base.linkAccount!(account);
    },
  };
  return { adapter, calls };
}

/**
 * The generated config names real hosts (https://oauth.vk.ru...). Auth.js and
 * oauth4webapi call the global `fetch` at call time (callback.js:
 * `(provider[customFetch] ?? fetch)(...args)`, oauth4webapi:
 * `(options?.[customFetch] || fetch)(url.href, ...)`), so swapping it for the
 * duration of a test routes their server-side calls to the fakes without
 * touching the provider object. Anything not in `routes` still goes out as is,
 * except hosts under a domain of `refuse`: those fail at once, in the browser
 * and on the server, so a config that names the wrong host fails without
 * reaching the network. `requested` keeps the real host and path of every
 * server-side request that was routed.
 */
export function routeFetch(
  routes: Record<string, string>,
  { refuse = [] }: { refuse?: readonly string[] } = {},
): { restore(): void; rewrite(url: URL): URL; requested: string[] } {
  const original = globalThis.fetch;
  const requested: string[] = [];
  const refused = (host: string) => refuse.some((domain) => host === domain || host.endsWith(`.${domain}`));
  const rewrite = (url: URL) => {
    const target = routes[url.origin];
    if (!target) {
      if (refused(url.hostname)) throw new Error(`left for ${url.host}, which this test does not serve`);
      return url;
    }
    return new URL(url.pathname + url.search + url.hash, target);
  };
  const routed: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const target = rewrite(url);
    if (target !== url) requested.push(`${url.host}${url.pathname}`);
    if (input instanceof Request) return original(target === url ? input : new Request(target, input), init);
    return original(target.href, init);
  };
  globalThis.fetch = routed;
  return {
    restore: () => {
      globalThis.fetch = original;
    },
    rewrite,
    requested,
  };
}

/**
 * For tests that repoint a provider's endpoints: every server-side request
 * through the global fetch for a host under one of `domains` (the real
 * provider) is refused and kept in `leaked`; `recording` is a customFetch that
 * notes the path of each request it sends.
 */
export function blockRealHosts(...domains: string[]): {
  leaked: string[];
  sent: string[];
  recording: typeof fetch;
  restore(): void;
} {
  const original = globalThis.fetch;
  const leaked: string[] = [];
  const sent: string[] = [];
  const urlOf = (input: RequestInfo | URL) => new URL(input instanceof Request ? input.url : input);
  globalThis.fetch = (input, init) => {
    const url = urlOf(input);
    if (domains.some((domain) => url.hostname === domain || url.hostname.endsWith(`.${domain}`))) {
      leaked.push(url.href);
      return Promise.reject(new Error(`left for ${url.host}`));
    }
    return original(input, init);
  };
  const recording: typeof fetch = (input, init) => {
    sent.push(urlOf(input).pathname);
    return original(input, init);
  };
  return {
    leaked,
    sent,
    recording,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

export interface SignInOptions {
  provider: Provider;
  providerId: string;
  /** The config's whole providers list, when it holds more than the one signed in with. */
  providers?: Provider[];
  /** The variables the generated module reads (AUTH_VK_ID...), given to Auth.js as a framework would (setEnvDefaults). */
  env?: Record<string, string>;
  strategy?: "jwt" | "database";
  /** Browser-side re-routing of real provider hosts to the fakes. */
  rewrite?: (url: URL) => URL;
  /** The adapter behind the recording one (default: a fresh in-memory adapter). */
  adapter?: Adapter;
  /** Wraps the app's request handler, as an app wraps its auth route (VK ID's withVkIdCallback). */
  wrap?: (handler: (request: Request) => Promise<Response>) => (request: Request) => Promise<Response>;
}

export interface SignInResult {
  /** The provider's authorization URL exactly as Auth.js built it (real hostnames). */
  authorizationUrl: URL;
  /** The callback request that reached Auth(), if the provider ever redirected back. */
  callback?: URL;
  /** Where Auth() sent the browser after the callback. */
  finalLocation?: string;
  /** The final non-redirect page when the flow stopped short (e.g. the provider's error JSON). */
  stoppedAt?: { url: string; status: number; body: string };
  sessionCookie?: string;
  adapter: ReturnType<typeof recordingAdapter>["calls"];
  /** The adapter itself, to look the session up (database strategy). */
  store: Adapter;
  /** What Auth.js logged as errors: the reason a sign-in failed. */
  errors: string[];
  trace: string;
}

export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const { adapter, calls } = recordingAdapter(options.adapter);
  const errors: string[] = [];
  const config: AuthConfig = {
    providers: options.providers ?? [options.provider],
    adapter,
    secret: "e2e-secret-that-is-long-enough-for-jose-0123456789",
    trustHost: true,
    basePath: BASE_PATH,
    session: { strategy: options.strategy ?? "database" },
    logger: {
      error: (error) => void errors.push(describe(error)),
      warn: () => {},
      debug: () => {},
    },
  };
  // What @auth/nextjs & co. do before calling Auth(): fill clientId/secret/issuer from AUTH_<ID>_*.
  setEnvDefaults(options.env ?? {}, config);

  const handle = (request: Request) => Auth(request, config);
  const browser = new Browser(
    { origin: APP_ORIGIN, handle: options.wrap ? options.wrap(handle) : handle },
    options.rewrite,
  );
  const csrf = (await (await browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as { csrfToken: string };
  const signin = await browser.request(`${APP_ORIGIN}${BASE_PATH}/signin/${options.providerId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: AFTER_SIGN_IN }),
  });
  const location = signin.headers.get("location");
  if (signin.status !== 302 || !location) {
    throw new Error(`signin did not redirect (${signin.status}): ${await signin.text()}\nerrors: ${errors.join("\n")}`);
  }
  const result: SignInResult = {
    authorizationUrl: new URL(location),
    adapter: calls,
    store: adapter,
    errors,
    trace: "",
  };

  // Walk the provider's pages until the browser is sent back into the app, through the callback, to a page.
  const callbackPrefix = `${APP_ORIGIN}${BASE_PATH}/callback/`;
  const leftAuth = (next: URL) => next.origin === APP_ORIGIN && !next.pathname.startsWith(BASE_PATH);
  const { response, url } = await browser.follow(
    signin,
    `${APP_ORIGIN}${BASE_PATH}/signin/${options.providerId}`,
    leftAuth,
  );
  const callbackHop = browser.hops.find((h) => h.url.startsWith(callbackPrefix));
  if (callbackHop) {
    result.callback = new URL(callbackHop.url);
    result.finalLocation = callbackHop.location;
  }
  if (!leftAuth(url)) result.stoppedAt = { url: url.href, status: response.status, body: await response.text() };
  else await response.body?.cancel();
  result.sessionCookie = browser.cookies(APP_ORIGIN)[SESSION_COOKIE];
  result.trace = browser.trace();
  return result;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : (cause as { err?: unknown } | undefined)?.err;
  return `${error.name}: ${error.message}${inner instanceof Error ? ` (cause: ${inner.name}: ${inner.message})` : ""}`;
}

/** A one-line story of a failed sign-in, for assertion messages. */
export function explain(result: SignInResult): string {
  return [
    `trace:\n${result.trace}`,
    `auth.js errors: ${result.errors.join(" | ") || "none"}`,
    result.stoppedAt
      ? `stopped at ${result.stoppedAt.url} (${result.stoppedAt.status}): ${result.stoppedAt.body.slice(0, 300)}`
      : "",
  ].join("\n");
}
