/**
 * What add-provider writes into the env files, as the app then runs: the
 * project's files loaded the way its framework loads them and handed to
 * Auth.js's setEnvDefaults (as @auth/nextjs, @auth/sveltekit and
 * @auth/express do), its config imported with the modules add-provider
 * wrote, and users signed in through the real Auth() against servers on
 * loopback. The issuer given with --issuer is in .env.local with that
 * value, and nothing Auth.js would read as an empty value is left there.
 */
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AuthConfig } from "@auth/core";
import { describe, expect, test } from "vitest";
import { parseEnv } from "../../src/render/env-file.js";
import { readProjectEnv } from "../../src/workspace/read-env.js";
import { inProcess, root, tempDir } from "../helpers.js";
import { AFTER_SIGN_IN, APP_ORIGIN, BASE_PATH, callbackUrlFor, explain, signIn } from "./auth-harness.js";
import { FLOW_TIMEOUT, useCleanup } from "./cleanup.js";
import { startFakeGitHub } from "./fake-github.js";
import { startOidcServer } from "./oidc-server.js";
import { withEnv, writeModule } from "./provider-module.js";

const github = { clientId: "gh-client", clientSecret: "gh-secret" };
const keycloak = { clientId: "kc-client", clientSecret: "kc-secret" };

/** An app with an Auth.js config of its own and no provider yet; NodeNext, so imports end in .js as Node needs. */
function project(): string {
  const dir = tempDir("create-auth-env-sign-in-");
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  writeFileSync(
    join(dir, "tsconfig.json"),
    '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true } }\n',
  );
  writeFileSync(
    join(dir, "auth.ts"),
    'import { Auth, type AuthConfig, setEnvDefaults } from "@auth/core";\n\nexport const authConfig: AuthConfig = {\n  providers: [],\n};\n',
  );
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The env files as the app loads them (Next.js's order, development): name -> value. */
function appEnv(dir: string): Record<string, string> {
  const env = readProjectEnv(dir, { order: "next", mode: "development" });
  const names = new Set(env.files.flatMap((f) => f.entries.map((e) => e.name)));
  return Object.fromEntries([...names].map((name) => [name, env.get(name)!.value]));
}

/** The project's TypeScript compiled beside it, as a build would, and its config imported. */
async function importConfig(dir: string): Promise<AuthConfig> {
  const walk = (folder: string): string[] =>
    readdirSync(join(dir, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(path);
      return path.endsWith(".ts") ? [path] : [];
    });
  for (const path of walk("")) writeModule(dir, path, readFileSync(join(dir, path), "utf8"));
  const module = (await import(pathToFileURL(join(dir, "auth.js")).href)) as { authConfig: AuthConfig };
  return module.authConfig;
}

/** The user fills in a variable add-provider left to them: its commented line uncommented with a value. */
function fillIn(dir: string, name: string, value: string): void {
  const path = join(dir, ".env.local");
  const text = readFileSync(path, "utf8");
  expect(text).toMatch(new RegExp(`^# ${name}=$`, "m"));
  writeFileSync(path, text.replace(new RegExp(`^# ${name}=$`, "m"), `${name}=${value}`));
}

describe("add-provider keycloak --issuer, then sign-ins through Auth() with setEnvDefaults", () => {
  const defer = useCleanup();

  test(
    "GitHub signs in beside a Keycloak not yet filled in; Keycloak too once it is, with the issuer from .env.local",
    async () => {
      const dir = project();
      const gh = await startFakeGitHub({
        ...github,
        redirectUri: callbackUrlFor("github"),
        user: { id: 583231, login: "octocat", name: "The Octocat" },
        emails: [{ email: "octocat@example.com", primary: true, verified: true }],
      });
      defer(() => gh.close());
      const op = await startOidcServer({
        ...keycloak,
        redirectUri: callbackUrlFor("keycloak"),
        account: { sub: "kc-1", email: "ada@example.com", name: "Ada", picture: "https://example.com/a.png" },
      });
      defer(() => op.close());

      const addGitHub = await inProcess(["add-provider", "github", "--enterprise-url", gh.origin, "--no-install"], {
        cwd: dir,
      });
      expect(addGitHub.exitCode, addGitHub.stderr).toBe(0);
      const addKeycloak = await inProcess(["add-provider", "keycloak", "--issuer", op.issuer, "--no-install"], {
        cwd: dir,
      });
      expect(addKeycloak.exitCode, addKeycloak.stderr).toBe(0);
      expect(addKeycloak.stdout).toContain(
        "Fill in AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET in .env.local (uncomment their lines).",
      );

      // The issuer given is in .env.local as given; no AUTH_<ID>_* name is assigned the empty string.
      const local = readFileSync(join(dir, ".env.local"), "utf8");
      const entries = parseEnv(local);
      expect(entries.find((e) => e.name === "AUTH_KEYCLOAK_ISSUER")?.value).toBe(op.issuer);
      expect(entries.filter((e) => /^AUTH_.+_(?:ID|SECRET|ISSUER|KEY)$/.test(e.name) && e.value === "")).toEqual([]);

      // The user has GitHub's credentials so far, not Keycloak's.
      fillIn(dir, "AUTH_GITHUB_ID", github.clientId);
      fillIn(dir, "AUTH_GITHUB_SECRET", github.clientSecret);
      const env = appEnv(dir);
      defer(withEnv(env));
      const config = await importConfig(dir);
      expect(config.providers).toHaveLength(2);
      const signedIn = await signIn({
        provider: config.providers[0]!,
        providers: config.providers,
        providerId: "github",
        env,
      });
      expect(signedIn.finalLocation, explain(signedIn)).toBe(AFTER_SIGN_IN);
      expect(signedIn.errors).toEqual([]);
      expect(signedIn.adapter.createUser[0]).toMatchObject({ email: "octocat@example.com" });

      // Keycloak's credentials arrive: the same config now signs in there too, discovering from the issuer.
      fillIn(dir, "AUTH_KEYCLOAK_ID", keycloak.clientId);
      fillIn(dir, "AUTH_KEYCLOAK_SECRET", keycloak.clientSecret);
      const filled = appEnv(dir);
      defer(withEnv(filled));
      const viaKeycloak = await signIn({
        provider: config.providers[1]!,
        providers: config.providers,
        providerId: "keycloak",
        env: filled,
      });
      expect(viaKeycloak.finalLocation, `${explain(viaKeycloak)}\nOP: ${op.errors.join(" | ")}`).toBe(AFTER_SIGN_IN);
      expect(op.exchanges).toEqual([{ clientId: keycloak.clientId, codeVerifier: true }]);
    },
    FLOW_TIMEOUT * 2,
  );

  test("why: an empty AUTH_KEYCLOAK_ISSUER= makes every request fail, GitHub's included, where Keycloak is listed as Auth.js's docs list it", async () => {
    /**
     * The status of GET /csrf, which every sign-in starts with, after setEnvDefaults over `env`, and what Auth.js
     * logged as an error. In a Node process of its own: @auth/core's config check remembers in module state that
     * some config it checked had an email provider and never forgets it, so after another test file's email
     * sign-in in this worker, a config with none would fail with MissingAdapter (the same holds for an app that
     * builds two configs in one process).
     */
    const csrf = async (env: Record<string, string>) => {
      const script = `
        import { Auth, setEnvDefaults } from "@auth/core";
        import GitHub from "@auth/core/providers/github";
        import Keycloak from "@auth/core/providers/keycloak";
        const errors = [];
        const config = {
          providers: [GitHub, Keycloak],
          secret: "a-secret-long-enough-for-the-test-0123456789",
          basePath: ${JSON.stringify(BASE_PATH)},
          trustHost: true,
          logger: { error: (e) => errors.push(e.name + ": " + e.message), warn() {}, debug() {} },
        };
        setEnvDefaults(JSON.parse(process.env.CSRF_ENV), config);
        const { status } = await Auth(new Request(${JSON.stringify(`${APP_ORIGIN}${BASE_PATH}/csrf`)}), config);
        console.log(JSON.stringify({ status, errors: errors.join(" | ") }));
      `;
      const { execa } = await import("execa");
      const run = await execa("node", ["--input-type=module", "-e", script], {
        cwd: root,
        env: { CSRF_ENV: JSON.stringify(env) },
        reject: false,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { status: number; errors: string };
    };
    const filled = { AUTH_GITHUB_ID: github.clientId, AUTH_GITHUB_SECRET: github.clientSecret };
    const issuer = "https://sso.example.com/realms/app";
    const set = await csrf({ ...filled, AUTH_KEYCLOAK_ISSUER: issuer });
    expect(set.status, set.errors).toBe(200);
    // What `AUTH_KEYCLOAK_ISSUER=` in .env.local gives the app: "" is a value to Auth.js, and it replaces the issuer.
    const empty = await csrf({ ...filled, AUTH_KEYCLOAK_ISSUER: "" });
    expect(empty.status).toBe(500);
    expect(empty.errors).toMatch(/issuer|endpoint/i);
  });
});
