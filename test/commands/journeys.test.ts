/**
 * The commands a user runs one after another, on the hand-written starter
 * apps of fixtures/apps/ and on a next-auth v4 app, in process as CI runs
 * them: init, add-provider, add-provider of an OpenID provider that needs an
 * issuer with --refresh-tokens --federated-logout, doctor. Each framework's
 * sign-out ends up going on to the provider the way init's own
 * --federated-logout wiring sends it (journeys.typecheck.test.ts compiles
 * such a journey after every step).
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { startOidcServer } from "../e2e/oidc-server.js";
import { fixture, inProcess, root, snapshot, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

/** A starter app, in a folder whose parent holds the packages (the SQLite driver migrate uses). */
function app(name: string): string {
  const parent = tempDir(`create-auth-journey-${name}-`);
  symlinkSync(join(root, "node_modules"), join(parent, "node_modules"), "dir");
  const dir = join(parent, "app");
  mkdirSync(dir);
  cpSync(fixture("apps", name), dir, { recursive: true });
  return dir;
}

/** What the commands asked of the user: the client ids filled in, and the tables created where init made a schema. */
async function doAsAsked(dir: string, { tables = true } = {}) {
  const env = read(dir, ".env.local").replace(/^# (AUTH_\w+_(?:ID|SECRET))=$/gm, "$1=set");
  writeFileSync(join(dir, ".env.local"), env, { mode: 0o600 });
  if (tables) expect((await inProcess(["migrate"], { cwd: dir })).exitCode).toBe(0);
}

async function doctorErrors(dir: string) {
  const doctor = await inProcess(["doctor", "--json"], { cwd: dir });
  const report = JSON.parse(doctor.stdout) as { findings: { id: string; severity: string; message: string }[] };
  return report.findings.filter((f) => f.severity === "error");
}

/** Where each framework's sign-out is sent on to the provider, as init's --federated-logout wires it. */
const signOutWiring: [app: string, file: string, wiring: RegExp][] = [
  ["next", "auth.ts", /nextAuth\.handlers\.POST\(new NextRequest\(await signOutRequest\(request,/],
  ["sveltekit", "src/lib/server/auth.ts", /const request = await signOutRequest\(event\.request, \(\) => userIdOf/],
  ["express", "auth/express.ts", /authRoutes\.post\("\/auth\/signout", express\.urlencoded/],
  ["hono", "src/auth/session.ts", /await signOutRequest\(request, async \(\) =>/],
  ["astro", "src/auth/session.ts", /await signOutRequest\(request, async \(\) =>/],
  ["qwik", "src/routes/plugin@auth.ts", /const request = await federatedSignOutRequest\(event\.request\);/],
];

describe("journeys: init, add-provider, add-provider with token flags, doctor", () => {
  const defer = useCleanup();

  it.each(signOutWiring)(
    "%s: the second add-provider wires rotation and sign-out at the provider, and doctor finds no error",
    async (name, file, wiring) => {
      const server = await startOidcServer({
        clientId: "c",
        clientSecret: "s",
        redirectUri: "http://localhost:3000/api/auth/callback/keycloak",
        account: { sub: "u-1", email: "a@corp.example", name: "A", picture: "https://corp.example/a.png" },
        tokens: { accessTokenTtl: 60, postLogoutRedirectUri: "http://localhost:3000/" },
      });
      defer(() => server.close());
      const dir = app(name);
      const step = async (...args: string[]) => {
        const result = await inProcess([...args, "--no-install"], { cwd: dir });
        expect(result.stderr, args.join(" ")).toBe("");
        expect(result.exitCode, args.join(" ")).toBe(0);
        return result;
      };
      await step("init", "--yes");
      const before = read(dir, file);
      const github = await step("add-provider", "github");
      expect(github.stdout).not.toMatch(/token/i);
      const keycloak = await step(
        "add-provider",
        "keycloak",
        "--issuer",
        server.issuer,
        "--refresh-tokens",
        "--federated-logout",
      );
      // Nothing left for the user to wire by hand.
      expect(keycloak.stdout).not.toMatch(/^note: .*(?:not wired|does not send|add to it|sign-out that reaches)/m);
      expect(before).not.toMatch(wiring);
      expect(read(dir, file)).toMatch(wiring);
      const config = Object.entries(snapshot(dir)).find(
        ([path, text]) => !path.includes("node_modules") && text.includes("createTokenRotation({"),
      );
      expect(config?.[1]).toMatch(/refresh: \[keycloak\],\n {2}federatedSignOut: \[keycloak\],/);
      await doAsAsked(dir);
      expect(await doctorErrors(dir)).toEqual([]);
    },
    60_000,
  );

  it("a next-auth v4 app: add-provider adds v4's provider and nothing else, doctor finds no error once --fix ran", async () => {
    const dir = tempDir("create-auth-journey-v4-");
    copyInput("pages-github-credentials", dir);
    const before = snapshot(dir);
    const added = await inProcess(["add-provider", "google", "--no-install"], { cwd: dir });
    expect(added.stderr).toBe("");
    expect(added.exitCode).toBe(0);
    const after = snapshot(dir);
    const changed = Object.keys(after).filter((path) => before[path] !== after[path]);
    expect(changed.sort()).toEqual([
      ".env.example",
      ".env.local",
      "lib/auth/providers/google.ts",
      "pages/api/auth/[...nextauth].ts",
    ]);
    for (const path of changed) expect(after[path], path).not.toMatch(/@auth\/core|createTokenRotation/);
    await doAsAsked(dir, { tables: false });
    expect((await inProcess(["doctor", "--fix"], { cwd: dir })).exitCode).toBe(0);
    expect(await doctorErrors(dir)).toEqual([]);
  });
});
