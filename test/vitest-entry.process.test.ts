// Runs vitest as a user would, on projects that use create-auth/vitest: this repo's fixtures, and projects
// laid out as package managers lay them, where create-auth finds vitest only through the project.
import { cpSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { allCases } from "../src/contract/cases/index.js";
import { notInstalled } from "../src/lib/running-vitest.js";
import { userEnv } from "./e2e/user-env.js";
import { fixture, root, tempDir } from "./helpers.js";

const runVitest = (file: string) =>
  execa(
    join(root, "node_modules", ".bin", "vitest"),
    ["run", "--config", fixture("vitest", "vitest.config.ts"), "--reporter", "verbose", file],
    {
      cwd: root,
      reject: false,
      env: { NO_COLOR: "1", CI: "true" },
    },
  );

describe("create-auth/vitest", () => {
  it("registers every case as a passing test for a correct adapter", async () => {
    const result = await runVitest("memory.contract.ts");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/✓ .*user\.get\.unknown-id-is-null: getUser returns null for an unknown id/);
    // One test per case, plus the capability checks the fixture requires.
    const [, passed, total] = /Tests\s+(\d+) passed \((\d+)\)/.exec(result.stdout) ?? [];
    expect(Number(passed)).toBe(Number(total));
    expect(Number(passed)).toBeGreaterThanOrEqual(allCases.length);
  });

  it("fails the cases an adapter breaks, skips what it lacks, and fails a missing required capability", async () => {
    const result = await runVitest("broken.contract.ts");
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/× .*user\.get\.unknown-id-is-null/);
    expect(output).toMatch(/getUser\(unknown id\) should be null\n/);
    expect(output).toMatch(/required capability "sessions" is not supported: missing createSession/);
    expect(output).toMatch(/↓ .*session\.create\.returns-session/);
  });

  it("a method that never settles fails its case at the call's limit, and the run ends", async () => {
    const result = await runVitest("hangs.contract.ts");
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/getUserByEmail never settled within 300 ms/);
    expect(output).toMatch(/getUserByEmail never settled in user\.get-by-email\.[a-z-]+; not called again/);
    expect(output).toMatch(/✓ .*user\.get\.unknown-id-is-null/);
  });

  it("adapterExploration: one test per adapter, failing with the smallest sequence and a reproduction", async () => {
    const result = await runVitest("explore.contract.ts");
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(/✓ .*memory adapter/);
    expect(output).toMatch(/× .*adapter whose unlinkAccount ignores the provider/);
    expect(output).toMatch(/not found after it was written/);
    // The first user may come from two tabs signing up at once: which one, the seed's draw decides.
    expect(output).toMatch(/smallest sequence that shows it:\n\s+1\. (at the same time: )?user1 = createUser\(/);
    expect(output).toMatch(/\d\. unlinkAccount\(/);
    expect(output).toMatch(/replay with seed 3 \(verify-adapter --seed 3 --explore-path \d+:/);
    expect(output).toContain('import * as adapterModule from "./unlink-ignores-provider";');
    expect(output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
  });
});

/** The folder this repo's node_modules really is (the dependencies a copied or linked project reuses). */
const modules = realpathSync(join(root, "node_modules"));

/**
 * create-auth as pnpm's store holds it (node_modules/.pnpm/create-auth@0.1.0/node_modules/create-auth, here
 * outside the project, as its global store puts it): a folder under no node_modules that holds vitest, so
 * create-auth's own lookup of vitest fails.
 */
function storedCreateAuth(base: string): string {
  const dir = join(base, "store", ".pnpm", "create-auth@0.1.0", "node_modules", "create-auth");
  mkdirSync(join(dir, "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(dir, "package.json"));
  cpSync(join(root, "dist", "cli"), join(dir, "dist", "cli"), { recursive: true });
  expect(() => createRequire(join(dir, "dist", "cli", "vitest.js")).resolve("vitest")).toThrow(/Cannot find/);
  return dir;
}

/** A project whose node_modules links each of `links` (name -> folder), with a test file of the contract. */
function project(base: string, links: Record<string, string>): string {
  const dir = join(base, "app");
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(target, join(dir, "node_modules", name), "dir");
  }
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  cpSync(fixture("adapters", "memory.ts"), join(dir, "memory.ts"));
  writeFileSync(
    join(dir, "memory.test.ts"),
    'import { adapterContract } from "create-auth/vitest";\nimport { createMemoryAdapter } from "./memory.js";\n\nadapterContract(createMemoryAdapter, { seed: 3 });\n',
  );
  return dir;
}

/** What a module of the project that imports create-auth/vitest outside vitest prints. */
const importEntry = 'const m = await import("create-auth/vitest"); console.log(Object.keys(m).sort().join(","));';

/** `vitest run` in the project, by the given copy of vitest, in a user's environment. */
const runIn = (cwd: string, vitest: string) =>
  execa("node", [join(vitest, "vitest.mjs"), "run", "--reporter", "verbose"], {
    cwd,
    env: { ...userEnv(), NO_COLOR: "1" },
    extendEnv: false,
    reject: false,
    all: true,
  });

/** Every case passed, as one test each. */
function expectContractPassed(result: { exitCode?: number; all?: unknown }) {
  const output = String(result.all);
  expect(result.exitCode, output).toBe(0);
  expect(output).toMatch(/✓ .*user\.get\.unknown-id-is-null/);
  const [, passed] = /Tests\s+(\d+) passed \((\d+)\)/.exec(output) ?? [];
  expect(Number(passed), output).toBeGreaterThanOrEqual(allCases.length);
}

describe("create-auth/vitest finds the project's vitest where create-auth's own folder cannot", () => {
  it("pnpm's layout: create-auth in a store with no vitest above it, vitest linked into the project", async () => {
    const base = tempDir();
    const app = project(base, { "create-auth": storedCreateAuth(base), vitest: join(modules, "vitest") });
    expectContractPassed(await runIn(app, join(app, "node_modules", "vitest")));
    // Outside a vitest run too (no running copy to go by), from the folder it runs in.
    const outside = await execa("node", ["--input-type=module", "-e", importEntry], {
      cwd: app,
      env: userEnv(),
      extendEnv: false,
      reject: false,
    });
    expect(outside.stderr).toBe("");
    expect(outside.stdout).toBe("adapterContract,adapterExploration");
  });

  it("two copies of vitest: the one running the tests is the one registered with, another is refused", async () => {
    // The project holds its own copy of vitest and of the runner behind describe() and it(); the tests are run
    // by another (a monorepo's root vitest, say). Registered with the project's copy, no test would run.
    const base = tempDir();
    const links: Record<string, string> = { "create-auth": storedCreateAuth(base) };
    for (const name of readdirSync(modules)) {
      if (name.startsWith(".") || name === "vitest" || name === "create-auth") continue;
      const scoped = name.startsWith("@") ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name];
      for (const entry of scoped) if (entry !== "@vitest/runner") links[entry] = join(modules, entry);
    }
    const app = project(base, links);
    for (const copied of ["vitest", "@vitest/runner"])
      cpSync(join(modules, copied), join(app, "node_modules", copied), { recursive: true });
    const copy = join(app, "node_modules", "vitest", "dist", "index.js");
    const running = join(modules, "vitest", "dist", "index.js");
    writeFileSync(
      join(app, "guard.test.ts"),
      `import { expect, it } from "vitest";
import { loadVitest } from ${JSON.stringify(join(root, "src", "lib", "running-vitest.ts"))};

it("refuses a copy of vitest that is not the one running, and puts the running one's expect back", async () => {
  await expect(loadVitest([${JSON.stringify(copy)}])).rejects.toThrow(/found vitest at .* but another copy of vitest runs this test/);
  expect((globalThis as Record<symbol, unknown>)[Symbol.for("expect-global")]).toBe(expect);
  expect((await loadVitest([${JSON.stringify(copy)}, ${JSON.stringify(running)}])).expect).toBe(expect);
});
`,
    );
    const result = await runIn(app, join(modules, "vitest"));
    expectContractPassed(result);
    expect(String(result.all)).toMatch(/✓ .*refuses a copy of vitest/);
  });

  it("without vitest anywhere, importing create-auth/vitest fails with one line that says to install it", async () => {
    const base = tempDir();
    const app = project(base, { "create-auth": storedCreateAuth(base) });
    const result = await execa("node", ["--input-type=module", "-e", importEntry], {
      cwd: app,
      env: userEnv(),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`Error: ${notInstalled}\n`);
    expect(notInstalled).not.toContain("\n");
  });
});
