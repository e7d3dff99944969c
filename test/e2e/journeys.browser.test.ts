/**
 * Journeys, end to end: the commands a user runs one after another on one
 * project, each step leaving a project that type-checks with its own
 * tsconfig (its own TypeScript, its installed packages), then the app
 * built and started as in production and, in Chromium, a sign-in at a real
 * OpenID Provider on loopback (oidc-server.ts), the access token refreshed
 * when it expires, and a sign-out that reaches the provider's end_session
 * endpoint (federated-signout.ts). Nothing is written by hand beyond what the
 * commands ask for: the client id and secret in the env file, the tables.
 *
 * Per framework (the table below): init --yes → add-provider oidc --id corp
 * --issuer … → the same again with --refresh-tokens --federated-logout (the
 * user turning rotation on for the provider added before) → doctor finds no
 * error → build → sign in → token refreshed → signed out at the provider
 * (Next.js with database sessions, the others with init's JWT ones), on the
 * shapes users give their apps where test/variants/ has one: SvelteKit with
 * its own hooks, Express with its own server, its app in a module of its own.
 * Nitro and Astro (on Node 24, as appRuntime runs it) are the file-routed ones.
 * A next-auth v4 app: add-provider (v4's provider) → doctor → upgrade (its
 * real install of next-auth 5) → add-provider → build → sign in, by
 * password and at the provider added while on v4.
 *
 * Needs the built CLI (dist/), /usr/bin/chromium and the npm registry the
 * first time (apps cached in .cache/e2e-apps/).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, test } from "vitest";
import { root } from "../helpers.js";
import { hooksVariants, ownHeader } from "../variants/hooks.js";
import { compose } from "../variants/index.js";
import { appModule, expressServer } from "../variants/server.js";
import { typecheckProject } from "../variants/typecheck.js";
import {
  type AppName,
  appRuntime,
  buildApp,
  buildNext,
  freePort,
  freshApp,
  sessionOf,
  signInWithPassword,
  startNext,
  startServer,
  useBrowserAndMail,
} from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { corpClient, expectFederatedSignOut, signOutOnAuthPage, startCorp } from "./federated-signout.js";
import { startOidcServer } from "./oidc-server.js";
import { freshV4App } from "./upgrade-apps.js";

const bin = join(root, "bin/create-auth.js");
const tools = useBrowserAndMail();

/** A SvelteKit app's own handle setting a header, with handleError beside it. */
const ownHooks = hooksVariants.find((v) => v.app === "sveltekit")!;

/** Access tokens live 12 s; the generated rotation refreshes 10 s before expiry, so 2 s after they are issued. */
const ACCESS_TTL = 12;
const REFRESH_AFTER_MS = (ACCESS_TTL - 10) * 1000 + 500;

interface Journey {
  app: AppName;
  /** Where Auth.js answers in this framework. */
  basePath: string;
  /** The shape users give the app before any command (test/variants/): their own hooks, their own server. */
  shape?: { title: string; apply: (dir: string) => void; check?: (origin: string) => Promise<void> };
  /** What init is given beyond --yes: the session strategy users pick besides the default. */
  init?: string[];
  /** How the app is built (an npm script) and started in production (a command), with the variables its server asks for. */
  production: { build?: string; start: string[]; env?: (origin: string) => Record<string, string> };
  /** What the framework generates before its tsconfig is complete (SvelteKit's .svelte-kit/tsconfig.json). */
  beforeTypecheck?: string[];
}

const journeys: Journey[] = [
  {
    app: "next",
    basePath: "/api/auth",
    // Sessions in the database: the rotation reads the stored user's accounts, not a token's subject.
    init: ["--session", "database", "--providers", "github"],
    production: { build: "build", start: ["npm", "start"] },
  },
  {
    app: "sveltekit",
    basePath: "/auth",
    shape: {
      title: "its own src/hooks.server.ts",
      apply: (dir) => ownHooks.apply(dir),
      // Their handle still runs on every page, after Auth.js's.
      check: async (origin) => expect((await fetch(origin)).headers.get(ownHeader.name)).toBe(ownHeader.value),
    },
    // adapter-node's server, as its docs start it: ORIGIN set, PORT read.
    production: { build: "build", start: ["node", "build"], env: (origin) => ({ ORIGIN: origin }) },
    beforeTypecheck: ["node_modules/@sveltejs/kit/svelte-kit.js", "sync"],
  },
  {
    app: "express",
    basePath: "/auth",
    shape: {
      title: "its own server, the app in a module of its own, built by tsc",
      apply: (dir) => void compose("", "", expressServer, appModule).apply({ cwd: dir, app: dir }, "express"),
    },
    // The user's scripts: tsc into dist/, node dist/server.js.
    production: { build: "build", start: ["npm", "start"] },
  },
  {
    app: "nitro",
    basePath: "/api/auth",
    production: { build: "build", start: ["npm", "start"] },
    beforeTypecheck: ["node_modules/nitro/dist/cli/index.mjs", "prepare"],
  },
  // On the Node its framework needs (24: appRuntime), create-auth run by it too.
  {
    app: "astro",
    basePath: "/api/auth",
    production: { build: "build", start: ["npm", "start"] },
    beforeTypecheck: ["node_modules/astro/bin/astro.mjs", "sync"],
  },
];

/** create-auth as the user runs it: the built CLI on the app's Node, the app's folder as the working directory. */
async function run(app: AppName, dir: string, args: string[]) {
  const runtime = appRuntime(app);
  const result = await execa(runtime.node, [bin, ...args], {
    cwd: dir,
    env: runtime.env(),
    extendEnv: false,
    reject: false,
    all: true,
  });
  expect(result.exitCode, `${args.join(" ")}\n${result.all}`).toBe(0);
  expect(result.stderr, args.join(" ")).toBe("");
  return result.stdout;
}

/** The project's own `tsc --noEmit`, after what the framework generates for it (beforeTypecheck). */
async function expectCompiles(app: AppName, dir: string, step: string, before?: string[]) {
  if (before) {
    const prepared = await execa(appRuntime(app).node, before, {
      cwd: dir,
      env: appRuntime(app).env(),
      extendEnv: false,
      reject: false,
      all: true,
    });
    expect(prepared.exitCode, prepared.all).toBe(0);
  }
  expect(typecheckProject(dir), `after ${step}`).toBe("");
}

/**
 * What the commands asked for: the client id and secret of provider `id` (AUTH_<ID>_ID, AUTH_<ID>_SECRET)
 * filled in where they were left empty, the post-logout URI of this origin.
 */
function fillInClient(dir: string, id: string, origin: string) {
  const files = readdirSync(dir).filter((f) => /^\.env(\.local)?$/.test(f));
  const name = `AUTH_${id.toUpperCase()}`;
  let filled = false;
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    const after = text
      .replace(new RegExp(`^#? ?${name}_ID=.*$`, "m"), `${name}_ID=${corpClient.clientId}`)
      .replace(new RegExp(`^#? ?${name}_SECRET=.*$`, "m"), `${name}_SECRET=${corpClient.clientSecret}`)
      .replace(/^AUTH_POST_LOGOUT_REDIRECT_URI=.*$/m, `AUTH_POST_LOGOUT_REDIRECT_URI=${origin}/`);
    filled ||= after.includes(`${name}_SECRET=${corpClient.clientSecret}`);
    writeFileSync(join(dir, file), after);
  }
  expect(filled, `no env file of ${files.join(", ")} asks for ${name}_SECRET`).toBe(true);
}

async function doctorErrors(app: AppName, dir: string) {
  const result = await execa(appRuntime(app).node, [bin, "doctor", "--json"], {
    cwd: dir,
    env: appRuntime(app).env(),
    extendEnv: false,
    reject: false,
  });
  const report = JSON.parse(result.stdout) as { findings: { id: string; severity: string; message: string }[] };
  return report.findings.filter((f) => f.severity === "error");
}

describe("journeys: every command leaves a project that compiles, and the app signs in at the end", () => {
  const defer = useCleanup();

  test.each(
    journeys.map((journey) => ({ ...journey, label: [journey.app, journey.shape?.title].filter(Boolean).join(", ") })),
  )(
    "$label: init, add-provider oidc, the same with token flags, doctor, build, sign in, refresh, sign out at the provider",
    async ({ app, basePath, shape, init = [], production, beforeTypecheck }) => {
      const timings: Record<string, number> = {};
      let mark = performance.now();
      const stage = (name: string) => {
        timings[name] = Math.round((performance.now() - mark) / 100) / 10;
        mark = performance.now();
      };
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const op = await startCorp(origin, basePath, defer, ACCESS_TTL);
      const dir = await freshApp(app, defer);
      shape?.apply(dir);
      if (beforeTypecheck || readdirSync(dir).includes("tsconfig.json"))
        await expectCompiles(app, dir, "nothing (the app as it comes)", beforeTypecheck);

      const outputs: string[] = [];
      const corp = ["add-provider", "oidc", "--id", "corp", "--issuer", op.issuer];
      for (const step of [["init", "--yes", ...init], corp, [...corp, "--refresh-tokens", "--federated-logout"]]) {
        outputs.push(await run(app, dir, step));
        await expectCompiles(app, dir, step.join(" "), beforeTypecheck);
      }
      // Nothing left to wire by hand.
      expect(outputs.at(-1)).not.toMatch(/^note: .*(?:not wired|does not send|add to it|by hand)/im);
      for (const id of ["corp", ...(init.includes("github") ? ["github"] : [])]) fillInClient(dir, id, origin);
      // The tables, where a command said to make them.
      if (outputs.some((out) => out.includes("db:migrate"))) {
        const migrated = await execa("npm", ["run", "--silent", "db:migrate"], {
          cwd: dir,
          env: appRuntime(app).env(),
          extendEnv: false,
          reject: false,
          all: true,
        });
        expect(migrated.exitCode, migrated.all).toBe(0);
      }
      expect(await doctorErrors(app, dir)).toEqual([]);
      stage("commands");

      if (production.build) {
        const built = await buildApp(app, dir, { build: production.build, start: "", dashboard: "/" });
        expect(built.exitCode, built.all).toBe(0);
      }
      stage("build");
      const server = await startServer(production.start, {
        cwd: dir,
        port,
        env: appRuntime(app).env({ NODE_ENV: "production", ...production.env?.(origin) }),
      });
      defer(() => server.stop());
      stage("start");

      const context = await tools.browser.newContext();
      defer(() => context.close());
      const auth = `${origin}${basePath}`;
      await expectFederatedSignOut(await context.newPage(), {
        origin,
        basePath,
        op,
        output: server.output,
        whileSignedIn: async (page) => {
          // Signed in by the code; on a slow machine the sign-in's own pages may already have been due a refresh.
          expect(op.grants[0]).toBe("authorization_code");
          const refreshes = op.grants.length - 1;
          // The access token expires; reading the session refreshes it at the provider.
          await new Promise((resolve) => setTimeout(resolve, REFRESH_AFTER_MS));
          const session = (await sessionOf(page, auth)) as { error?: string; user?: { email?: string } } | null;
          expect(session?.error, server.output()).toBeUndefined();
          expect(op.grants.length, server.output()).toBeGreaterThan(refreshes + 1);
          expect(new Set(op.grants.slice(1)), server.output()).toEqual(new Set(["refresh_token"]));
          // A refresh token used twice (two requests refreshing at once) is an error at the provider.
          expect(op.errors).toEqual([]);
        },
        signOut: (page) => signOutOnAuthPage(page, auth),
      });
      await shape?.check?.(origin);
      stage("browser");
      expect(server.output().replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/\[auth\]\[error\]/);
      console.log(`[journey ${app}] ${JSON.stringify(timings)} s`);
    },
    600_000,
  );

  test("a next-auth v4 app: add-provider, doctor, upgrade, add-provider, build, sign in by password and at the provider added on v4", async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const op = await startOidcServer({
      ...corpClient,
      redirectUri: `${origin}/api/auth/callback/keycloak`,
      account: { sub: "u-7", email: "kim@corp.example", name: "Kim", picture: "https://corp.example/k.png" },
    });
    defer(() => op.close());
    const dir = await freshV4App("pages-github-credentials", defer);
    const envFile = join(dir, ".env.local");
    writeFileSync(envFile, readFileSync(envFile, "utf8").replace("http://localhost:3000", origin));
    await expectCompiles("next", dir, "nothing (the v4 app as it comes)");

    const steps = [
      // An OpenID provider next-auth v4 ships, with the issuer of the user's realm.
      ["add-provider", "keycloak", "--issuer", op.issuer],
      // The app's own .env.local is readable by all (mode 644): the one error doctor finds, which --fix mends.
      ["doctor", "--fix"],
      ["upgrade"],
      ["add-provider", "google"],
    ];
    for (const step of steps) {
      await run("next", dir, step);
      await expectCompiles("next", dir, step.join(" "));
      if (step[0] === "add-provider") fillInClient(dir, step[1]!, origin);
      if (step[0] === "doctor") expect(await doctorErrors("next", dir)).toEqual([]);
    }
    expect(await doctorErrors("next", dir)).toEqual([]);

    const built = await buildNext(dir);
    expect(built.exitCode, built.all).toBe(0);
    const server = await startNext(dir, {}, defer, port);
    const auth = `${origin}/api/auth`;
    const context = await tools.browser.newContext();
    defer(() => context.close());
    const page = await context.newPage();
    // The user's own Credentials sign-in, kept through the upgrade.
    await signInWithPassword(page, auth, { email: "alice@example.com", password: "correct horse battery" });
    expect((await sessionOf(page, auth))?.user?.email, server.output()).toBe("alice@example.com");
    // The provider added while the app was on v4 signs in on v5.
    const atCorp = await (await tools.browser.newContext()).newPage();
    defer(() => atCorp.context().close());
    await atCorp.goto(`${auth}/signin`);
    await atCorp.locator('form[action$="/api/auth/signin/keycloak"] button').click();
    await atCorp.waitForURL((url) => url.origin === origin && !url.pathname.startsWith("/api/auth"));
    expect((await sessionOf(atCorp, auth))?.user?.email, server.output()).toBe("kim@corp.example");
    expect(server.output().replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/\[auth\]\[error\]/);
  }, 600_000);
});
