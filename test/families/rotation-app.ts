/**
 * An app as init writes it with --refresh-tokens, for the token-rotation
 * tests: the generated provider module given, the config init writes beside
 * the in-memory adapter and token-rotation.ts, each compiled and imported as
 * an app would, served by the real Auth() (or what `handler` makes of it) to
 * a cookie-keeping Browser. The clock is the process's, faked for Date only
 * and still running, so a test moves it past an expiry instead of waiting.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { Auth, type AuthConfig, setEnvDefaults } from "@auth/core";
import type { Adapter } from "@auth/core/adapters";
import { expect, vi } from "vitest";
import { plainConfig } from "../../src/frameworks/framework.js";
import { none } from "../../src/frameworks/none.js";
import { generateConfig } from "../../src/planners/auth-config.js";
import { planTokenWiring } from "../../src/planners/token-wiring.js";
import { renderTemplate } from "../../src/render/templates.js";
import { changesOfParts } from "../../src/workspace/parts-to-changes.js";
import { AFTER_SIGN_IN, APP_ORIGIN, BASE_PATH, SESSION_COOKIE } from "../e2e/auth-harness.js";
import { Browser } from "../e2e/browser.js";
import { generated, type LoadedProvider, withEnv, writeModule } from "../e2e/provider-module.js";

export type Handler = (request: Request) => Promise<Response>;

/** What the generated config exports with token rotation. */
export interface RotationConfig {
  authConfig: AuthConfig;
  signOutUrl(userId: string): Promise<string | null>;
  getAccessToken(userId: string, provider: string): Promise<string | null>;
}

interface RotationAppOptions {
  defer: (fn: () => unknown) => void;
  /** The provider module to generate: generated()'s arguments. */
  provider: Parameters<typeof generated>;
  /** The env the app runs with (set for the test, then put back), set before any generated module loads. */
  env: Record<string, string>;
  strategy: "jwt" | "database";
  /** The provider's id and the user's id there: the stored account's key. */
  account: { provider: string; providerAccountId: string };
  postLogoutRedirectUri?: string;
  /** The app's auth route around Auth() as it comes (a wrapper, or a framework's own handler). */
  handler?: (auth: Handler, loaded: LoadedProvider) => Handler | Promise<Handler>;
  /** Rewrites the browser's requests to real hosts onto the fakes. */
  rewrite?: (url: URL) => URL;
  /** More to show when a sign-in does not land on the app (the provider's errors). */
  diagnostics?: () => string;
  /**
   * "add-provider": the config is the one init writes without token flags, and the rotation is wired into it
   * as `add-provider --refresh-tokens --federated-logout` wires it (planTokenWiring, no framework).
   */
  wiredBy?: "init" | "add-provider";
}

/** Puts Date on a clock the test can move on; it keeps running between moves. */
function useMovableClock(defer: (fn: () => unknown) => void): void {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  defer(() => vi.useRealTimers());
}

export async function rotationApp(options: RotationAppOptions) {
  const { defer, env, account } = options;
  useMovableClock(defer);
  defer(withEnv(env));
  const loaded = await generated(...options.provider);
  defer(loaded.cleanup);
  const byAddProvider = options.wiredBy === "add-provider";
  const files = await generateConfig({
    configPath: "app-auth.ts",
    providers: [byAddProvider ? { ...loaded.snippet, tokens: undefined } : loaded.snippet],
    adapterPath: "auth/adapter.ts",
    session: options.strategy,
    storage: "memory",
    importExtension: ".js",
    verifyCommand: "npm run verify-adapter",
    shape: plainConfig({ options: [`basePath: ${JSON.stringify(BASE_PATH)},`] }),
    ...(options.postLogoutRedirectUri ? { postLogoutRedirectUri: options.postLogoutRedirectUri } : {}),
  });
  writeModule(loaded.dir, "auth/adapter.ts", await renderTemplate("adapters/memory.ts.hbs", {}));
  for (const file of files.filter((f) => !f.path.startsWith("providers/")))
    writeModule(loaded.dir, file.path, file.contents);
  if (byAddProvider) await wireAsAddProvider(loaded);
  const generatedConfig = await loaded.module<RotationConfig>("app-auth.ts");
  const adapter: Adapter = generatedConfig.authConfig.adapter!;
  const errors: string[] = [];
  const config: AuthConfig = {
    ...generatedConfig.authConfig,
    trustHost: true,
    basePath: BASE_PATH,
    logger: { error: (e) => void errors.push(String(e)), warn: () => {}, debug: () => {} },
  };
  setEnvDefaults(env, config);
  const auth: Handler = (request) => Auth(request, config);
  const handle = options.handler ? await options.handler(auth, loaded) : auth;
  const browser = new Browser({ origin: APP_ORIGIN, handle }, options.rewrite);

  const stored = async () => (await adapter.getAccount!(account.providerAccountId, account.provider))!;
  const userId = async () => (await adapter.getUserByAccount!(account))!.id;

  /** Auth.js's sign-in at the provider, as its sign-in page's form posts it, until the browser is back on the app. */
  async function signIn(fields: Record<string, string> = { callbackUrl: AFTER_SIGN_IN }) {
    const csrf = (await (await browser.request(`${APP_ORIGIN}${BASE_PATH}/csrf`)).json()) as { csrfToken: string };
    const startUrl = `${APP_ORIGIN}${BASE_PATH}/signin/${account.provider}`;
    const start = await browser.request(startUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields }),
    });
    const leftAuth = (next: URL) => next.origin === APP_ORIGIN && !next.pathname.startsWith(BASE_PATH);
    const landed = await browser.follow(start, startUrl, leftAuth);
    const why = `${browser.trace()}\n${errors.join("\n")}\n${options.diagnostics?.() ?? ""}`;
    if (fields.callbackUrl) expect(landed.url.href, why).toBe(fields.callbackUrl);
    else expect(landed.url.origin, why).toBe(APP_ORIGIN);
    return landed;
  }

  /** GET /session as a page would, keeping (or, `dropCookies`, dropping) what it sets. */
  async function readSession({ dropCookies = false } = {}) {
    const url = `${APP_ORIGIN}${BASE_PATH}/session`;
    type Read = { error?: string; user?: { email?: string } };
    if (!dropCookies) return (await (await browser.request(url)).json()) as Read;
    const cookie = Object.entries(browser.cookies(APP_ORIGIN))
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
    // A server component's read: the response's Set-Cookie never reaches the browser.
    return (await (await handle(new Request(url, { headers: { cookie } }))).json()) as Read;
  }

  /** The session cookie the browser holds, if any. */
  const sessionCookie = () => browser.cookies(APP_ORIGIN)[SESSION_COOKIE];

  /** The generated token-rotation module imported again, as a second server process would have it. */
  async function secondProcess() {
    const url = pathToFileURL(`${loaded.dir}/auth/token-rotation.js`).href;
    const { createTokenRotation } = await import(`${url}?second-process`);
    return createTokenRotation({ adapter, refresh: [config.providers[0]] }) as {
      getAccessToken(userId: string, provider: string): Promise<string | null>;
    };
  }

  return {
    loaded,
    adapter,
    config,
    generatedConfig,
    browser,
    handle,
    errors,
    stored,
    userId,
    signIn,
    readSession,
    sessionCookie,
    secondProcess,
  };
}

/** What add-provider does to init's config for a provider given --refresh-tokens --federated-logout. */
async function wireAsAddProvider(loaded: LoadedProvider) {
  // The app's imports end in .js (NodeNext), as the config's do.
  writeFileSync(join(loaded.dir, "tsconfig.json"), '{ "compilerOptions": { "module": "nodenext" } }\n');
  const configPath = join(loaded.dir, "app-auth.ts");
  const wiring = await planTokenWiring({
    root: loaded.dir,
    configPath,
    configText: readFileSync(configPath, "utf8"),
    modulesDir: loaded.dir,
    snippet: { ...loaded.snippet, tokens: loaded.snippet.tokens! },
    framework: none,
  });
  expect(wiring.notes).toEqual([]);
  const { changes } = changesOfParts(loaded.dir, [wiring.part], { force: false });
  for (const change of changes) writeModule(loaded.dir, relative(loaded.dir, change.path), change.after);
  writeModule(loaded.dir, "app-auth.ts", wiring.configText);
}
