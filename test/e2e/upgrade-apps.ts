/**
 * The hand-written next-auth v4 apps of fixtures/upgrade/<case>/input, as
 * their users have them: installed once into .cache/e2e-apps/ (keyed by the
 * fixture's files), then copied per test with node_modules hard-linked, so
 * `create-auth upgrade`'s own install runs for real but has little to fetch
 * after the first time. better-sqlite3's native build is copied in (see
 * apps.ts), its install script denied for the template's install only.
 *
 * A copy can also come built on v4, as the upgrade test starts from
 * (freshV4App).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { root } from "../helpers.js";
import { copyInput, filesUnder } from "../upgrade/cases.js";
import { appEnv, appRuntime, installedOnce, nextBin, runBuild } from "./apps.js";
import { betterSqliteBuild } from "./better-sqlite3-binary.js";
import { copyTemplate } from "./template-copy.js";
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

/** The installed template of a case, installed on first use. */
export async function installedV4App(name: string): Promise<string> {
  const fixture = join(root, "fixtures/upgrade", name, "input");
  const hash = createHash("sha256");
  for (const file of filesUnder(fixture)) hash.update(file).update(readFileSync(join(fixture, file)));
  hash.update(process.version).update("v4-app-2");
  const dir = join(root, ".cache/e2e-apps", `upgrade-${name}-${hash.digest("hex").slice(0, 12)}`);
  return installedOnce(dir, (dir) => install(dir, name));
}

/**
 * A fresh copy of a v4 app in a temp folder, node_modules hard-linked from its template; with `built`, built
 * on v4 as its users build it (`prisma generate` first where it has Prisma, then `next build`), so `next
 * start` works there. The build is the same on every run for a given template, so after the first it comes
 * from the build cache (build-cache.ts). It is made with NEXTAUTH_URL set to an origin no test uses, and
 * refused if that origin shows up in it: the port each test writes into the env file is read at run time, as
 * next-auth v4 does, not baked into the build.
 */
export async function freshV4App(
  name: string,
  defer: (fn: () => unknown) => void,
  options: { built?: boolean } = {},
): Promise<string> {
  const template = await installedV4App(name);
  const dir = await copyTemplate(template, `v4-${name}`, defer);
  if (options.built) {
    const env = appEnv({ ...prismaEnv, NEXTAUTH_URL: buildOrigin });
    const steps = [
      ...(existsSync(join(dir, "prisma/schema.prisma"))
        ? [[join(dir, "node_modules/prisma/build/index.js"), "generate"]]
        : []),
      [nextBin(dir), "build"],
    ];
    for (const args of steps) {
      const built = await runBuild(dir, ["node", ...args], env);
      if (built.exitCode !== 0) throw new Error(`${args.join(" ")} failed for ${name}:\n${built.all}`);
    }
    const host = new URL(buildOrigin).host;
    const baked = readdirSync(join(dir, ".next"), { recursive: true, withFileTypes: true }).find(
      (e) => e.isFile() && readFileSync(join(e.parentPath, e.name), "latin1").includes(host),
    );
    if (baked) throw new Error(`the v4 build of ${name} holds NEXTAUTH_URL in ${baked.name}: no test could share it`);
  }
  return dir;
}
