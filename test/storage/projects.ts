/**
 * The ORM fixture projects (fixtures/projects/orm/) as a user has them, with
 * their packages: a private copy per test whose node_modules links every
 * package of this repository's, plus what the repository does not carry
 * (drizzle-kit, the Prisma driver adapters for PostgreSQL and MariaDB),
 * installed once into .cache/orm-deps under a lock. That folder sits below
 * the repository's node_modules, so drizzle-kit finds the drivers and
 * drizzle-orm there, as it would in a project of its own.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { userEnv } from "../e2e/user-env.js";
import { root } from "../helpers.js";

const extra = ["drizzle-kit@0.31.11", "@prisma/adapter-pg@7.10.0", "@prisma/adapter-mariadb@7.10.0"];

/** The folder holding the extra packages' node_modules, installed on first use. */
export async function ormDeps(): Promise<string> {
  const key = createHash("sha256").update(extra.join(" ")).digest("hex").slice(0, 12);
  const cache = join(root, ".cache");
  const dir = join(cache, `orm-deps-${key}`);
  if (existsSync(join(dir, ".ready"))) return dir;
  mkdirSync(cache, { recursive: true });
  const { lock } = (await import("proper-lockfile")).default;
  const release = await lock(cache, {
    lockfilePath: join(cache, ".orm-deps.lock"),
    realpath: false,
    stale: 60_000,
    retries: { retries: 600, minTimeout: 500, maxTimeout: 1000 },
  });
  try {
    if (!existsSync(join(dir, ".ready"))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "orm-deps", private: true }));
      await execa("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...extra], {
        cwd: dir,
        env: userEnv(),
      });
      writeFileSync(join(dir, ".ready"), new Date().toISOString());
    }
  } finally {
    await release();
  }
  return dir;
}

/** A node_modules of links: this repository's packages, then the extra ones (scoped folders merged). */
function linkModules(target: string, sources: string[]): void {
  mkdirSync(target, { recursive: true });
  for (const source of sources) {
    for (const name of readdirSync(source)) {
      if (name === ".bin" || name.startsWith(".package-lock")) continue;
      if (name.startsWith("@")) {
        mkdirSync(join(target, name), { recursive: true });
        for (const inner of readdirSync(join(source, name)))
          if (!existsSync(join(target, name, inner))) symlinkSync(join(source, name, inner), join(target, name, inner));
      } else if (!existsSync(join(target, name))) symlinkSync(join(source, name), join(target, name));
    }
  }
}

/** A private copy of fixtures/projects/orm/<name> with its packages; removed when `defer` runs. */
export async function ormProject(name: string, defer?: (fn: () => unknown) => void): Promise<string> {
  const deps = await ormDeps();
  const dir = join(tmpdir(), `create-auth-orm-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  cpSync(join(root, "fixtures/projects/orm", name), dir, { recursive: true });
  linkModules(join(dir, "node_modules"), [join(root, "node_modules"), join(deps, "node_modules")]);
  // `npm run verify-adapter` runs create-auth from the project's bin folder: this checkout's.
  mkdirSync(join(dir, "node_modules/.bin"));
  symlinkSync(join(root, "bin/create-auth.js"), join(dir, "node_modules/.bin/create-auth"));
  defer?.(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a package's CLI from the project's node_modules (no npx: nothing is fetched). */
export const bin = (dir: string, pkg: string, file: string) => join(dir, "node_modules", pkg, file);
