/**
 * Each framework's doctor part on the app its users have (fixtures/apps/):
 * right after `init --yes --protect`, doctor has no error to report; with
 * one wiring fault planted by hand, it names that fault by its id.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { doctorJson } from "../doctor/helpers.js";
import { fixture, inProcess, tempDir } from "../helpers.js";

/** What breaks each framework's wiring, the way a user could break it, and the finding it must give. */
const faults: Record<string, { app: string; plant(dir: string): void; id: string }> = {
  next: {
    app: "next",
    plant: (dir) => rmSync(join(dir, "app/api/auth"), { recursive: true }),
    id: "next.route-missing",
  },
  "next (Pages Router)": {
    app: "next-pages",
    plant: (dir) => rmSync(join(dir, "app"), { recursive: true }),
    id: "next.route-missing",
  },
  sveltekit: {
    app: "sveltekit",
    plant: (dir) => rmSync(join(dir, "src/hooks.server.ts")),
    id: "sveltekit.handle-missing",
  },
  express: {
    app: "express",
    plant: (dir) => edit(join(dir, "server.ts"), (text) => text.replace(/^app\.use\("\/auth", ExpressAuth.*$/m, "")),
    id: "express.mount-missing",
  },
  hono: {
    app: "hono",
    plant: (dir) => edit(join(dir, "src/index.ts"), (text) => text.replace(/^app\.on\(.*handleAuth.*$/m, "")),
    id: "hono.mount-missing",
  },
  astro: {
    app: "astro",
    plant: (dir) => rmSync(join(dir, "src/pages/api/auth"), { recursive: true }),
    id: "astro.route-missing",
  },
  nuxt: {
    app: "nuxt",
    plant: (dir) => rmSync(join(dir, "server/api/auth"), { recursive: true }),
    id: "nuxt.route-missing",
  },
  nitro: {
    app: "nitro",
    plant: (dir) => rmSync(join(dir, "server/routes/api/auth"), { recursive: true }),
    id: "nitro.route-missing",
  },
  "nitro (Nitro 2)": {
    app: "nitro-2",
    plant: (dir) => rmSync(join(dir, "server/routes/api/auth"), { recursive: true }),
    id: "nitro.route-missing",
  },
  "tanstack-start": {
    app: "tanstack-start",
    plant: (dir) => rmSync(join(dir, "src/routes/api/auth/$.ts")),
    id: "tanstack-start.route-missing",
  },
  "solid-start": {
    app: "solid-start",
    plant: (dir) => rmSync(join(dir, "src/routes/api/auth/[...auth].ts")),
    id: "solid-start.route-missing",
  },
  fastify: {
    app: "fastify",
    plant: (dir) => edit(join(dir, "src/server.ts"), (text) => text.replace(/^app\.register\(authRoutes\);$/m, "")),
    id: "fastify.mount-missing",
  },
  elysia: {
    app: "elysia",
    plant: (dir) => edit(join(dir, "src/index.ts"), (text) => text.replace(/^ {2}\.all\(.*handleAuth.*$/m, "")),
    id: "elysia.mount-missing",
  },
  qwik: {
    app: "qwik",
    plant: (dir) => rmSync(join(dir, "src/routes/plugin@auth.ts")),
    id: "qwik.plugin-missing",
  },
  "react-router": {
    app: "react-router-7",
    plant: (dir) => edit(join(dir, "app/routes.ts"), (text) => text.replace(/, route\("api\/auth\/\*"[^)]*\)/, "")),
    id: "react-router.route-unlisted",
  },
};

function edit(path: string, change: (text: string) => string) {
  const before = readFileSync(path, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

async function initApp(app: string) {
  const dir = tempDir(`create-auth-wiring-${app}-`);
  cpSync(fixture("apps", app), dir, { recursive: true });
  // The in-memory store: the SQL stores' tables are doctor.db.test.ts's business.
  const init = await inProcess(["init", "--yes", "--no-install", "--dir", dir, "--backend", "memory"]);
  expect(init.exitCode, init.stderr).toBe(0);
  return dir;
}

describe.each(Object.entries(faults))("doctor on %s", (_framework, fault) => {
  it("finds no error right after init", async () => {
    const { report } = await doctorJson(await initApp(fault.app));
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    // The config itself was read, not a module that only hands it to Auth.js.
    expect(report.findings.map((f) => f.id)).not.toContain("config.unreadable");
  });

  it(`finds the planted wiring fault: ${fault.id}`, async () => {
    const dir = await initApp(fault.app);
    fault.plant(dir);
    const { report } = await doctorJson(dir);
    expect(report.findings.map((f) => f.id)).toContain(fault.id);
  });
});

/** The env loader taken out of what the Auth.js route imports, where the production server reads no env file. */
const sessionImport = /^import \{ envFilesRead \} from "\.\/load-env";$/m;
const envLoaders: Record<string, { app: string; id: string; file: string; line: RegExp }> = {
  astro: { app: "astro", id: "astro", file: "src/auth.ts", line: /^import "\.\/auth\/load-env";$/m },
  nuxt: { app: "nuxt", id: "nuxt", file: "server/auth/session.ts", line: sessionImport },
  nitro: { app: "nitro", id: "nitro", file: "server/auth/session.ts", line: sessionImport },
  "nitro (Nitro 2)": { app: "nitro-2", id: "nitro", file: "server/auth/session.ts", line: sessionImport },
};

describe.each(Object.entries(envLoaders))("doctor on %s without the env loader", (_framework, loader) => {
  it(`finds ${loader.id}.env-not-loaded, which a fresh init does not give`, async () => {
    const dir = await initApp(loader.app);
    const fresh = await doctorJson(dir);
    expect(fresh.report.findings.map((f) => f.id)).not.toContain(`${loader.id}.env-not-loaded`);
    edit(join(dir, loader.file), (text) => text.replace(loader.line, ""));
    const { report } = await doctorJson(dir);
    expect(report.findings.map((f) => f.id)).toContain(`${loader.id}.env-not-loaded`);
  });
});
