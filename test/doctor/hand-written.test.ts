/**
 * Projects written by hand from the Auth.js docs, not by init: a next-auth v5
 * app with the edge split (auth.config.ts for the middleware, auth.ts adding
 * Prisma) and a SvelteKit app with lazy initialisation. doctor reads them as
 * written: providers, variables, adapter, wiring.
 */
import { describe, expect, it } from "vitest";
import { gatherFacts } from "../../src/doctor/gather.js";
import { copyProject, doctorJson, problemIds } from "./helpers.js";

describe("a next-auth v5 app written from the docs", () => {
  it("is read as written", async () => {
    const dir = copyProject("next-docs", {}, "doctor-apps");
    const { facts } = await gatherFacts({ root: dir, envFiles: [], environment: {} });
    expect(facts.framework).toBe("next");
    expect(facts.config.file).toBe("auth.ts");
    expect(facts.config.strategy).toBe("jwt");
    expect(facts.config.adapter?.module).toBe("@auth/prisma-adapter");
    expect(facts.config.providers.map((p) => [p.id, p.type, p.env.map((e) => e.name)])).toEqual([
      ["github", "oauth", ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"]],
      ["google", "oidc", ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"]],
    ]);
    expect(facts.wiring.routes).toEqual([{ file: "app/api/auth/[...nextauth]/route.ts", path: "/api/auth" }]);
    // The middleware imports the edge-safe half only: no database driver on the edge.
    expect(facts.wiring.middleware as { packages: string[] }[]).toEqual([
      { file: "middleware.ts", runtime: "edge", importsConfig: false, packages: ["next-auth"] },
    ]);
    expect(facts.database).toMatchObject({
      dialect: "postgres",
      flavour: "prisma",
      variable: "DATABASE_URL",
      tables: {},
    });
  });

  it("gets the findings its setup earns: no trusted host for next start, no database", async () => {
    const dir = copyProject("next-docs", {}, "doctor-apps");
    const { report } = await doctorJson(dir, [], { DATABASE_URL: "postgres://app@127.0.0.1:9/app" });
    expect(problemIds(report)).toEqual(["db.unreachable", "host.untrusted"]);
    expect(report.findings.filter((f) => f.id === "provider.callback-url").map((f) => f.message)).toEqual([
      'Register http://localhost:3000/api/auth/callback/github as the callback (redirect) URL of provider "github".',
      'Register http://localhost:3000/api/auth/callback/google as the callback (redirect) URL of provider "google".',
    ]);
  });

  it("finds the edge problem when the middleware imports the full config", async () => {
    const dir = copyProject("next-docs", {}, "doctor-apps");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${dir}/middleware.ts`, 'export { auth as middleware } from "@/auth";\n');
    writeFileSync(`${dir}/prisma.ts`, 'import pg from "pg";\nexport const prisma = new pg.Pool();\n');
    const { facts } = await gatherFacts({ root: dir, envFiles: [], environment: {} });
    expect((facts.wiring.middleware as { packages: string[] }[])[0]).toMatchObject({
      runtime: "edge",
      importsConfig: true,
    });
    expect((facts.wiring.middleware as { packages: string[] }[])[0]!.packages).toContain("pg");
  });
});

describe("a SvelteKit app written from the docs", () => {
  it("is read as written, lazy initialisation and $env included, with no errors", async () => {
    const dir = copyProject("sveltekit-docs", {}, "doctor-apps");
    const { facts } = await gatherFacts({ root: dir, envFiles: [], environment: {} });
    expect(facts.framework).toBe("sveltekit");
    expect(facts.config.file).toBe("src/auth.ts");
    expect(facts.config.trustHost).toBe(true);
    expect(facts.config.secretVariable).toBe("AUTH_SECRET");
    expect(facts.config.providers).toEqual([
      {
        id: "github",
        type: "oauth",
        builtin: "github",
        env: [
          { role: "id", name: "AUTH_GITHUB_ID" },
          { role: "secret", name: "AUTH_GITHUB_SECRET" },
        ],
        file: "src/auth.ts",
      },
    ]);
    expect(facts.wiring.hooks).toEqual({ file: "src/hooks.server.ts", exportsHandle: true });
    const { report, exitCode } = await doctorJson(dir);
    expect(problemIds(report)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report.findings.map((f) => f.message)).toEqual([
      'Register http://localhost:5173/auth/callback/github as the callback (redirect) URL of provider "github".',
    ]);
  });
});

describe("the env files doctor reads, as each framework loads them for a production start", () => {
  it("SvelteKit in Vite's order: .env.production over .env.local; Next.js: .env.local over .env.production", async () => {
    const { writeFileSync } = await import("node:fs");
    const long = "AUTH_SECRET=a-long-and-random-enough-secret-0123456789abcdef\n";
    const short = "AUTH_SECRET=too-short\n";
    const kit = copyProject("sveltekit-docs", {}, "doctor-apps");
    writeFileSync(`${kit}/.env.local`, long, { mode: 0o600 });
    writeFileSync(`${kit}/.env.production`, short, { mode: 0o600 });
    const { facts: kitFacts } = await gatherFacts({ root: kit, envFiles: [], environment: {} });
    expect(kitFacts.valueFiles).toEqual([".env", ".env.local", ".env.production", ".env.production.local"]);
    expect(kitFacts.env.AUTH_SECRET).toEqual({ value: "too-short", source: ".env.production" });

    const next = copyProject("next-docs", {}, "doctor-apps");
    writeFileSync(`${next}/.env.local`, long, { mode: 0o600 });
    writeFileSync(`${next}/.env.production`, short, { mode: 0o600 });
    const { facts: nextFacts } = await gatherFacts({ root: next, envFiles: [], environment: {} });
    expect(nextFacts.valueFiles).toEqual([".env", ".env.production", ".env.local", ".env.production.local"]);
    expect(nextFacts.env.AUTH_SECRET?.source).toBe(".env.local");
  });
});
