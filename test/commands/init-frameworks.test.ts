/**
 * init's framework detection and wiring, file by file, without installing:
 * the fresh apps of fixtures/apps and variations of their layout (src/, the
 * tsconfig "@/" alias, Next.js 15, a server or hooks file of the user's own).
 * The browser tests prove the same files build and sign in.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture, inProcess, tempDir } from "../helpers.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function app(
  name: "next" | "next-pages" | "sveltekit" | "express" | "fastify" | "elysia" | "react-router-7" | "react-router-8",
) {
  const dir = tempDir(`create-auth-${name}-`);
  made.push(dir);
  cpSync(fixture("apps", name), dir, { recursive: true });
  return dir;
}
const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const init = (dir: string, ...args: string[]) => inProcess(["init", "--yes", "--no-install", "--dir", dir, ...args]);

describe("init wires the detected framework", () => {
  it("Next.js: auth.ts with NextAuth's exports, the route handler through @/, AUTH_TRUST_HOST, !.env.example", async () => {
    const dir = app("next");
    const result = await init(dir);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const config = read(dir, "auth.ts");
    expect(config).toContain('import NextAuth, { type NextAuthConfig } from "next-auth";');
    expect(config).toContain("export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);");
    expect(config).toContain("const id = user?.id ?? token?.sub;");
    expect(read(dir, "app/api/auth/[...nextauth]/route.ts")).toContain('import { handlers } from "@/auth";');
    expect(read(dir, ".env.local")).toMatch(/^AUTH_TRUST_HOST=true$/m);
    expect(read(dir, ".gitignore")).toMatch(/^\.env\*$[\s\S]*^!\.env\.example$/m);
    expect(JSON.parse(read(dir, "package.json")).dependencies["next-auth"]).toMatch(/^5\.0\.0-beta\.\d+$/);
    expect(existsSync(join(dir, "proxy.ts"))).toBe(false);
    expect(result.stdout).toContain("sign in at http://localhost:3000/api/auth/signin");
    expect(result.stdout).not.toContain("127.0.0.1");
  });

  it("Next.js in src/ without the alias: src/auth.ts, a relative import; Next.js 15 --protect writes middleware.ts on Node.js", async () => {
    const dir = app("next");
    mkdirSync(join(dir, "src"));
    cpSync(join(dir, "app"), join(dir, "src/app"), { recursive: true });
    writeFileSync(
      join(dir, "tsconfig.json"),
      read(dir, "tsconfig.json").replace(/"paths": \{[^}]*\}/, '"noEmit": true'),
    );
    const pkg = JSON.parse(read(dir, "package.json"));
    pkg.dependencies.next = "15.5.4";
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
    rmSync(join(dir, "app"), { recursive: true });
    const result = await init(dir, "--protect", "/dashboard/:path*,/settings");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/app/api/auth/[...nextauth]/route.ts")).toContain('from "../../../../auth";');
    const middleware = read(dir, "src/middleware.ts");
    expect(middleware).toContain('matcher: ["/dashboard/:path*", "/settings"],');
    expect(middleware).toContain('runtime: "nodejs",');
    expect(result.stdout).toContain(
      "src/middleware.ts sends visitors who are not signed in to the sign-in page on: /dashboard/:path*, /settings",
    );
  });

  it("Next.js 16 --protect writes proxy.ts through the alias", async () => {
    const dir = app("next");
    const result = await init(dir, "--protect", "/dashboard/:path*");
    expect(result.exitCode, result.stderr).toBe(0);
    const proxy = read(dir, "proxy.ts");
    expect(proxy).toContain('import { auth } from "@/auth";');
    expect(proxy).not.toContain("runtime");
  });

  it("SvelteKit: the auth module, providers and adapter under src/lib/server, hooks, trustHost", async () => {
    const dir = app("sveltekit");
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    const config = read(dir, "src/lib/server/auth.ts");
    expect(config).toContain('import "./auth/env";');
    expect(config).toContain("export const { signIn, signOut } = svelteKitAuth;");
    // Auth.js's requests get the connection's address, the sign-in throttle's client.
    expect(config).toContain("svelteKitAuth.handle({ event: withAddress(event), resolve })");
    expect(config).toContain("withClientAddress(event.request, event.getClientAddress())");
    expect(config).toContain('import { withClientAddress } from "./auth/client-address";');
    expect(config).toContain("trustHost: true,");
    expect(config).toContain('from "./providers/credentials";');
    expect(config).toContain('from "./auth/adapter";');
    expect(read(dir, "src/hooks.server.ts")).toContain('export { handle } from "$lib/server/auth";');
    expect(read(dir, "src/lib/server/providers/credentials.ts")).toContain('from "../auth/passwords";');
    const scripts = JSON.parse(read(dir, "package.json")).scripts;
    expect(scripts["auth:add-user"]).toBe("tsx src/lib/server/auth/add-user.ts");
    expect(scripts["db:migrate"]).toBe("create-auth migrate src/lib/server/auth/schema.sqlite.sql");
    // Scripts (auth:add-user, verify-adapter) load the env files in Vite's order, as the app does.
    expect(read(dir, "src/lib/server/auth/load-env.ts")).toContain(
      'const files = [`.env.${mode}.local`, `.env.${mode}`, ".env.local", ".env"];',
    );
    expect(existsSync(join(dir, "auth"))).toBe(false);
    expect(result.stdout).toContain("http://localhost:5173/auth/signin");
  });

  it("SvelteKit with a hooks file of its own: Auth.js's handle composed with theirs through sequence()", async () => {
    const dir = app("sveltekit");
    writeFileSync(
      join(dir, "src/hooks.server.ts"),
      "export const handle = async ({ event, resolve }) => resolve(event);\n",
    );
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/hooks.server.ts")).toBe(
      'import { sequence } from "@sveltejs/kit/hooks";\nimport { handle as authHandle } from "$lib/server/auth";\n\nconst appHandle = async ({ event, resolve }) => resolve(event);\n\n// Auth.js\'s handle first (event.locals.auth() reads the session), then the app\'s own.\nexport const handle = sequence(authHandle, appHandle);\n',
    );
    expect(result.stdout).toContain("updated src/hooks.server.ts");
  });

  it("SvelteKit with an auth config and hooks of its own: the hooks are not pointed at a config init did not write", async () => {
    const dir = app("sveltekit");
    const hooks =
      'import { sequence } from "@sveltejs/kit/hooks";\nimport { handle as authentication } from "./auth";\n\nexport const handle = sequence(authentication);\n';
    writeFileSync(join(dir, "src/auth.ts"), 'export { handle } from "./somewhere";\n');
    writeFileSync(join(dir, "src/hooks.server.ts"), hooks);
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/hooks.server.ts")).toBe(hooks);
    expect(result.stdout).toContain(
      "Your auth config was kept, so src/hooks.server.ts was not edited; wire it yourself: export const handle = sequence(<the handle of src/auth.ts>, <your handle>)",
    );
  });

  it("SvelteKit with a hooks file init cannot edit with certainty: left alone, the next steps give the lines", async () => {
    const dir = app("sveltekit");
    const text = 'export { handle } from "./hooks/handle";\n';
    writeFileSync(join(dir, "src/hooks.server.ts"), text);
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/hooks.server.ts")).toBe(text);
    expect(result.stdout).toContain(
      'src/hooks.server.ts was left alone (it re-exports handle from ./hooks/handle); in it, add (your own handle renamed appHandle, if it has one):\n    import { sequence } from "@sveltejs/kit/hooks";\n    import { handle as authHandle } from "$lib/server/auth";\n    export const handle = sequence(authHandle, appHandle);',
    );
  });

  it("Express: server.ts mounting /auth the Express 5 way, env loaded first, dev and start scripts", async () => {
    const dir = app("express");
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    const server = read(dir, "server.ts");
    expect(server.indexOf('import "./auth/load-env.js";')).toBeLessThan(server.indexOf("@auth/express"));
    expect(read(dir, "auth/load-env.ts")).toContain('...(mode === "test" ? [] : [".env.local"])');
    expect(server).toContain('app.use("/auth", ExpressAuth(authConfig));');
    expect(JSON.parse(read(dir, "package.json")).scripts).toMatchObject({
      dev: "tsx watch server.ts",
      start: "tsx server.ts",
    });
    expect(JSON.parse(read(dir, "package.json")).dependencies).toHaveProperty("@auth/express");
  });

  it("Express with a server of its own: nothing written over it, the mount line in the next steps", async () => {
    const dir = app("express");
    writeFileSync(join(dir, "index.js"), "// the user's server\n");
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(join(dir, "server.ts"))).toBe(false);
    expect(result.stdout).toMatch(/Mount Auth\.js in index\.js: .*app\.use\("\/auth", ExpressAuth\(authConfig\)\)/);
  });

  it("Next.js Pages Router: the App Router route handler, transpilePackages in next.config, auth(ctx) named", async () => {
    const dir = app("next-pages");
    const before = read(dir, "next.config.ts");
    const result = await init(dir, "--protect", "/dashboard/:path*");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "app/api/auth/[...nextauth]/route.ts")).toContain('import { handlers } from "@/auth";');
    expect(read(dir, "next.config.ts")).toBe(
      before.replace(
        "const nextConfig: NextConfig = {};",
        'const nextConfig: NextConfig = { transpilePackages: ["next-auth"] };',
      ),
    );
    expect(read(dir, "auth.ts")).toContain("In pages/, read it in getServerSideProps with `await auth(ctx)`.");
    expect(read(dir, "proxy.ts")).toContain('import { auth } from "@/auth";');
    // A second run keeps next.config as it is.
    expect((await init(dir, "--force")).exitCode).toBe(0);
    expect(read(dir, "next.config.ts")).toContain('transpilePackages: ["next-auth"] }');
  });

  it("--protect in SvelteKit: hooks run Auth.js's handle, then one that redirects on the listed paths", async () => {
    const dir = app("sveltekit");
    const result = await init(dir, "--protect", "/dashboard/:path*");
    expect(result.exitCode, result.stderr).toBe(0);
    const hooks = read(dir, "src/hooks.server.ts");
    expect(hooks).toContain('import { handle as authHandle } from "$lib/server/auth";');
    expect(hooks).toContain('import { protect } from "$lib/server/auth/protect";');
    expect(hooks).toContain("export const handle = sequence(authHandle, protect);");
    const protect = read(dir, "src/lib/server/auth/protect.ts");
    expect(protect).toContain("/^\\/dashboard(?:\\/.*)?\\/?$/,");
    expect(protect).toContain("export const protect: Handle = ");
    expect(result.stdout).toContain(
      "src/hooks.server.ts sends visitors who are not signed in to the sign-in page on: /dashboard/:path*",
    );
  });

  it("--protect in Express: the generated server.ts checks the session on the listed paths", async () => {
    const dir = app("express");
    const result = await init(dir, "--protect", "/dashboard/:path*,/admin");
    expect(result.exitCode, result.stderr).toBe(0);
    const server = read(dir, "server.ts");
    expect(server).toContain("/^\\/dashboard(?:\\/.*)?\\/?$/,\n  /^\\/admin\\/?$/,\n];");
    expect(server).toContain("if ((await getSession(req, authConfig))?.user) return next();");
    // Protection comes after the mount: Auth.js's own pages stay open.
    expect(server.indexOf('app.use("/auth"')).toBeLessThan(server.indexOf("protectedPaths.some"));
  });

  it("Fastify created by another name: the plugin registered on that app, the env loader first", async () => {
    const dir = app("fastify");
    writeFileSync(
      join(dir, "src/server.ts"),
      'import { fastify as createServer } from "fastify";\n\nconst server = createServer();\nserver.get("/", async () => "hi");\nawait server.listen({ port: 3000 });\n',
    );
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/server.ts")).toBe(
      'import "./auth/load-env.js";\nimport { fastify as createServer } from "fastify";\nimport { authRoutes } from "./auth/fastify.js";\n\nconst server = createServer();\n\n// Auth.js\'s routes (signin, signout, session, callback/<provider>...) under /auth.\nserver.register(authRoutes);\nserver.get("/", async () => "hi");\nawait server.listen({ port: 3000 });\n',
    );
  });

  it("Elysia on Bun (no @elysiajs/node): the server imports no env loader, Bun reads the env files itself", async () => {
    const dir = app("elysia");
    const pkg = JSON.parse(read(dir, "package.json"));
    delete pkg.dependencies["@elysiajs/node"];
    writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
    writeFileSync(
      join(dir, "src/index.ts"),
      'import { Elysia } from "elysia";\n\nnew Elysia().get("/", () => "hi").listen(3000);\n',
    );
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(read(dir, "src/index.ts")).not.toContain("load-env");
    expect(read(dir, "src/index.ts")).toContain(
      'new Elysia()\n  // Auth.js\'s routes (signin, signout, session, callback/<provider>...) under /auth; it reads the body itself.\n  .all("/auth/*", ({ request, server }) => handleAuth(request, server?.requestIP(request)?.address), { parse: "none" }).get("/", () => "hi")',
    );
  });

  it("React Router: the Node.js note follows the app's release (8 needs 22.22, 7 runs on 20)", async () => {
    const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
    const below = major < 22 || (major === 22 && minor < 22);
    const note = "note: React Router needs Node.js 22.22 or later to build and run";
    const eight = await init(app("react-router-8"));
    expect(eight.exitCode, eight.stderr).toBe(0);
    expect(eight.stdout.includes(note)).toBe(below);
    const seven = await init(app("react-router-7"));
    expect(seven.exitCode, seven.stderr).toBe(0);
    expect(seven.stdout).not.toContain(note);
  });

  it("--framework none keeps the neutral config in a Next.js app; --protect elsewhere is a usage error", async () => {
    const dir = app("next");
    const result = await init(dir, "--framework", "none");
    expect(result.exitCode).toBe(0);
    expect(read(dir, "auth.ts")).toContain("satisfies AuthConfig;");
    expect(existsSync(join(dir, "app/api/auth"))).toBe(false);
    const refused = await init(app("express"), "--framework", "none", "--protect", "/x");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^error: --protect: create-auth does not protect pages in /);
    const bad = await init(app("next"), "--framework", "remix");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^error: --framework: invalid value "remix"; expected next, sveltekit, .*, none\./);
  });

  it("next steps ask only for values still empty in .env.local", async () => {
    const dir = app("express");
    writeFileSync(join(dir, ".env.local"), "AUTH_VK_ID=51234567\n");
    const result = await init(dir, "--providers", "social,email");
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("Fill in AUTH_VK_SECRET in .env.local (uncomment their lines).");
    expect(result.stdout).not.toMatch(/Fill in .*(AUTH_VK_ID|AUTH_EMAIL_FROM|EMAIL_SERVER)/);
    expect(result.stdout).toContain("http://localhost:3000/auth/callback/vk");
  });

  it("a hooks.server.js or middleware.js of the user's own is not doubled by a .ts beside it", async () => {
    const kit = app("sveltekit");
    writeFileSync(join(kit, "src/hooks.server.js"), "export const handle = ({ event, resolve }) => resolve(event);\n");
    const kitResult = await init(kit);
    expect(kitResult.exitCode, kitResult.stderr).toBe(0);
    expect(existsSync(join(kit, "src/hooks.server.ts"))).toBe(false);
    expect(kitResult.stdout).toContain("updated src/hooks.server.js");
    expect(read(kit, "src/hooks.server.js")).toContain("export const handle = sequence(authHandle, appHandle);");
    const next = app("next");
    writeFileSync(join(next, "middleware.js"), "export function middleware() {}\n");
    const nextResult = await init(next, "--protect", "/admin/:path*");
    expect(nextResult.exitCode, nextResult.stderr).toBe(0);
    expect(existsSync(join(next, "proxy.ts"))).toBe(false);
    expect(nextResult.stdout).toContain("updated middleware.js");
    expect(read(next, "middleware.js")).toBe(
      'import { protect } from "./auth/protect";\n\nfunction appMiddleware() {}\n\n// Sign-in first on the protected paths (./auth/protect), then appMiddleware.\nexport const middleware = protect(appMiddleware);\n\n// The auth config\'s database driver needs Node.js; the Edge runtime cannot load it.\nexport const config = { runtime: "nodejs" };\n',
    );
  });

  it("a Next.js app with an auth config of its own gets no route importing a config init did not write", async () => {
    const dir = app("next");
    mkdirSync(join(dir, "lib"));
    writeFileSync(join(dir, "lib/auth.ts"), "// the team's own config\n");
    const result = await init(dir);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(join(dir, "app/api/auth/[...nextauth]/route.ts"))).toBe(false);
    expect(existsSync(join(dir, "auth.ts"))).toBe(false);
    expect(result.stdout).toContain("An auth config exists at lib/auth.ts; it was left alone.");
    expect(result.stdout).toContain(
      "Your auth config was kept, so app/api/auth/[...nextauth]/route.ts was not written; wire it yourself: export { GET, POST } from the handlers of lib/auth.ts, POST given the client's address (withClientAddress of auth/client-address.ts) for the sign-in throttle.",
    );
  });
});
