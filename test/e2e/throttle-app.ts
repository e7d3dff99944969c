/**
 * A project `create-auth init` generated with password and email sign-in,
 * loaded as its app loads it (auth.ts and what it imports, through tsx, in
 * one module graph), with Auth() mounted the way every framework's wiring
 * mounts it: each request handed over through the generated
 * withClientAddress() with the address of the client it came from. Used by
 * sign-in-throttle.db.test.ts and by the app processes it starts
 * (throttle-worker.ts). The database is the one the env names
 * (AUTH_DATABASE_PATH or DATABASE_URL), as in the app.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Auth, type AuthConfig } from "@auth/core";
import { tsImport } from "tsx/esm/api";

export const APP_ORIGIN = "http://localhost:3000";
export const BASE_PATH = "/api/auth";
const SESSION_COOKIE = "authjs.session-token";

interface Limit {
  max: number;
  windowMs: number;
}

/** What the test reads of the generated modules. */
export interface GeneratedModules {
  authConfig: AuthConfig;
  withClientAddress(request: Request, address: string | undefined): Request;
  setUserPassword(email: string, password: string): Promise<unknown>;
  passwordLimits: Record<"perAccountAndClient" | "perClient" | "perAccount", Limit>;
  emailLimits: Record<"perAccount" | "perClient", Limit>;
  countersOf(attempt: {
    kind: string;
    account: string;
    request: Request | undefined;
    limits: object;
  }): Promise<{ key: string }[]>;
  openDb(
    connection?: string,
    options?: { create?: boolean },
  ): {
    query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
    exec(script: string): Promise<void>;
    close(): Promise<void>;
  };
}

export interface ThrottleApp {
  modules: GeneratedModules;
  /** Auth.js's errors and warnings, as its logger gives them. */
  logged: string[];
  /** One request from `client` (an address; undefined: the route passed none). */
  handle(request: Request, client: string | undefined): Promise<Response>;
}

export async function loadThrottleApp(dir: string): Promise<ThrottleApp> {
  // One entry, so auth.ts, the throttle and the modules the test calls share one graph (one adapter, one pool).
  const entry = join(dir, "throttle-entry.ts");
  if (!existsSync(entry))
    writeFileSync(
      entry,
      [
        'export { authConfig } from "./auth";',
        'export { withClientAddress } from "./auth/client-address";',
        'export { setUserPassword } from "./auth/passwords";',
        'export { countersOf, emailLimits, passwordLimits } from "./auth/throttle";',
        'export { openDb } from "./auth/db";',
        "",
      ].join("\n"),
    );
  const modules = (await tsImport(pathToFileURL(entry).href, import.meta.url)) as GeneratedModules;
  const logged: string[] = [];
  const config: AuthConfig = {
    ...modules.authConfig,
    // What a framework's package adds: where Auth() is mounted, and that the Host header is trusted.
    basePath: BASE_PATH,
    trustHost: true,
    logger: {
      error: (error) => void logged.push(`${error.name}: ${error.message}`),
      warn: (code) => void logged.push(code),
      debug: () => {},
    },
  };
  return {
    modules,
    logged,
    handle: (request, client) => Auth(modules.withClientAddress(request, client), config),
  };
}

/** The csrf cookie and token a browser gets before it posts a form. */
async function csrf(app: ThrottleApp, client: string | undefined): Promise<{ cookie: string; token: string }> {
  const response = await app.handle(new Request(`${APP_ORIGIN}${BASE_PATH}/csrf`), client);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  return { cookie, token: ((await response.json()) as { csrfToken: string }).csrfToken };
}

export interface Answer {
  status: number;
  location: string | null;
  /** The cookies it set, by name (values differ from answer to answer). */
  cookieNames: string[];
  body: string;
  signedIn: boolean;
  /** Wall time and CPU time (this process, every thread: scrypt runs in libuv's pool) of the POST alone. */
  ms: number;
  cpuMs: number;
}

async function post(app: ThrottleApp, client: string | undefined, path: string, form: Record<string, string>) {
  const { cookie, token } = await csrf(app, client);
  const request = new Request(`${APP_ORIGIN}${BASE_PATH}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ ...form, csrfToken: token, callbackUrl: `${APP_ORIGIN}/dashboard` }),
    redirect: "manual",
  });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const response = await app.handle(request, client);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const setCookies = response.headers.getSetCookie();
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookieNames: setCookies.map((c) => c.split("=")[0]!).sort(),
    body: await response.text(),
    signedIn: setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`)),
    ms,
    cpuMs: (used.user + used.system) / 1000,
  } satisfies Answer;
}

/** A password sign-in through the credentials provider's callback, as the sign-in page posts it. */
export const passwordSignIn = (app: ThrottleApp, client: string | undefined, email: string, password: string) =>
  post(app, client, "/callback/credentials", { email, password });

/** A request for a sign-in email, as the sign-in page posts it. */
export const emailSignIn = (app: ThrottleApp, client: string | undefined, email: string) =>
  post(app, client, "/signin/email", { email });

/** The location an answer redirects to, without what differs by request (the csrf-free part is all there is). */
export const errorOf = (answer: Answer) =>
  answer.location ? new URL(answer.location, APP_ORIGIN).searchParams.get("error") : null;
