/**
 * The hand-written next-auth v4 apps of fixtures/upgrade/<case>/input, as
 * their users have them: installed and built on v4 once into
 * .cache/e2e-apps/ (keyed by the fixture's files), then copied per test with
 * node_modules hard-linked, so `create-auth upgrade`'s own install runs for
 * real but has little to fetch after the first time. better-sqlite3's native
 * build is copied in (see apps.ts), its install script denied for the
 * template's install only.
 *
 * The v4 `next build` is the same on every run for a given fixture and
 * installed packages, so it is done once, in the template: what the upgrade
 * test proves about v4 is that the app, as built, signs a person in, and it
 * still starts and signs in from each copy. The build is made with
 * NEXTAUTH_URL set to an origin no test uses, and the template is refused if
 * that origin shows up in the build: the port each test writes into the env
 * file is then read at run time, as next-auth v4 does, not baked in. The v5
 * build after the upgrade is always a fresh one (the test removes .next).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { root } from "../helpers.js";
import { copyInput, filesUnder } from "../upgrade/cases.js";
import { appEnv, appRuntime, betterSqliteBuild, nextBin } from "./apps.js";
import { userEnv } from "./user-env.js";

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
  await buildV4(dir);
  writeFileSync(join(dir, ".ready"), new Date().toISOString());
}

// prisma generate needs no engine for the prisma-client generator, but its CLI looks for one and would download it.
export const prismaEnv = { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, CHECKPOINT_DISABLE: "1" };

/** An origin that appears in no test: found in the build, it would mean the build kept the env file's URL. */
const buildOrigin = "http://v4-build-origin.invalid";

/** The template's v4 build as a user makes it (prisma generate first where the app has Prisma). */
async function buildV4(dir: string): Promise<void> {
  const run = async (args: string[]) => {
    const result = await execa("node", args, {
      cwd: dir,
      env: appEnv({ ...prismaEnv, NEXTAUTH_URL: buildOrigin }),
      extendEnv: false,
      reject: false,
      all: true,
    });
    if (result.exitCode !== 0) throw new Error(`${args.join(" ")} failed in ${dir}:\n${result.all}`);
  };
  if (existsSync(join(dir, "prisma/schema.prisma")))
    await run([join(dir, "node_modules/prisma/build/index.js"), "generate"]);
  await run([nextBin(dir), "build"]);
  // The webpack cache serves only later builds of this tree (the test removes .next before the v5 one);
  // a database a build may open stays out, so each test starts from the project's own migration.
  rmSync(join(dir, ".next/cache"), { recursive: true, force: true });
  for (const entry of readdirSync(dir)) if (entry.endsWith(".db")) rmSync(join(dir, entry));
  const baked = filesUnderNext(dir).find((file) => readFileSync(file, "utf8").includes(new URL(buildOrigin).host));
  if (baked) throw new Error(`the v4 build of ${dir} holds NEXTAUTH_URL (${baked}): it cannot be shared across ports`);
}

function filesUnderNext(dir: string): string[] {
  return readdirSync(join(dir, ".next"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** The installed template of a case, installed on first use. */
export async function installedV4App(name: string): Promise<string> {
  const fixture = join(root, "fixtures/upgrade", name, "input");
  const hash = createHash("sha256");
  for (const file of filesUnder(fixture)) hash.update(file).update(readFileSync(join(fixture, file)));
  hash.update(process.version).update("v4-app-built-1");
  const dir = join(root, ".cache/e2e-apps", `upgrade-${name}-${hash.digest("hex").slice(0, 12)}`);
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
    if (!existsSync(join(dir, ".ready"))) await install(dir, name);
  } finally {
    await release();
  }
  return dir;
}

/**
 * A fresh copy of a v4 app in a temp folder, node_modules hard-linked from its template, its v4 build
 * (.next, and Prisma's generated client) copied: `next start` may write under .next, never into the template.
 */
export async function freshV4App(name: string, defer: (fn: () => unknown) => void): Promise<string> {
  const source = await installedV4App(name);
  const dir = mkdtempSync(join(tmpdir(), `create-auth-v4-${name}-`));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  for (const entry of readdirSync(source)) {
    if (entry === ".ready") continue;
    if (entry === "node_modules") await execa("cp", ["-al", join(source, entry), join(dir, entry)]);
    else cpSync(join(source, entry), join(dir, entry), { recursive: true });
  }
  return dir;
}
