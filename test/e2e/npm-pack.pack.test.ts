/**
 * As a user gets create-auth: `npm pack` this repo (its prepack builds), a
 * fresh `npm init -y` project, `npm install <tarball>` (dependencies from the
 * npm registry), `npx create-auth init --yes` WITH its install (better-sqlite3
 * built by its install script, approved by the generated allowScripts), then
 * `npm run verify-adapter` against the generated SQLite adapter, and every
 * other command and the library entry point, and create-auth/vitest in a
 * strict pnpm workspace (`npx pnpm@<exact>`). The package installs nothing
 * but itself (everything it runs is bundled into dist/cli/; a TypeScript
 * adapter is compiled by the project's tsx or by Node itself), within a size
 * budget, and its third-party notice names exactly the packages bundled
 * into dist/cli/, each with its licence text.
 *
 * Slow (installs, about a minute) and needs the npm registry: the `pack`
 * project (`npm test -- --project pack`). Each step's wall time is printed.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { execa, type Options } from "execa";
import { afterAll, describe, expect, test } from "vitest";
import { commandLineOptions } from "../../scripts/build.js";
import { fetchMissingNodes, nodeBinary } from "../../scripts/node-versions.js";
import { dependencyVersions } from "../../src/catalog/dependencies.js";
import { allCases } from "../../src/contract/cases/index.js";
import { notInstalled } from "../../src/lib/running-vitest.js";
import { newestIn, prebuiltMirror, versionOf } from "./better-sqlite3-binary.js";
import { userEnv } from "./user-env.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** What `npm pack` needs to build and pack the package: no tests, fixtures or dist/. */
const packedSources = [
  "package.json",
  "README.md",
  "LICENSE",
  "bin",
  "src",
  "scripts",
  "templates",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** The package a bundled or imported path belongs to: node_modules/a/node_modules/@b/c/x.js -> @b/c. */
const packageOf = (path: string) => [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1)?.[1];

/** What the CLI bundle is made of, by esbuild's account of the same build: name@version -> the package's folder. */
async function bundledPackages(): Promise<Map<string, string>> {
  const { metafile } = await build({
    ...commandLineOptions(mkdtempSync(join(tmpdir(), "create-auth-bundle-"))),
    write: false,
  });
  const found = new Map<string, string>();
  for (const input of Object.keys(metafile.inputs)) {
    const name = packageOf(input);
    if (!name) continue;
    const folder = join(projectRoot, input.slice(0, input.lastIndexOf(`node_modules/${name}/`)), "node_modules", name);
    const { version } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version: string };
    found.set(`${name}@${version}`, folder);
  }
  return found;
}

/** The packages an installed package's own files import at run time (Node's modules and its own files aside). */
async function importedPackages(installed: string): Promise<string[]> {
  const entryPoints = [
    "bin/create-auth.js",
    "dist/cli/index.js",
    "dist/cli/vitest.js",
    "dist/cli/verify-worker.js",
    "dist/cli/spawn-worker.js",
  ].map((path) => join(installed, path));
  const { metafile } = await build({
    entryPoints,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    outdir: join(installed, "..", "imports-check"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const node = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  const names = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !node.has(i.path))
    .map((i) => /^(?:@[^/]+\/)?[^/]+/.exec(i.path)![0]);
  return [...new Set(names)].sort();
}

const MINUTE = 60_000;
/** Exact versions for the pnpm step: some registry mirrors serve no dist-tags. vitest as this repo tests with. */
const PNPM = "pnpm@12.4.2";
const VITEST = JSON.parse(readFileSync(join(projectRoot, "node_modules/vitest/package.json"), "utf8"))
  .version as string;
/** What `npm install create-auth` may put in node_modules (it was 32 MB in 17 packages with tsx and handlebars). */
const SIZE_BUDGET_MB = 15;

function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** The adapter types the memory fixture imports, for a folder with no @auth/core. */
const adapterTypes = [
  "Adapter",
  "AdapterAccount",
  "AdapterAuthenticator",
  "AdapterSession",
  "AdapterUser",
  "VerificationToken",
]
  .map((name) => `export type ${name} = any;`)
  .join("\n");

function nodeOf(major: string): string {
  if (!nodeBinary(major)) fetchMissingNodes();
  return nodeBinary(major)!;
}
/** The whole flow, all steps together; each step also has its own limit. */
const BUDGET = 8 * MINUTE;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));
}

describe("npm pack → install the tarball → npx create-auth init --yes → npm run verify-adapter", () => {
  let root = "";
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));
  const timings: Record<string, number> = {};
  let deadline = 0;

  async function step(name: string, file: string, args: string[], options: Options & { timeout: number }) {
    const started = performance.now();
    // Never past the overall budget, so a hang fails the test here (and the child is killed) instead of at vitest's timeout.
    const timeout = Math.max(1_000, Math.min(options.timeout, deadline - started));
    const result = await execa(file, args, {
      env: userEnv(),
      extendEnv: false,
      reject: false,
      all: true,
      ...options,
      timeout,
    });
    timings[name] = Math.round(performance.now() - started);
    console.log(`[npm-pack] ${name}: ${(timings[name] / 1000).toFixed(1)} s (exit ${result.exitCode})`);
    if (result.timedOut) throw new Error(`${name} timed out after ${timeout} ms:\n${String(result.all).slice(-4000)}`);
    expect(result.exitCode, `${name} failed:\n${String(result.all).slice(-6000)}`).toBe(0);
    return result;
  }

  test(
    "a user's first run passes verify-adapter",
    async () => {
      deadline = performance.now() + BUDGET;
      root = mkdtempSync(join(tmpdir(), "create-auth-pack-"));
      const packDir = join(root, "pack");
      const app = join(root, "app");
      mkdirSync(packDir);
      mkdirSync(app);

      // 1. npm pack (prepack builds dist/), from a copy: the build replaces dist/, which other layers run meanwhile.
      const source = join(root, "source");
      for (const entry of packedSources) cpSync(join(projectRoot, entry), join(source, entry), { recursive: true });
      symlinkSync(join(projectRoot, "node_modules"), join(source, "node_modules"), "dir");
      const pack = await step("npm pack", "npm", ["pack", source, "--pack-destination", packDir, "--json"], {
        cwd: root,
        timeout: 3 * MINUTE,
      });
      const json = String(pack.stdout);
      const [packed] = JSON.parse(json.slice(json.indexOf("["))) as { filename: string; files: { path: string }[] }[];
      const shipped = new Set(packed!.files.map((f) => f.path));
      // `files`: bin, dist and every template the generators read; no sources, tests or fixtures.
      for (const path of [
        "package.json",
        "README.md",
        "bin/create-auth.js",
        "dist/cli/create-auth.js",
        "dist/cli/private-cache.js",
        "dist/templates.precompiled.cjs",
        "dist/cli/index.js",
        "dist/index.d.ts",
        "dist/cli/vitest.js",
        "dist/vitest.d.ts",
        "dist/THIRD-PARTY-NOTICES.txt",
      ]) {
        expect(shipped, path).toContain(path);
      }
      // Templates ship precompiled, every one of them: the folder itself stays home.
      const precompiled = readFileSync(join(source, "dist/templates.precompiled.cjs"), "utf8");
      for (const template of filesUnder(join(projectRoot, "templates")))
        expect(precompiled, template).toContain(JSON.stringify(template.slice("templates/".length)));
      expect([...shipped].filter((p) => p.startsWith("templates/"))).toEqual([]);
      expect([...shipped].filter((p) => /^(src|test|fixtures|bench|node_modules)\//.test(p))).toEqual([]);
      // Of dist/ outside the bundle, only the library's type declarations.
      expect([...shipped].filter((p) => /^dist\/.+\/.+\.js$/.test(p) && !p.startsWith("dist/cli/"))).toEqual([]);
      const tarball = join(packDir, packed!.filename);
      expect(existsSync(tarball)).toBe(true);

      // 2. A fresh project, 3. create-auth from the tarball (its dependencies from the registry).
      await step("npm init -y", "npm", ["init", "-y"], { cwd: app, timeout: MINUTE });
      await step("npm install <tarball>", "npm", ["install", tarball], { cwd: app, timeout: 4 * MINUTE });
      expect(existsSync(join(app, "node_modules/.bin/create-auth"))).toBe(true);
      // A first `npx create-auth` installs one package, within the size budget.
      expect(readdirSync(join(app, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["create-auth"]);
      expect(bytesUnder(join(app, "node_modules")) / 2 ** 20).toBeLessThanOrEqual(SIZE_BUDGET_MB);

      // 3b. A TypeScript adapter in a project without tsx: Node 24 strips its types itself (`./adapter.js` is
      // adapter.ts, in a CommonJS package, as tsc users write it); Node 20 cannot, and says what to install.
      const bare = join(root, "bare");
      mkdirSync(bare);
      writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "bare", type: "commonjs" }));
      cpSync(join(projectRoot, "fixtures/adapters/memory.ts"), join(bare, "adapter.ts"));
      writeFileSync(join(bare, "adapter-types.ts"), adapterTypes);
      writeFileSync(
        join(bare, "my-adapter.ts"),
        'import { createMemoryAdapter } from "./adapter.js";\nexport default createMemoryAdapter;\n',
      );
      const rewritten = readFileSync(join(bare, "adapter.ts"), "utf8").replace(
        '"@auth/core/adapters"',
        '"./adapter-types.js"',
      );
      writeFileSync(join(bare, "adapter.ts"), rewritten);
      const cliBin = join(app, "node_modules/create-auth/bin/create-auth.js");
      const onNode24 = await execa(nodeOf("24"), [cliBin, "verify-adapter", "my-adapter.ts", "--explore", "0"], {
        cwd: bare,
        env: userEnv(),
        extendEnv: false,
        reject: false,
        all: true,
      });
      expect(onNode24.exitCode, String(onNode24.all)).toBe(0);
      expect(String(onNode24.all)).toMatch(/\bPASS\b/);
      const onNode20 = await execa("node", [cliBin, "verify-adapter", "my-adapter.ts"], {
        cwd: bare,
        env: userEnv(),
        extendEnv: false,
        reject: false,
        all: true,
      });
      expect(onNode20.exitCode, String(onNode20.all)).toBe(process.versions.node.startsWith("20.") ? 2 : 0);
      if (process.versions.node.startsWith("20.")) expect(String(onNode20.all)).toMatch(/npm install --save-dev tsx/);

      // 4. init with the defaults, and its install: better-sqlite3's install script runs (the generated allowScripts
      // approves it) and downloads its prebuilt binary, as on a user's machine, from a release mirror on loopback.
      const mirror = await prebuiltMirror(await newestIn(dependencyVersions["better-sqlite3"]));
      const init = await step("npx create-auth init --yes", "npx", ["create-auth", "init", "--yes"], {
        cwd: app,
        env: { ...userEnv(), ...mirror.env },
        timeout: 6 * MINUTE,
      }).finally(() => mirror.close());
      for (const file of [
        "auth.ts",
        "providers/credentials.ts",
        "auth/adapter.ts",
        "auth/db.ts",
        "auth/verify-adapter.ts",
        "auth/schema.sqlite.sql",
        ".env.local",
        ".env.example",
      ]) {
        expect(existsSync(join(app, file)), `${file}\n${String(init.all)}`).toBe(true);
      }
      const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as Record<
        string,
        Record<string, unknown>
      >;
      expect(pkg.allowScripts).toMatchObject({ "better-sqlite3": true });
      expect(pkg.scripts?.["verify-adapter"]).toEqual(expect.stringContaining("create-auth verify-adapter"));
      expect(pkg.dependencies).toMatchObject({
        "@auth/core": expect.any(String),
        "better-sqlite3": expect.any(String),
      });
      // The install ran better-sqlite3's install script: it fetched the binary for its version and this Node.
      const installedVersion = versionOf(join(app, "node_modules/better-sqlite3"));
      expect(mirror.requests, String(init.all)).toEqual([
        `/v${installedVersion}/better-sqlite3-v${installedVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
      ]);
      expect(
        existsSync(join(app, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")),
        String(init.all),
      ).toBe(true);

      // 5. The generated adapter passes the contract.
      const verify = await step("npm run verify-adapter", "npm", ["run", "verify-adapter"], {
        cwd: app,
        timeout: 3 * MINUTE,
      });
      expect(String(verify.all)).toMatch(/\bPASS\b/);
      expect(String(verify.all)).not.toMatch(/\bFAIL\b/);

      // 6. The other commands and the library, with only what `dependencies` brought: a package the
      // bundle lacks and the package does not declare would fail here, not on a user's machine.
      const run = (name: string, args: string[]) =>
        step(name, "npx", ["create-auth", ...args], { cwd: app, timeout: MINUTE });
      expect(String((await run("create-auth --help", ["--help"])).all)).toMatch(/Exit codes:/);
      expect(String((await run("add-provider --list", ["add-provider", "--list"])).all)).toMatch(/github/);
      await run("add-provider social --no-install", ["add-provider", "social", "--no-install"]);
      expect(readFileSync(join(app, "auth.ts"), "utf8")).toMatch(/import \{ vk \} from "\.\/providers\/vk/);
      await run("migrate (again: the tables are there)", ["migrate"]);
      const doctor = await execa("npx", ["create-auth", "doctor", "--json"], {
        cwd: app,
        env: userEnv(),
        extendEnv: false,
        reject: false,
      });
      // A finding (the new provider's client ID is not set) is exit 1; anything else is the package's fault.
      expect([0, 1], doctor.stderr).toContain(doctor.exitCode);
      expect(JSON.parse(doctor.stdout)).toMatchObject({ version: 1, findings: expect.any(Array) });
      const library = await step(
        "import create-auth",
        "node",
        [
          "--input-type=module",
          "-e",
          'const m = await import("create-auth"); console.log(Object.keys(m).sort().join(","));',
        ],
        { cwd: app, timeout: MINUTE },
      );
      expect(String(library.stdout)).toMatch(/runVerifyAdapter/);

      // 7. The package declares no dependencies and no peers (an optional peer made a cold `npx create-auth` fetch
      // the metadata of each of the peer's own optional peers), and dist/ imports no package: create-auth/vitest
      // takes vitest from the project at run time, and says so in one line in a project without it.
      const installed = join(app, "node_modules", "create-auth");
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
      for (const field of ["dependencies", "peerDependencies", "peerDependenciesMeta", "optionalDependencies"])
        expect(manifest[field] ?? {}, field).toEqual({});
      expect(await importedPackages(installed)).toEqual([]);
      const withoutVitest = await execa("node", ["--input-type=module", "-e", 'await import("create-auth/vitest");'], {
        cwd: app,
        env: userEnv(),
        extendEnv: false,
        reject: false,
      });
      expect(withoutVitest.exitCode).toBe(1);
      expect(withoutVitest.stderr).toContain(`Error: ${notInstalled}\n`);

      // 8. The notice names exactly the packages bundled into dist/cli/, each with its licence files' text.
      const notice = readFileSync(join(installed, "dist", "THIRD-PARTY-NOTICES.txt"), "utf8");
      const bundled = await bundledPackages();
      const listed = [...notice.matchAll(/^- (\S+@\S+) \(/gm)].map((m) => m[1]);
      expect([...listed].sort()).toEqual([...bundled.keys()].sort());
      expect(
        bundled.has(
          `@babel/parser@${JSON.parse(readFileSync(join(projectRoot, "node_modules/@babel/parser/package.json"), "utf8")).version}`,
        ),
      ).toBe(true);
      for (const [id, folder] of bundled) {
        const licences = readdirSync(folder).filter((name) => /^licen[cs]e/i.test(name));
        expect(licences, `${id} ships a licence file`).not.toEqual([]);
        for (const name of licences)
          expect(notice, `${id}: ${name}`).toContain(
            readFileSync(join(folder, name), "utf8").replace(/\r\n/g, "\n").trim(),
          );
      }
      // 9. create-auth/vitest under pnpm's strict layout: a workspace whose app has create-auth and vitest, nothing
      // hoisted, so create-auth (in node_modules/.pnpm) has no vitest above it: the app's vitest runs the contract.
      const workspace = join(root, "pnpm");
      const pnpmApp = join(workspace, "packages", "app");
      mkdirSync(pnpmApp, { recursive: true });
      writeFileSync(join(workspace, "package.json"), '{ "name": "workspace", "private": true }\n');
      writeFileSync(join(workspace, "pnpm-workspace.yaml"), "packages:\n  - packages/*\nhoist: false\n");
      writeFileSync(
        join(pnpmApp, "package.json"),
        `${JSON.stringify({ name: "app", private: true, type: "module", devDependencies: { "create-auth": `file:${tarball}`, vitest: VITEST } }, null, 2)}\n`,
      );
      cpSync(join(projectRoot, "fixtures/adapters/memory.ts"), join(pnpmApp, "memory.ts"));
      writeFileSync(
        join(pnpmApp, "memory.test.ts"),
        'import { adapterContract } from "create-auth/vitest";\nimport { createMemoryAdapter } from "./memory.js";\n\nadapterContract(createMemoryAdapter, { seed: 3 });\n',
      );
      await step(
        "pnpm install (strict workspace)",
        "npx",
        // pnpm's store is content-addressed and shared by projects, as a user's is: kept between runs.
        ["--yes", PNPM, "install", "--store-dir", join(projectRoot, ".cache/pnpm-store")],
        {
          cwd: workspace,
          timeout: 3 * MINUTE,
        },
      );
      const storedAt = realpathSync(join(pnpmApp, "node_modules", "create-auth"));
      expect(storedAt).toContain(join(workspace, "node_modules", ".pnpm"));
      expect(() => createRequire(join(storedAt, "package.json")).resolve("vitest")).toThrow(/Cannot find/);
      const contract = await step("pnpm exec vitest run", "npx", ["--yes", PNPM, "exec", "vitest", "run"], {
        cwd: pnpmApp,
        env: { ...userEnv(), NO_COLOR: "1" },
        timeout: 2 * MINUTE,
      });
      expect(String(contract.all)).toMatch(/Tests\s+\d+ passed \(\d+\)/);
      expect(Number(/Tests\s+(\d+) passed/.exec(String(contract.all))?.[1])).toBeGreaterThanOrEqual(allCases.length);

      console.log(`[npm-pack] timings (ms): ${JSON.stringify(timings)}`);
    },
    BUDGET + MINUTE,
  );
});
