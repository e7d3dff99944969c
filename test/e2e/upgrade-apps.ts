/**
 * The hand-written next-auth v4 apps of fixtures/upgrade/<case>/input, as
 * their users have them: installed once into .cache/e2e-apps/ (keyed by the
 * fixture's files), then copied per test with node_modules hard-linked, so
 * `create-auth upgrade`'s own install runs for real but has little to fetch
 * after the first time. better-sqlite3's native build is copied in (see
 * apps.ts), its install script denied for the template's install only.
 *
 * A copy can also come built on v4, as the upgrade test starts from: the v4
 * `next build` (with `prisma generate` before it where the app has Prisma)
 * is the same on every run for a given template, so it is made once, in a
 * scratch copy, and what it added or changed is kept beside the template
 * (<template>-v4-build) and laid over each copy. The build is made with
 * NEXTAUTH_URL set to an origin no test uses, and refused if that origin
 * shows up in it: the port each test writes into the env file is read at run
 * time, as next-auth v4 does, not baked into the build.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { execa } from "execa";
import { root } from "../helpers.js";
import { copyInput, filesUnder } from "../upgrade/cases.js";
import { appEnv, appRuntime, nextBin } from "./apps.js";
import { betterSqliteBuild } from "./better-sqlite3-binary.js";
import { userEnv } from "./user-env.js";

// prisma generate needs no engine for the prisma-client generator, but its CLI looks for one and would download it.
export const prismaEnv = { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, CHECKPOINT_DISABLE: "1" };

/** An origin that appears in no test: found in the build, it would mean the build kept the env file's URL. */
const buildOrigin = "http://v4-build-origin.invalid";

async function install(dir: string, name: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyInput(name, dir);
  const fresh = readFileSync(join(dir, "package.json"), "utf8");
  const pkg = JSON.parse(fresh) as { allowScripts?: Record<string, boolean>; dependencies?: Record<string, string> };
  const native = pkg.dependencies?.["better-sqlite3"] !== undefined;
  if (native)
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ ...pkg, allowScripts: { ...pkg.allowScripts, "better-sqlite3": false } }),
    );
  await execa("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env: userEnv() });
  if (native) {
    const installed = join(dir, "node_modules/better-sqlite3");
    const version = (JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version: string }).version;
    cpSync(await betterSqliteBuild(version, appRuntime("next")), join(installed, "build"), { recursive: true });
  }
  writeFileSync(join(dir, "package.json"), fresh);
  writeFileSync(join(dir, ".ready"), new Date().toISOString());
}

/** Makes `dir` with `make` unless it is ready; test files in other workers wait for the one making it. */
async function cached(dir: string, make: (dir: string) => Promise<void>): Promise<string> {
  if (existsSync(join(dir, ".ready"))) return dir;
  mkdirSync(join(root, ".cache/e2e-apps"), { recursive: true });
  const { lock } = (await import("proper-lockfile")).default;
  const release = await lock(join(root, ".cache/e2e-apps"), {
    lockfilePath: join(root, ".cache/e2e-apps/.install.lock"),
    realpath: false,
    stale: 60_000,
    retries: { retries: 1200, minTimeout: 500, maxTimeout: 1000 },
  });
  try {
    if (!existsSync(join(dir, ".ready"))) await make(dir);
  } finally {
    await release();
  }
  return dir;
}

/** The installed template of a case, installed on first use. */
export async function installedV4App(name: string): Promise<string> {
  const fixture = join(root, "fixtures/upgrade", name, "input");
  const hash = createHash("sha256");
  for (const file of filesUnder(fixture)) hash.update(file).update(readFileSync(join(fixture, file)));
  hash.update(process.version).update("v4-app-1");
  const dir = join(root, ".cache/e2e-apps", `upgrade-${name}-${hash.digest("hex").slice(0, 12)}`);
  return cached(dir, (dir) => install(dir, name));
}

/** The template's v4 build: every file outside node_modules that the build added or changed, by path. */
async function v4Build(template: string, overlay: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "create-auth-v4-build-"));
  try {
    await copyApp(template, work);
    const run = async (args: string[]) => {
      const result = await execa("node", args, {
        cwd: work,
        env: appEnv({ ...prismaEnv, NEXTAUTH_URL: buildOrigin }),
        extendEnv: false,
        reject: false,
        all: true,
      });
      if (result.exitCode !== 0) throw new Error(`${args.join(" ")} failed for ${template}:\n${result.all}`);
    };
    if (existsSync(join(work, "prisma/schema.prisma")))
      await run([join(work, "node_modules/prisma/build/index.js"), "generate"]);
    await run([nextBin(work), "build"]);
    // The webpack cache serves only later builds of this tree (the upgrade test removes .next before the v5
    // one); a database the build may have opened stays out: each test applies the project's own migration.
    rmSync(join(work, ".next/cache"), { recursive: true, force: true });
    const made = appFiles(work).filter(
      (file) =>
        !file.endsWith(".db") &&
        !(
          existsSync(join(template, file)) && readFileSync(join(template, file)).equals(readFileSync(join(work, file)))
        ),
    );
    const baked = made.find((file) => readFileSync(join(work, file), "utf8").includes(new URL(buildOrigin).host));
    if (baked) throw new Error(`the v4 build of ${template} holds NEXTAUTH_URL in ${baked}: no test could share it`);
    rmSync(overlay, { recursive: true, force: true });
    for (const file of made) {
      mkdirSync(dirname(join(overlay, file)), { recursive: true });
      cpSync(join(work, file), join(overlay, file));
    }
    writeFileSync(join(overlay, ".ready"), new Date().toISOString());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file of an app outside node_modules, relative to it. */
function appFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((file) => !file.startsWith("node_modules/"));
}

/** A template's files in `dir`: node_modules hard-linked, the rest copied. */
async function copyApp(template: string, dir: string): Promise<void> {
  for (const entry of readdirSync(template)) {
    if (entry === ".ready") continue;
    if (entry === "node_modules") await execa("cp", ["-al", join(template, entry), join(dir, entry)]);
    else cpSync(join(template, entry), join(dir, entry), { recursive: true });
  }
}

/**
 * A fresh copy of a v4 app in a temp folder, node_modules hard-linked from its template; with `built`, its
 * v4 build (.next, Prisma's generated client, what next build rewrote) copied over it, so `next start`
 * works there and writes nothing into the cache.
 */
export async function freshV4App(
  name: string,
  defer: (fn: () => unknown) => void,
  options: { built?: boolean } = {},
): Promise<string> {
  const template = await installedV4App(name);
  const build = options.built ? await cached(`${template}-v4-build`, (dir) => v4Build(template, dir)) : undefined;
  const dir = mkdtempSync(join(tmpdir(), `create-auth-v4-${name}-`));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  await copyApp(template, dir);
  if (build) cpSync(build, dir, { recursive: true, filter: (source) => source !== join(build, ".ready") });
  return dir;
}
