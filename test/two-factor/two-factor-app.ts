/**
 * An app as init writes it with --providers credentials --two-factor totp,
 * on a generated backend: the storage's adapter, passwords and two-factor
 * store on their own tables, the credentials provider, the two-factor
 * modules and pages, and the auth config from init's own template — each
 * module transpiled and imported natively, so the test's Auth() is the one
 * they use. A browser is a cookie jar; requests go through the real Auth()
 * and the real handleTwoFactor().
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Auth } from "@auth/core";
import { vi } from "vitest";
import {
  type AnyParsedProvider,
  generateSnippet,
  parseResolved,
  resolveProviderName,
} from "../../src/families/index.js";
import { throttleFile } from "../../src/families/throttle.js";
import { twoFactorFiles } from "../../src/families/two-factor.js";
import { clientAddressFile } from "../../src/frameworks/client-address.js";
import { plainConfig } from "../../src/frameworks/framework.js";
import { generateConfig } from "../../src/planners/auth-config.js";
import type { GeneratedBackend } from "../e2e/generated-adapter.js";
import { writeModule } from "../e2e/provider-module.js";
import { planStorage } from "../support/storage.js";
import { moduleFolder } from "./generated.js";

export const origin = "http://localhost:3000";

/** Cookies of one browser, sent with each request and updated from each response. */
export class Browser {
  readonly cookies = new Map<string, string>();

  /** The address the browser connects from. */
  constructor(readonly address = "203.0.113.7") {}

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

export interface TwoFactorApp {
  dir: string;
  /** A request to Auth.js (under /auth) or to the two-factor pages (under /two-factor), from `browser`. */
  fetch(browser: Browser, path: string, init?: { method?: string; form?: Record<string, string> }): Promise<Response>;
  module<T>(path: string): Promise<T>;
}

/** The connection the generated modules read from the environment, per backend. */
export interface Connection {
  env: Record<string, string>;
  /** The same database for the schema script. */
  open: string;
}

export async function twoFactorApp(
  backend: GeneratedBackend,
  connection: Connection | undefined,
): Promise<TwoFactorApp> {
  const dir = moduleFolder("create-auth-two-factor-app-");
  const ext = ".js";
  const storagePart = await planStorage(backend, { importExtension: ext, passwords: true, twoFactor: true });
  const provider = parseResolved(resolveProviderName("credentials"), { twoFactor: "totp" }) as AnyParsedProvider;
  const snippet = await generateSnippet(provider, {
    authPackage: "@auth/core",
    basePath: "/auth",
    importExtension: ext,
    passwordsModule: storagePart.passwordsPath ? "../auth/passwords" : undefined,
    throttleModule: "../auth/throttle",
    twoFactorModule: "../auth/two-factor",
    modulesDir: ".",
  });
  const config = await generateConfig({
    configPath: "auth.ts",
    providers: [snippet],
    adapterPath: storagePart.adapterPath,
    session: "jwt",
    storage: backend,
    importExtension: ext,
    verifyCommand: "npm run verify-adapter",
    shape: plainConfig({ options: ['basePath: "/auth",', "trustHost: true,"] }),
    twoFactorPath: "auth/two-factor.ts",
  });
  const files = [
    ...storagePart.files,
    ...config,
    ...(await twoFactorFiles({
      authDir: "auth",
      ext,
      configPath: "auth.ts",
      basePath: "/auth",
      providerId: "credentials",
      framework: "the test",
      throttle: true,
    })),
    await throttleFile("auth", ext),
    await clientAddressFile("auth"),
  ];
  for (const file of files) {
    if (file.path.endsWith(".ts")) writeModule(dir, file.path, file.contents);
    else writeFileSync(join(dir, file.path), file.contents);
  }
  for (const [name, value] of Object.entries({
    ...connection?.env,
    AUTH_SECRET: "a test secret of the two-factor app",
  }))
    vi.stubEnv(name, value);
  const module = <T>(path: string) => import(pathToFileURL(join(dir, path)).href) as Promise<T>;
  if (connection && backend !== "memory") {
    const { openDb } = await module<{
      openDb(c: string, o?: { create?: boolean }): { exec(s: string): Promise<void>; close(): Promise<void> };
    }>("auth/db.js");
    const db = openDb(connection.open, { create: true });
    await db.exec(readFileSync(join(dir, `auth/schema.${backend}.sql`), "utf8"));
    await db.close();
  }
  const { authConfig } = await module<{ authConfig: Parameters<typeof Auth>[1] }>("auth.js");
  const { handleTwoFactor } = await module<{ handleTwoFactor(r: Request): Promise<Response> }>(
    "auth/two-factor-pages.js",
  );
  const { withClientAddress } = await module<{ withClientAddress(r: Request, address: string): Request }>(
    "auth/client-address.js",
  );
  return {
    dir,
    module,
    async fetch(browser, path, init = {}) {
      const headers = new Headers({ cookie: browser.header() });
      let body: string | undefined;
      if (init.form) {
        headers.set("content-type", "application/x-www-form-urlencoded");
        body = new URLSearchParams(init.form).toString();
      }
      // As a framework's route hands it over: with the connection's address, which the throttle counts by.
      const request = withClientAddress(
        new Request(new URL(path, origin), { method: init.method ?? (body ? "POST" : "GET"), headers, body }),
        browser.address,
      );
      const response = path.startsWith("/two-factor")
        ? await handleTwoFactor(request)
        : await Auth(request, authConfig);
      return browser.keep(response);
    },
  };
}
