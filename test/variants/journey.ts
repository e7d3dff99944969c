/**
 * After every command, the project compiles: a server framework's app
 * (Express, Hono, Fastify, Elysia; a test file each, so they run side by
 * side) in the shapes users give it (test/variants/), `create-auth init
 * --yes`, then `add-provider github`, then an OpenID provider with
 * --refresh-tokens --federated-logout, each followed
 * by the project's own `tsc --noEmit` with its own tsconfig over its
 * installed packages. init must also have mounted Auth.js in the
 * user's own module (an edit of it, no lines left for the user to add), and
 * once the tables are made (`npm run db:migrate`) doctor finds no error.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installedApp } from "../e2e/apps.js";
import { useCleanup } from "../e2e/cleanup.js";
import { startOidcServer } from "../e2e/oidc-server.js";
import { inProcess } from "../helpers.js";
import { compose, type Variant, variantCopy } from "./index.js";
import { javascript, ownModules } from "./javascript.js";
import { appModule, expressServer, factoryThroughAlias, noSrc, serverApps, workspace } from "./server.js";
import { bundlerNoTarget, commented, extendsBase, rootDir } from "./tsconfig.js";
import { typecheckJavaScript, typecheckProject } from "./typecheck.js";

const base: Variant = {
  id: "base",
  title: "the app as the fixture has it",
  apps: serverApps,
  apply: (project) => project,
};

/** Express's app has no server of its own: every variant beyond the base starts from one the user wrote. */
const own = (variant: Variant): Variant => ({
  ...variant,
  apply: (project, app) => {
    const from = app === "express" ? expressServer.apply(project, app) : project;
    return variant.apply(from, app);
  },
});

const variants: Variant[] = [
  base,
  own({ ...expressServer, apps: ["express"], apply: (project) => project }),
  own(appModule),
  own(compose("root-dir", "rootDir src, outDir dist, include src", rootDir)),
  own(compose("app-module-root-dir", "the app in its own module, rootDir src", appModule, rootDir)),
  own(
    compose(
      "factory-alias",
      "createApp() through a paths alias, tsconfig with comments",
      factoryThroughAlias,
      commented,
    ),
  ),
  own(compose("extends", "tsconfig extends a base that sets NodeNext", extendsBase)),
  own(compose("bundler-no-target", "bundler resolution, no target", bundlerNoTarget)),
  own(compose("no-src", "no src/ folder", noSrc)),
  own(workspace("app")),
  own(workspace("root")),
  own(javascript),
];

const edited = /^(?:updated|created) \S*\b(?:server|index|app)\.[cm]?[jt]s$/m;

/**
 * The project compiles: its own tsconfig through its own TypeScript; a JavaScript project (no tsconfig)
 * read by the same compiler as Node runs it, with every module of it JavaScript.
 */
function compiles(dir: string, javascriptProject: boolean): string {
  if (!javascriptProject) return typecheckProject(dir);
  // Still JavaScript: no module in TypeScript, no tsconfig.
  expect(ownModules(dir, /\.[cm]?ts$|^tsconfig\.json$/), "TypeScript in a JavaScript project").toEqual([]);
  return typecheckJavaScript(dir, ownModules(dir, /\.[cm]?js$/));
}

/** Node loads what init generated (all but the scripts that run on import): in a JavaScript project it runs as written. */
async function loads(dir: string, created: string[]) {
  const modules = created.filter((path) => /\.m?js$/.test(path) && !/add-user\.m?js$/.test(path));
  const imports = modules.map((path) => `await import(${JSON.stringify(`./${path}`)});`).join(" ");
  const { execa } = await import("execa");
  const result = await execa("node", ["--input-type=module", "-e", imports], { cwd: dir, reject: false, all: true });
  expect(result.exitCode, result.all).toBe(0);
}

export function serverJourneys(app: (typeof serverApps)[number]) {
  describe(`${app} variants: init, then add-provider, each leaves a project that compiles`, () => {
    const defer = useCleanup();

    it.each(variants.filter((v) => v.apps.includes(app)))(
      "$id: $title",
      async (variant) => {
        const project = variantCopy(app, variant, await installedApp(app), defer);
        const javascriptProject = variant.id === "javascript";
        // The shape itself compiles: what fails later, a command broke.
        if (javascriptProject || existsSync(join(project.app, "tsconfig.json")))
          expect(compiles(project.app, javascriptProject)).toBe("");
        const init = await inProcess(["init", "--yes", "--no-install"], { cwd: project.cwd });
        expect(init.exitCode, init.stderr).toBe(0);
        expect(init.stdout).not.toMatch(/was left alone|No server module was found|in it, add/);
        expect(init.stdout).toMatch(edited);
        expect(compiles(project.app, javascriptProject), init.stdout).toBe("");
        if (javascriptProject)
          await loads(
            project.app,
            [...init.stdout.matchAll(/^created (\S+)$/gm)].map((m) => m[1]!),
          );
        // The tables as the user makes them (npm run db:migrate), then doctor finds nothing wrong: the mount included.
        const migrate = JSON.parse(readFileSync(join(project.app, "package.json"), "utf8")).scripts["db:migrate"];
        const migrated = await inProcess(migrate.replace(/^create-auth /, "").split(" "), { cwd: project.app });
        expect(migrated.exitCode, migrated.stderr).toBe(0);
        const doctor = await inProcess(["doctor", "--json"], { cwd: project.app });
        expect(JSON.parse(doctor.stdout).findings.filter((f: { severity: string }) => f.severity === "error")).toEqual(
          [],
        );
        // From the app's folder, as init's note says when it ran from a workspace's root.
        const provider = await inProcess(["add-provider", "github", "--no-install"], { cwd: project.app });
        expect(provider.exitCode, provider.stderr).toBe(0);
        expect(compiles(project.app, javascriptProject), provider.stdout).toBe("");
        // Rotation and sign-out at the provider, wired into the user's own modules (in a JavaScript project as
        // JavaScript, which Node then loads as written).
        const op = await startOidcServer({
          clientId: "c",
          clientSecret: "s",
          redirectUri: "http://localhost:3000/auth/callback/corp",
          account: { sub: "u-1", email: "a@corp.example", name: "A", picture: "https://corp.example/a.png" },
          tokens: { accessTokenTtl: 60, postLogoutRedirectUri: "http://localhost:3000/" },
        });
        defer(() => op.close());
        const tokens = await inProcess(
          [
            "add-provider",
            "oidc",
            "--id",
            "corp",
            "--issuer",
            op.issuer,
            "--refresh-tokens",
            "--federated-logout",
            "--no-install",
          ],
          { cwd: project.app },
        );
        expect(tokens.exitCode, tokens.stderr).toBe(0);
        expect(tokens.stdout).not.toMatch(/^note: .*(?:not wired|does not send|add to it|by hand)/im);
        const rotation = tokens.stdout.match(/^created (\S*token-rotation\.[jt]s)$/m)?.[1];
        expect(rotation, tokens.stdout).toMatch(javascriptProject ? /\.js$/ : /\.ts$/);
        expect(compiles(project.app, javascriptProject), tokens.stdout).toBe("");
        if (javascriptProject) await loads(project.app, [rotation!]);
      },
      120_000,
    );
  });
}
