/**
 * Qwik City as its users have it (fixtures/apps/qwik, the Node server
 * adapter): init writes src/routes/plugin@auth.ts (@auth/qwik's QwikAuth$,
 * the auth config imported on the server only) and protects /dashboard/;
 * the client and server builds pass with the database driver and mailer
 * kept out of the browser's bundle; node server/entry.node-server serves it,
 * and Chromium signs in by password and by email link. With
 * --refresh-tokens --federated-logout and an OpenID provider on loopback, the
 * plugin's onRequest hands @auth/qwik the sign-out page's POST /auth/signout
 * rewritten, so it reaches the provider's end_session endpoint. After init's install, `npm ls`
 * finds no @auth/core below 0.41.3, though @auth/qwik pins 0.41.1.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { isAffected } from "../../src/catalog/advisories.js";
import { compareVersions } from "../../src/lib/semver.js";
import { root } from "../helpers.js";
import { appRuntime, useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

/** The browser's build (dist/): none of the server-only modules, nor the config that imports them. */
function expectClientBuildServerFree(dir: string) {
  const files = readdirSync(join(dir, "dist"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".js"))
    .map((e) => join(e.parentPath, e.name));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files)
    expect(readFileSync(file, "utf8"), file).not.toMatch(/better-sqlite3|nodemailer|verifyUserPassword|createAdapter/);
}

type LsTree = { version?: string; problems?: string[]; dependencies?: Record<string, LsTree> };

/**
 * The installed tree after init's own install, as `npm ls` reads it: @auth/qwik 0.9.1 depends on
 * @auth/core "0.41.1" exactly, and init's override moves that copy too, so no @auth/core in the
 * tree is below 0.41.3, the copy under @auth/qwik included. create-auth itself is this checkout
 * here (a file: link, its devDependencies beside it); the published package depends on no Auth.js
 * package, so its subtree is left out.
 */
function expectInstalledCoreFixed(dir: string) {
  const ls = spawnSync("npm", ["ls", "@auth/core", "--all", "--json"], {
    cwd: dir,
    env: appRuntime("qwik").env(),
    encoding: "utf8",
  });
  const tree = JSON.parse(ls.stdout) as LsTree;
  const checkout = realpathSync(join(root, "node_modules"));
  expect(tree.problems?.filter((p) => !p.includes(checkout)) ?? [], ls.stdout).toEqual([]);
  const found: { path: string; version: string }[] = [];
  const walk = (at: LsTree, path: string) => {
    for (const [name, child] of Object.entries(at.dependencies ?? {})) {
      if (name === "create-auth" && !path) continue;
      if (name === "@auth/core" && child.version) found.push({ path: `${path}${name}`, version: child.version });
      walk(child, `${path}${name} > `);
    }
  };
  walk(tree, "");
  expect(found.map((c) => c.path)).toEqual(expect.arrayContaining(["@auth/core", "@auth/qwik > @auth/core"]));
  for (const { path, version } of found) {
    expect(compareVersions(version, "0.41.3"), `${path}@${version}`).toBeGreaterThanOrEqual(0);
    expect(isAffected("@auth/core", version), `${path}@${version}`).toBe(false);
  }
}

describe("Qwik City", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect --refresh-tokens --federated-logout, vite builds, tsc, the Node server, then sign-in, the protected page, sign-out, federated sign-out and two-factor sign-in in Chromium", async () => {
    const timings = await signInFlow(
      {
        app: "qwik",
        basePath: "/auth",
        afterInit: expectInstalledCoreFixed,
        afterBuild: expectClientBuildServerFree,
        typecheckScript: "build.types",
        federatedSignOut: true,
      },
      { ...tools, defer },
    );
    console.log(`[qwik] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
