/**
 * The hand-written next-auth v4 apps of fixtures/upgrade/<case>/input, as
 * their users have them: installed once into .cache/e2e-apps/ (keyed by the
 * fixture's files), then copied per test with node_modules hard-linked, so
 * `create-auth upgrade`'s own install runs for real but has little to fetch
 * after the first time. better-sqlite3's native build is copied in (see
 * apps.ts), its install script denied for the template's install only.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { root } from "../helpers.js";
import { copyInput, filesUnder } from "../upgrade/cases.js";
import { appRuntime, betterSqliteBuild } from "./apps.js";
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
  writeFileSync(join(dir, ".ready"), new Date().toISOString());
}

/** The installed template of a case, installed on first use. */
export async function installedV4App(name: string): Promise<string> {
  const fixture = join(root, "fixtures/upgrade", name, "input");
  const hash = createHash("sha256");
  for (const file of filesUnder(fixture)) hash.update(file).update(readFileSync(join(fixture, file)));
  hash.update(process.version).update("v4-app-1");
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

/** A fresh copy of a v4 app in a temp folder, node_modules hard-linked from its template. */
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
