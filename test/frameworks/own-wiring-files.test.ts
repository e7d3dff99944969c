/**
 * init --protect on the generic-wiring frameworks when the file it would
 * write is the user's own (a middleware, a start file): that file keeps
 * every byte and the next steps say what to add; and Astro pages already
 * rendered on demand (output: "server") are not edited.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, tempDir } from "../helpers.js";

const own: Record<string, { file: string; text: string }> = {
  nuxt: { file: "server/middleware/auth.ts", text: "export default defineEventHandler(() => {});\n" },
  nitro: {
    file: "server/middleware/auth.ts",
    text: 'import { defineHandler } from "nitro/h3";\n\nexport default defineHandler(() => {});\n',
  },
  "nitro-2": { file: "server/middleware/auth.ts", text: "export default defineEventHandler(() => {});\n" },
  "tanstack-start": { file: "src/start.ts", text: "export const startInstance = undefined;\n" },
  "solid-start": { file: "src/middleware.ts", text: "export default [];\n" },
};

async function initWith(app: string, files: Record<string, string>) {
  const dir = tempDir(`create-auth-own-${app}-`);
  cpSync(fixture("apps", app), dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const args = ["init", "--yes", "--no-install", "--dir", dir, "--backend", "memory", "--protect", "/dashboard/:path*"];
  const result = await inProcess(args);
  expect(result.exitCode, result.stderr).toBe(0);
  return { dir, stdout: result.stdout };
}

describe.each(Object.entries(own))("%s with its own wiring file", (app, { file, text }) => {
  it(`keeps ${file} and says what to add`, async () => {
    const { dir, stdout } = await initWith(app, { [file]: text });
    expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(stdout).toContain(`${file} is yours and was left alone`);
    expect(stdout).toContain("isProtected(");
  });
});

describe("Astro with a middleware of its own that init cannot edit with certainty", () => {
  it("keeps src/middleware.ts and gives the lines to add", async () => {
    const text = 'export { onRequest } from "./middleware/own";\n';
    const { dir, stdout } = await initWith("astro", { "src/middleware.ts": text });
    expect(readFileSync(join(dir, "src/middleware.ts"), "utf8")).toBe(text);
    expect(stdout).toContain(
      'src/middleware.ts was left alone (it re-exports onRequest from ./middleware/own); to protect pages, add to it (your own onRequest renamed appOnRequest, if it has one):\n    import { sequence } from "astro:middleware";\n    import { protect } from "./auth/protect";\n    export const onRequest = sequence(protect, appOnRequest);',
    );
    expect(readFileSync(join(dir, "src/auth/protect.ts"), "utf8")).toContain("isProtected(context.url.pathname)");
  });
});

describe("Astro pages under --protect", () => {
  it("writes src/middleware.ts running the check of src/auth/protect.ts", async () => {
    const { dir } = await initWith("astro", {});
    expect(readFileSync(join(dir, "src/middleware.ts"), "utf8")).toContain(
      'export { protect as onRequest } from "./auth/protect";',
    );
  });

  it("adds prerender = false to the covered page, and leaves the others", async () => {
    const { dir } = await initWith("astro", {});
    expect(readFileSync(join(dir, "src/pages/dashboard.astro"), "utf8")).toMatch(
      /^---\n.*\nexport const prerender = false;\n/,
    );
    expect(readFileSync(join(dir, "src/pages/index.astro"), "utf8")).toBe(
      readFileSync(fixture("apps", "astro", "src/pages/index.astro"), "utf8"),
    );
  });

  it("edits no page when the config renders every page on demand", async () => {
    const config = readFileSync(fixture("apps", "astro", "astro.config.mjs"), "utf8").replace(
      "adapter:",
      'output: "server",\n  adapter:',
    );
    const { dir } = await initWith("astro", { "astro.config.mjs": config });
    expect(readFileSync(join(dir, "src/pages/dashboard.astro"), "utf8")).toBe(
      readFileSync(fixture("apps", "astro", "src/pages/dashboard.astro"), "utf8"),
    );
  });

  it("says an adapter is needed when the config has none", async () => {
    const config = 'import { defineConfig } from "astro/config";\n\nexport default defineConfig({});\n';
    const { dir, stdout } = await initWith("astro", { "astro.config.mjs": config });
    expect(stdout).toContain("needs an adapter: add one (npx astro add node)");
    expect(readFileSync(join(dir, "astro.config.mjs"), "utf8")).toBe(config);
  });
});

describe("Nuxt's check of client-side navigation under --protect", () => {
  it("writes a global route middleware and one list of protected paths, which the server's session module re-exports", async () => {
    const { dir } = await initWith("nuxt", {});
    const paths = readFileSync(join(dir, "shared/auth/protected-paths.ts"), "utf8");
    expect(paths).toContain(String.raw`/^\/dashboard(?:\/.*)?\/?$/,`);
    expect(paths).not.toMatch(/^import /m);
    const routeMiddleware = readFileSync(join(dir, "app/middleware/auth.global.ts"), "utf8");
    expect(routeMiddleware).toContain('import { isProtected } from "#shared/auth/protected-paths";');
    expect(routeMiddleware).toContain('$fetch<{ user?: unknown } | null>("/api/auth/session")');
    const session = readFileSync(join(dir, "server/auth/session.ts"), "utf8");
    expect(session).toContain('export { isProtected } from "../../shared/auth/protected-paths";');
    expect(session).not.toContain("const protectedPaths");
  });

  it("keeps a route middleware of the project's own and says what to add", async () => {
    const file = "app/middleware/auth.global.ts";
    const text = "export default defineNuxtRouteMiddleware(() => {});\n";
    const { dir, stdout } = await initWith("nuxt", { [file]: text });
    expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(stdout).toContain(`${file} is yours and was left alone`);
    expect(stdout).toContain("navigateTo(");
  });
});

describe("TanStack Start's check of client-side navigation under --protect", () => {
  it("adds beforeLoad: protectPages to the root route, and a server function asking for the session", async () => {
    const { dir } = await initWith("tanstack-start", {});
    const root = readFileSync(join(dir, "src/routes/__root.tsx"), "utf8");
    expect(root).toContain('import { protectPages } from "../auth/protect";');
    expect(root).toContain("createRootRoute({\n  beforeLoad: protectPages,\n");
    const protect = readFileSync(join(dir, "src/auth/protect.ts"), "utf8");
    expect(protect).toContain('import { isProtected } from "./protected-paths";');
    expect(protect).toContain("createServerFn(");
  });

  it("leaves a root route with a beforeLoad of its own alone and says what to add", async () => {
    const file = "src/routes/__root.tsx";
    const text = readFileSync(fixture("apps", "tanstack-start", file), "utf8").replace(
      "createRootRoute({",
      "createRootRoute({\n  beforeLoad: () => {},",
    );
    const { dir, stdout } = await initWith("tanstack-start", { [file]: text });
    expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(stdout).toContain(`${file} was left alone (its root route has a beforeLoad of its own)`);
    expect(stdout).toContain("await protectPages({ location })");
  });
});

describe("SvelteKit's check of client-side navigation under --protect", () => {
  it("writes a root server load that reads the path, so each navigation passes the hooks", async () => {
    const { dir } = await initWith("sveltekit", {});
    expect(readFileSync(join(dir, "src/routes/+layout.server.ts"), "utf8")).toContain("void url.pathname;");
  });

  it("keeps a root server load of the project's own and says what to add", async () => {
    const file = "src/routes/+layout.server.ts";
    const text = "export const load = () => ({});\n";
    const { dir, stdout } = await initWith("sveltekit", { [file]: text });
    expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(stdout).toContain(`${file} is yours and was left alone`);
    expect(stdout).toContain("read url.pathname in its load");
  });
});

describe("SolidStart's check of client-side navigation under --protect", () => {
  it("wraps the app's routes with protectRoutes, whose server function reads the session", async () => {
    const { dir } = await initWith("solid-start", {});
    const app = readFileSync(join(dir, "src/app.tsx"), "utf8");
    expect(app).toContain('import { protectRoutes } from "./auth/protect";');
    expect(app).toContain("{protectRoutes(FileRoutes())}");
    const protect = readFileSync(join(dir, "src/auth/protect.tsx"), "utf8");
    expect(protect).toContain('"use server";');
    expect(protect).toContain('import { isProtected } from "./protected-paths";');
  });

  it("leaves an app that does not render <FileRoutes /> alone and says what to add", async () => {
    const file = "src/app.tsx";
    const text = readFileSync(fixture("apps", "solid-start", file), "utf8").replace("<FileRoutes />", "{FileRoutes()}");
    const { dir, stdout } = await initWith("solid-start", { [file]: text });
    expect(readFileSync(join(dir, file), "utf8")).toBe(text);
    expect(stdout).toContain(`${file} was left alone (it does not render <FileRoutes /> once)`);
    expect(stdout).toContain("{protectRoutes(FileRoutes())}");
  });
});
