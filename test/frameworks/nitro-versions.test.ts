/**
 * Nitro 2 (nitropack, h3 1) and Nitro 3 (nitro, h3 2) are one framework to
 * init: which one the app is on is a fact read from package.json, or from
 * the config's import when neither package is listed, and it picks the h3
 * the route and the --protect middleware are written for.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectFramework } from "../../src/frameworks/registry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { fixture, inProcess, tempDir } from "../helpers.js";

function project(files: Record<string, string>): string {
  const dir = tempDir("create-auth-nitro-major-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const majorOf = (files: Record<string, string>) => {
  const detected = detectFramework(new ProjectView(project(files)));
  expect(detected.framework.id).toBe("nitro");
  return (detected.facts as { major: number }).major;
};

describe("Nitro's major version", () => {
  it.each([
    [{ "package.json": '{ "devDependencies": { "nitropack": "^2.13.0" } }' }, 2],
    [{ "package.json": '{ "devDependencies": { "nitro": "3.0.0" } }' }, 3],
    // Half-way through a move to Nitro 3: the new package is the one the app builds with.
    [{ "package.json": '{ "devDependencies": { "nitro": "3.0.0", "nitropack": "2.13.6" } }' }, 3],
    [
      {
        "nitro.config.ts":
          'import { defineNitroConfig } from "nitropack/config";\nexport default defineNitroConfig({});\n',
      },
      2,
    ],
    [
      {
        "nitro.config.ts": 'import { defineNitroConfig } from "nitro/config";\nexport default defineNitroConfig({});\n',
      },
      3,
    ],
    // Neither package listed nor imported: the current release.
    [{ "nitro.config.ts": "export default defineNitroConfig({});\n" }, 3],
  ] as const)("%j is Nitro %i", (files, major) => {
    expect(majorOf(files)).toBe(major);
  });
});

async function initApp(app: string) {
  const dir = tempDir(`create-auth-${app}-`);
  cpSync(fixture("apps", app), dir, { recursive: true });
  const args = ["init", "--yes", "--no-install", "--dir", dir, "--backend", "memory", "--protect", "/dashboard/:path*"];
  const result = await inProcess(args);
  expect(result.exitCode, result.stderr).toBe(0);
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  return {
    route: read("server/routes/api/auth/[...].ts"),
    middleware: read("server/middleware/auth.ts"),
    config: read("server/auth.ts"),
  };
}

describe("init on each major", () => {
  it("Nitro 2: h3 1's auto-imported defineEventHandler, the event made a Web Request by toWebRequest", async () => {
    const { route, middleware, config } = await initApp("nitro-2");
    expect(route).toContain(
      "export default defineEventHandler((event) => handleAuth(toWebRequest(event), getRequestIP(event)));",
    );
    expect(route).not.toMatch(/from "nitro/);
    expect(middleware).toContain("const request = toWebRequest(event);");
    expect(middleware).toContain("return sendRedirect(event, signInUrl(request));");
    expect(config).toContain("getSession(toWebRequest(event)) reads the session");
  });

  it("Nitro 3: h3 2's defineHandler from nitro/h3, the event's own Web Request", async () => {
    const { route, middleware, config } = await initApp("nitro");
    expect(route).toContain('import { defineHandler, getRequestIP } from "nitro/h3";');
    expect(route).toContain("handleAuth(event.req, getRequestIP(event))");
    expect(middleware).toContain("redirect(signInUrl(event.req))");
    expect(config).toContain("getSession(event.req) reads the session");
  });
});
